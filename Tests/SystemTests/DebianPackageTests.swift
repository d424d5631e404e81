import Foundation
import XCTest

/// `make deb`: the package is named by the version, depends on the system libraries the
/// binary links (never on Swift's), holds what `make install` installs with the README
/// and a copyright file, passes lintian without errors, and its binary, unpacked anywhere,
/// runs a bundled routine under `env -i`.
final class DebianPackageTests: XCTestCase {
    nonisolated(unsafe) static var built: Spawned?

    override class func setUp() {
        built = try? Installation.make(["deb-built"])
    }

    func package() throws -> String {
        let built = try XCTUnwrap(Self.built, "make could not be run")
        guard built.status == 0 else { throw Installation.Failed(what: "make deb-built", output: built.output) }
        let architecture = try Installation.command(["dpkg", "--print-architecture"]).output.trimmed
        let path = packageRoot.appendingPathComponent("dist/workout_\(try Installation.version)_\(architecture).deb").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "no \(path): \(built.output)")
        return path
    }

    func testTheControlFileNamesTheVersionAndTheLibrariesTheBinaryLinks() throws {
        let deb = try package()
        let field = { (name: String) in try Installation.command(["dpkg-deb", "-f", deb, name]).output.trimmed }
        XCTAssertEqual(try field("Package"), "workout")
        XCTAssertEqual(try field("Version"), try Installation.version)
        let depends = try field("Depends")
        for library in ["liblua5.4-0 (>=", "libc6 (>=", "libstdc++6"] {
            XCTAssertTrue(depends.contains(library), depends)
        }
        XCTAssertFalse(depends.lowercased().contains("swift"), depends)
        // The libraries opened at run time are suggested, not required: without them only
        // sound, sound files and `--mqtt` stop.
        let suggests = try field("Suggests")
        for library in ["libpulse0", "libsndfile1", "libmosquitto1", "libcurl4"] {
            XCTAssertTrue(suggests.contains(library), suggests)
            XCTAssertFalse(depends.contains(library), depends)
        }
    }

    func testThePackageHoldsWhatMakeInstallInstallsAndTheDocuments() throws {
        let listing = try Installation.command(["dpkg-deb", "-c", try package()])
        XCTAssertEqual(listing.status, 0, listing.output)
        for path in ["./usr/bin/workout", "./usr/share/workout/programs/tabata.lua",
                     "./usr/share/workout/programs/types/workout.lua", "./usr/share/workout/programs/.luarc.json",
                     "./usr/share/workout/programs/.luacheckrc", "./usr/share/man/man1/workout.1.gz",
                     "./usr/share/bash-completion/completions/workout", "./usr/share/zsh/vendor-completions/_workout",
                     "./usr/share/fish/vendor_completions.d/workout.fish", "./usr/share/doc/workout/README.md", "./usr/share/doc/workout/docs/routines.md",
                     "./usr/share/doc/workout/copyright", "./usr/share/doc/workout/changelog.gz"] {
            XCTAssertTrue(listing.output.contains(" \(path)\n"), "\(path) is not in the package")
        }
        XCTAssertFalse(listing.output.contains("/usr/local"), listing.output)
    }

    func testLintianFindsNoErrors() throws {
        let lintian = try Installation.command(["lintian", "--fail-on", "error", try package()])
        XCTAssertEqual(lintian.status, 0, lintian.output)
        XCTAssertFalse(lintian.output.split(separator: "\n").contains { $0.hasPrefix("E: ") }, lintian.output)
    }

    /// Unpacked into a scratch folder (not installed), the binary still finds the routines
    /// beside it and needs nothing of the Swift toolchain: no run path, no Swift library,
    /// and stripped.
    func testTheUnpackedBinaryStandsAloneAndRunsADryRun() throws {
        let deb = try package()
        let root = try Installation.temporaryDirectory("deb")
        defer { try? FileManager.default.removeItem(at: root) }
        let unpacked = try Installation.command(["dpkg-deb", "-x", deb, root.path])
        XCTAssertEqual(unpacked.status, 0, unpacked.output)
        let binary = root.appendingPathComponent("usr/bin/workout").path

        let run = try Installation.clean([binary, "run", "tabata", "--dry-run", "--json"],
                                         ["HOME": root.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.split(separator: "\n").last?.contains(#""completed":true"#) == true, run.output)

        let dynamic = try Installation.command(["readelf", "-d", binary]).output
        XCTAssertTrue(dynamic.contains("liblua5.4.so.0"), dynamic)
        XCTAssertFalse(dynamic.contains("RPATH") || dynamic.contains("RUNPATH"), dynamic)
        XCTAssertFalse(dynamic.lowercased().contains("swift") || dynamic.contains("Foundation"), dynamic)
        let sections = try Installation.command(["readelf", "-S", "-W", binary])
        XCTAssertTrue(sections.output.contains(".text"), sections.output)
        XCTAssertFalse(sections.output.contains(".symtab") || sections.output.contains(".debug_"), "not stripped")
    }
}
