// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "workout",
    products: [
        .executable(name: "workout", targets: ["workout"]),
        .library(name: "IntervalEngine", targets: ["IntervalEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        .target(name: "IntervalEngine", dependencies: ["CLua"]),
        .target(name: "Display", dependencies: ["IntervalEngine"]),
        .executableTarget(
            name: "workout",
            dependencies: [
                "IntervalEngine",
                "Display",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("programs")]
        ),
        .testTarget(
            name: "IntervalEngineTests",
            dependencies: ["IntervalEngine", "Display"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
