import CLua
import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// The files generated from the API table (LuaLS definitions, .luarc.json, .luacheckrc,
/// docs/api.md) are shipped in the repository; they must be what the table generates
/// now, and the table must describe what the engine really does.
final class DefinitionsTests: XCTestCase {
    func shipped(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    func testShippedFilesAreWhatTheTableGenerates() throws {
        for (path, generated) in [("programs/types/workout.lua", LuaLSDefinitions.text()),
                                  ("programs/.luarc.json", LuaLSDefinitions.luarc),
                                  (".luacheckrc", LuacheckConfig.text()),
                                  ("docs/api.md", APIReference.text())] {
            XCTAssertEqual(try shipped(path), generated, "\(path) is stale: run `make definitions`")
        }
    }

    func testTheLoaderRegistersExactlyTheTable() {
        let lua = LuaState(chunkName: "t.lua")
        for function in RoutineAPI.functions {
            XCTAssertEqual(lua_getglobal(lua.L, function.name), LUA_TFUNCTION, function.name)
            lua.stack.pop()
        }
        let luaOwn: Set<String> = ["_G", "_VERSION", "assert", "collectgarbage", "coroutine", "error", "getmetatable",
                                   "ipairs", "load", "math", "next", "os", "pairs", "pcall", "print", "rawequal",
                                   "rawget", "rawlen", "rawset", "require", "select", "setmetatable", "string", "table",
                                   "tonumber", "tostring", "type", "utf8", "warn", "xpcall"]
        let extra = LuacheckConfig.sandboxGlobals().map(\.0).filter { !luaOwn.contains($0) }
        XCTAssertEqual(Set(extra), Set(RoutineAPI.functions.map(\.name) + ["history"]).union(RoutineAPI.tables.keys),
                       "a global that the table does not describe (history: RoutineTypes.history)")
    }

    func testTheLuaLSFileIsValidLuaWithAnAnnotationForEveryGlobal() throws {
        let text = LuaLSDefinitions.text()
        XCTAssertTrue(text.hasPrefix("---@meta\n"))
        let lua = LuaState(chunkName: "workout.lua")
        XCTAssertNoThrow(try lua.run(source: Array(text.utf8), results: 0))
        for function in RoutineAPI.functions {
            XCTAssertTrue(text.contains("\nfunction \(function.name)("), function.name)
        }
        for shape in RoutineTypes.all {
            XCTAssertTrue(text.contains("---@class \(shape.name)\n"), shape.name)
        }
        XCTAssertTrue(text.contains("---@param d workout.Duration How long"))
        XCTAssertTrue(text.contains("---@field on_segment_start? fun(seg: workout.Segment) "))
        XCTAssertTrue(text.contains("---@field [integer] workout.Step\n"))
    }

    func testEveryTypeNamedInTheTableIsDefined() {
        let defined = Set(RoutineTypes.all.map(\.name) + RoutineTypes.aliases.map(\.name))
        var types = RoutineAPI.functions.flatMap { $0.parameters.map(\.type) + [$0.returns ?? ""] + $0.overloads }
        types += RoutineTypes.all.flatMap { $0.fields.map(\.type) + [$0.items ?? ""] }
        types += RoutineTypes.aliases.map(\.type)
        let named = types.flatMap { type in
            type.split(whereSeparator: { !($0.isLetter || $0 == "." || $0 == "_") }).map(String.init)
        }.filter { $0.hasPrefix("workout.") }
        for name in Set(named) {
            XCTAssertTrue(defined.contains(name), "\(name) is used but not defined")
        }
    }

    /// The tables hooks get hold exactly the documented fields.
    func testHookTablesHoldTheDocumentedFields() throws {
        let harness = try Harness("""
            local function keys(t)
              local names = {}
              for k in pairs(t) do names[#names + 1] = k end
              table.sort(names)
              return table.concat(names, " ")
            end
            return workout { name = "Keys", description = "d",
              rounds(1, { work{ distance = 400, cap = 1, info = { x = 1 } } }, { name = "B" }),
              on_start = function(w) print("w " .. keys(w)) end,
              on_segment_start = function(seg) print("seg " .. keys(seg)) end,
              on_finish = function(summary) print("summary " .. keys(summary)) end,
            }
            """)
        harness.run()
        let logs = harness.events.compactMap { event -> String? in
            if case let .log(text) = event.kind { return text }
            return nil
        }
        let sorted = { (shape: APIClass) in shape.fieldNames.sorted().joined(separator: " ") }
        XCTAssertEqual(logs, ["w " + sorted(RoutineTypes.started), "seg " + sorted(RoutineTypes.segment),
                              "summary " + sorted(RoutineTypes.summary)])
    }

    func testConstructorsAcceptExactlyTheDocumentedFields() {
        XCTAssertEqual(loadError("return workout { name = \"N\", work(1), x = 1 }"),
                       "test.lua:1: workout: unknown field 'x' (expected \(RoutineTypes.workoutSpec.fieldNames.joined(separator: ", ")))")
        XCTAssertEqual(loadError("return workout { name = \"N\", segment { kind = \"work\", duration = 1, x = 1 } }"),
                       "test.lua:1: segment: unknown field 'x' (expected \(RoutineTypes.segmentSpec.fieldNames.joined(separator: ", ")))")
        XCTAssertEqual(loadError("return workout { name = \"N\", rounds(1, { work(1) }, { x = 1 }) }"),
                       "test.lua:1: rounds: unknown field 'x' (expected \(RoutineTypes.roundsOptions.fieldNames.joined(separator: ", ")))")
    }
}
