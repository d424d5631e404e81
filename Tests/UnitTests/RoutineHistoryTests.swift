import Foundation
import PastSessions
import WorkoutValues
import TestSupport
import XCTest
@testable import History
@testable import IntervalEngine
@testable import LuaBridge

/// A routine reading its own history: only its sessions, newest first, read-only, a
/// damaged line passed over, read lazily from the end, within the sandbox's limits, and
/// parameters that follow it (`from_history`, which `--set` overrides).
final class RoutineHistoryTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("routine-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A history file of `lines`, one a line.
    func file(_ lines: [String]) throws -> HistoryFile {
        let url = directory.appendingPathComponent("history.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        return HistoryFile(path: url.path)
    }

    func session(_ program: String, day: Int, completed: Bool = true, params: [(String, JSONValue)] = [],
                 scores: [Score] = []) -> String {
        let started = Date(timeIntervalSince1970: 1_760_000_000 + Double(day) * 86_400)
        return HistoryEntry(program: program, file: "/r/x.lua", sha256: "", started: started, ended: started,
                            completed: completed, elapsed: 60, segmentsDone: 1, segments: 1, workSeconds: 30,
                            scores: scores, active: 50, params: params.map { ($0.0, $0.1) }).json.text
    }

    func run(_ source: String, history: HistoryFile?, settings: [ParameterSetting] = [],
             limits: LuaLimits = LuaLimits()) throws -> (Routine, [String]) {
        let routine = try RoutineLoader.load(source: source, fileName: "r.lua", settings: settings, limits: limits,
                                             history: history)
        let harness = Harness(routine)
        harness.run()
        let logs = harness.events.compactMap { event -> String? in
            switch event.kind {
            case let .log(text): text
            case let .error(message, _, _): "error: " + message
            default: nil
            }
        }
        return (routine, logs)
    }

    func testOnlyThisRoutinesSessionsNewestFirstWithTheirFields() throws {
        let history = try file([
            session("Mine", day: 1, params: [("week", .integer(1))], scores: [Score(name: "rounds", value: 5)]),
            session("Other", day: 2),
            "{ this line is damaged",
            session("Mine", day: 3, completed: false, params: [("week", .integer(2))],
                    scores: [Score(name: "rounds", value: 7), Score(name: "time", value: 300, lowerIsBetter: true)]),
            "",
            session("Other", day: 4),
        ])
        let (_, logs) = try run("""
            return workout { name = "Mine", countdown = 0, work(1),
              on_start = function()
                print(#history, history[1].completed, history[1].params.week, history[2].params.week, history[3])
                print(history.count{ completed = true }, history.last{ completed = true }.params.week)
                print(history.best("rounds"), history.latest("rounds"), history.best("time"), history.best("nothing"))
                print(history[1].better.time, history[1].scores.time, history[1].active, history[1].elapsed)
                print(history.count(function(e) return e.scores.rounds and e.scores.rounds > 6 end))
              end }
            """, history: history)
        XCTAssertEqual(logs, ["2\tfalse\t2\t1\tnil", "1\t1", "7\t7\t300\tnil", "lower\t300\t50\t60", "1"])
    }

    /// A past session's sensor figures as the line keeps them: `hr = {avg, max, zones}`,
    /// `power = {avg}`, and the same for an open segment; none without sensors.
    func testASessionsSensorFigures() throws {
        let started = Date(timeIntervalSince1970: 1_760_000_000)
        let sensors = SensorSummary(averageHR: 140.5, maxHR: 170, zoneSeconds: [10, 0, 0, 10, 0], averagePower: 200)
        var entry = HistoryEntry(program: "Mine", file: "/r/x.lua", sha256: "", started: started, ended: started,
                                 completed: true, elapsed: 60, segmentsDone: 1, segments: 1, workSeconds: 30,
                                 open: [OpenSegmentRecord(index: 1, name: "Set", seconds: 20, by: .athlete, laps: [],
                                                          sensors: SensorSummary(maxHR: 150, averagePower: 180))])
        entry.sensors = sensors
        let history = try file([session("Mine", day: 0), entry.json.text])
        let (_, logs) = try run("""
            return workout { name = "Mine", countdown = 0, work(1),
              on_start = function()
                local s = history[1]
                print(s.hr.avg, s.hr.max, math.type(s.hr.max), table.concat(s.hr.zones, ","), s.power.avg)
                print(s.open[1].hr.avg, s.open[1].hr.max, s.open[1].power.avg, history[2].hr, history[2].power)
              end }
            """, history: history)
        XCTAssertEqual(logs, ["140.5\t170\tinteger\t10,0,0,10,0\t200", "nil\t150\t180\tnil\tnil"])
    }

    func testEntriesAreReadOnlyAndAWriteNamesItsLine() throws {
        let history = try file([session("Mine", day: 1, params: [("week", .integer(1))])])
        let (_, logs) = try run("""
            return workout { name = "Mine", countdown = 0, work(1),
              on_start = function()
                print(pcall(function() history[1].completed = false end))
                print(pcall(function() history[1].params.week = 9 end))
                print(pcall(function() history.count = nil end))
                print(pcall(function() setmetatable(history[1], {}) end))
                print(history[1].completed, history[1].params.week)
              end }
            """, history: history)
        XCTAssertEqual(logs, [
            "false\tr.lua:3: history is read-only: its sessions are what they were",
            "false\tr.lua:4: history is read-only: its sessions are what they were",
            "false\tr.lua:5: history is read-only: its sessions are what they were",
            "false\t[workout prelude]:18: cannot change a protected metatable",
            "true\t1",
        ])
    }

    func testAParameterFollowsItsHistoryAndSetWins() throws {
        let source = """
            local p = params { week = { default = 1, from_history = function(h)
              local last = h.last{ completed = true }
              if last == nil then return nil end
              return last.params.week + 1, "after week " .. last.params.week
            end } }
            return workout { name = "Plan", countdown = 0, work(p.week) }
            """
        let history = try file([session("Plan", day: 1, params: [("week", .integer(3))]),
                                session("Plan", day: 2, completed: false, params: [("week", .integer(4))])])
        let followed = try RoutineLoader.load(source: source, fileName: "r.lua", history: history)
        XCTAssertEqual(followed.parameters.first?.value, .integer(4))
        XCTAssertEqual(followed.parameters.first?.origin, .history("after week 3"))
        XCTAssertEqual(followed.parameters.first?.originText, "week=4 (from history: after week 3)")
        let harness = Harness(followed)
        harness.run()
        guard case let .workoutStart(_, _, _, _, fromHistory) = harness.events.first?.kind else { return XCTFail() }
        XCTAssertEqual(fromHistory, [NamedValue("week", .integer(4))])
        XCTAssertTrue(harness.events.first!.json.text.hasSuffix(#""from_history":{"week":4}}"#))

        let set = try RoutineLoader.load(source: source, fileName: "r.lua",
                                         settings: [ParameterSetting(name: "week", text: "9")], history: history)
        XCTAssertEqual(set.parameters.first?.value, .integer(9), "--set always wins")
        XCTAssertEqual(set.parameters.first?.origin, .set)

        let none = try RoutineLoader.load(source: source, fileName: "r.lua", history: nil)
        XCTAssertEqual(none.parameters.first?.value, .integer(1), "no history: the default")
        XCTAssertEqual(none.parameters.first?.origin, .standard)

        let wrong = source.replacingOccurrences(of: "return last.params.week + 1", with: "return \"soon\"")
        XCTAssertThrowsError(try RoutineLoader.load(source: wrong, fileName: "r.lua", history: history)) { error in
            XCTAssertEqual((error as? RoutineError)?.message,
                           "r.lua:1: params: week: from_history: its result must be a whole number, got \"soon\"")
        }
    }

    func testTheLastSessionOfAHundredThousandIsReadFromTheEndNotTheWhole() throws {
        let url = directory.appendingPathComponent("big.jsonl")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var block = ""
        for day in 0..<100_000 {
            block += session(day % 10 == 0 ? "Mine" : "Other", day: day % 3_000, params: [("week", .integer(day))]) + "\n"
            if block.utf8.count > 1 << 20 {
                handle.write(Data(block.utf8))
                block = ""
            }
        }
        handle.write(Data(block.utf8))
        try handle.close()
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        XCTAssertGreaterThan(size, 15_000_000)
        let routine = try RoutineLoader.load(source: """
            local p = params { week = { default = 0, from_history = function(h)
              local last = h.last()
              return last and last.params.week
            end } }
            return workout { name = "Mine", countdown = 0, work(1) }
            """, fileName: "r.lua", history: HistoryFile(path: url.path))
        XCTAssertEqual(routine.parameters.first?.value, .integer(99_990), "the newest of this routine")
        XCTAssertLessThan(routine.lua.history.bytesRead, 1 << 18, "a block or two from the end, not \(size) bytes")

        // Counting reads it all, streamed, and stays within the routine's limits.
        let (counted, logs) = try run("""
            return workout { name = "Mine", countdown = 0, work(1),
              on_start = function() print(history.count(), history.count{ completed = false }) end }
            """, history: HistoryFile(path: url.path), limits: LuaLimits(hookSeconds: 120))
        XCTAssertEqual(logs, ["10000\t0"])
        XCTAssertGreaterThanOrEqual(counted.lua.history.bytesRead, size)
    }

    /// Hooks that count, and ask for a best, at every segment read the file once — and
    /// that once while the routine loads, before the workout starts: no timer waits for
    /// a history query (a million sessions took 3 s a call, and boundaries fell later and
    /// later).
    func testWholeHistoryQueriesReadTheFileOnceAndBeforeTheWorkout() throws {
        let lines = (0..<20_000).map { day in
            session(day % 2 == 0 ? "Mine" : "Other", day: day % 3_000, completed: day % 4 != 0,
                    scores: [Score(name: "rounds", value: Double(day % 977))])
        }
        let history = try file(lines)
        let size = try FileManager.default.attributesOfItem(atPath: history.path)[.size] as! Int
        let source = """
            return workout { name = "Mine", countdown = 0, rounds(5, { work(1) }),
              on_segment_start = function()
                print(history.count(), history.count{ completed = false }, #history, history.best("rounds"),
                      history.latest("rounds"), history.last{ completed = false } ~= nil, history.days_since() ~= nil)
              end }
            """
        let routine = try RoutineLoader.load(source: Array(source.utf8), fileName: "r.lua", history: history)
        let loaded = routine.lua.history.bytesRead
        XCTAssertGreaterThanOrEqual(loaded, size, "read while it loads")
        let harness = Harness(routine)
        harness.run()
        let logs = harness.events.compactMap { event -> String? in if case let .log(text) = event.kind { text } else { nil } }
        XCTAssertEqual(logs.count, 5)
        XCTAssertEqual(Set(logs), ["10000\t5000\t10000\t976\t\(19_998 % 977)\ttrue\ttrue"])
        XCTAssertLessThan(routine.lua.history.bytesRead - loaded, 1 << 20,
                          "the hooks read at most the newest sessions once, not the file at every call")
    }

    func testTheSummaryAgreesWithAWalkOverEveryEntry() throws {
        let history = try file((0..<2_500).map { day in
            session("Mine", day: day, completed: day % 3 != 0,
                    scores: day % 5 == 0 ? [Score(name: "time", value: Double(1000 - day % 700), lowerIsBetter: true)] : [])
        })
        let summary = RoutineHistory(file: history, name: "Mine").summary()
        var count = 0, completed = 0
        var best: Score?
        var newestStopped: Int?
        RoutineHistory(file: history, name: "Mine").forEach { entry in
            count += 1
            if entry.completed { completed += 1 } else if newestStopped == nil { newestStopped = count }
            if let score = entry.scores.first, best.map({ score.beats($0.value) }) ?? true { best = score }
            return true
        }
        XCTAssertEqual(summary.count, count)
        XCTAssertEqual(summary.completed, completed)
        XCTAssertEqual(summary.newest[false]?.index, newestStopped)
        XCTAssertEqual(summary.best["time"], best)
        XCTAssertEqual(summary.best["time"]?.value, 305)
    }

    func testARoutineWalkingItsHistoryIsStillBoundByItsLimits() throws {
        let history = try file((0..<3_000).map { session("Mine", day: $0) })
        let (_, logs) = try run("""
            return workout { name = "Mine", countdown = 0, work(1),
              on_start = function()
                while true do
                  for i = 1, #history do local _ = history[i].date end
                end
              end }
            """, history: history)
        XCTAssertEqual(logs.count, 1)
        XCTAssertTrue(logs.first?.hasPrefix("error: ") == true && logs.first!.contains("r.lua:"), "\(logs)")
    }

    func testALongLineOrAFileThatIsNotOneIsPassedOver() throws {
        let url = directory.appendingPathComponent("long.jsonl")
        let long = String(repeating: "x", count: 200_000)
        try ([session("Mine", day: 1, params: [("week", .integer(1))]), long,
              session("Mine", day: 2, params: [("week", .integer(2))]), long].joined(separator: "\n"))
            .write(to: url, atomically: false, encoding: .utf8)
        var weeks: [JSONValue] = []
        HistoryFile(path: url.path).forEachEntryNewestFirst { entry in
            weeks.append(entry.params.first?.value ?? .null)
            return true
        }
        XCTAssertEqual(weeks, [.integer(2), .integer(1)])
        XCTAssertEqual(HistoryFile(path: directory.path).forEachEntryNewestFirst { _ in true }, 0, "a directory is no history")
    }
}
