import ArgumentParser
import IntervalEngine
import LuaBridge

/// `workout definitions luals|luarc|luacheck|reference`: prints a file generated from the
/// API table. Hidden: `make definitions` uses it to refresh the copies in the repository,
/// and a test fails when those differ from what the table generates.
struct Definitions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "definitions",
        abstract: "Print a generated file: LuaLS definitions, .luarc.json, .luacheckrc or the API reference.",
        shouldDisplay: false)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case luals, luarc, luacheck, reference
    }

    @Argument(help: "One of: luals, luarc, luacheck, reference.")
    var kind: Kind

    func run() throws {
        Output.write(Self.text(kind))
    }

    static func text(_ kind: Kind) -> String {
        switch kind {
        case .luals: LuaLSDefinitions.text()
        case .luarc: LuaLSDefinitions.luarc
        case .luacheck: LuacheckConfig.text()
        case .reference: APIReference.text()
        }
    }
}
