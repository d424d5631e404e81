import Foundation
import PastSessions
import Platform
import Synchronization
import TestSupport
import XCTest
@testable import History
@testable import IntervalEngine
@testable import LuaBridge

/// The listeners a real run wires in besides the output: the history recorder, the alert
/// player behind the one switchboard, and the debug build's Lua stack guard.
final class PluginTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-plugins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        LastResort.set(nil)
    }

    let twoSegments = "return workout { name = \"Two\", work(20, \"A\"), rest(10, \"B\") }"

    /// A harness whose session is recorded in a history file of its own.
    func recorded(_ source: String) throws -> (Harness, HistoryRecorder, HistoryFile) {
        let harness = try Harness(source)
        let file = HistoryFile(path: directory.appendingPathComponent("history.jsonl").path)
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        let recorder = HistoryRecorder(routine: harness.session.routine, file: file, clock: {
            defer { now += 1 }
            return now
        })
        harness.session.subscribe(recorder)
        return (harness, recorder, file)
    }

    func testAFinishedSessionIsRecordedFromItsEvents() throws {
        let (harness, recorder, file) = try recorded(twoSegments)
        harness.run()
        XCTAssertTrue(recorder.recorded)
        let entries = try file.read().entries
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?.program, "Two")
        XCTAssertEqual(entries.first?.completed, true)
        XCTAssertEqual(entries.first?.elapsed, 30)
        XCTAssertEqual(entries.first?.workSeconds, 20)
    }

    func testAQuitOrASignalIsRecordedByTheSamePath() throws {
        let (harness, _, file) = try recorded(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 25)
        harness.session.apply(.quit)
        let entry = try XCTUnwrap(file.read().entries.first)
        XCTAssertEqual(entry.completed, false)
        XCTAssertEqual(entry.elapsed, 25)
        XCTAssertEqual(entry.segmentsDone, 1)
    }

    func testNoWorkoutEndMeansNoEntryButALastResortLineIsReady() throws {
        let (harness, recorder, file) = try recorded(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 22)
        XCTAssertFalse(recorder.recorded)
        XCTAssertEqual(try file.read().entries, [])
        let prepared = try XCTUnwrap(LastResort.line)
        XCTAssertEqual(prepared.path, file.path)
        let entry = try XCTUnwrap(HistoryEntry(line: String(prepared.line.dropLast())))
        XCTAssertFalse(entry.completed, "what the watchdog appends if it must end the process")
        XCTAssertEqual(entry.segmentsDone, 1)
        XCTAssertEqual(entry.elapsed, 20, "as of the latest boundary")
        harness.clock.run()
        XCTAssertNil(LastResort.line, "cleared once the real entry is written")
    }

    final class Player: AlertPlayer {
        var heard: [String] = []
        func bell() { heard.append("bell") }
        func notify(title: String, body: String, urgency: Urgency) { heard.append("notify \(title) | \(body) | \(urgency)") }
        func say(_ text: String) { heard.append("say \(text)") }
    }

    func testTheSwitchesDecideWhatIsHeardNotWhatIsReported() throws {
        let source = """
            return workout { name = "S", countdown = 0, work(5, "A"),
              on_segment_start = function() say("hello"); bell(); notify("Title", "Body") end }
            """
        for switches in [AlertSwitches(bell: false), AlertSwitches(bell: true, notify: true, voice: true)] {
            let harness = try Harness(source, options: SessionOptions(alerts: switches))
            let player = Player()
            harness.session.subscribe(AlertListener(player: player))
            harness.run()
            XCTAssertEqual(harness.events.filter { $0.name == "alert" }.count,
                           switches.voice ? 3 + 3 + 2 : 3, "the routine's own alerts are always events")
            if switches.voice {
                XCTAssertEqual(player.heard, ["say hello", "bell", "notify Title | Body | normal", "bell",
                                              "notify A | work · 0:05 | normal", "say A", "bell",
                                              "notify S done | 0:05 · 1/1 segments · 0:05 of work | critical"])
            } else {
                XCTAssertEqual(player.heard, [], "say() without --voice starts nothing")
            }
        }
    }

    func testTheSwitchboardReadsTheOptionsAndTheEnvironment() {
        let noBus = ["PATH": "/nonexistent"]
        XCTAssertEqual(AlertSwitches.decide(bell: nil, notify: nil, voice: false, dryRun: false, environment: noBus),
                       AlertSwitches(bell: true, notify: false, voice: false))
        XCTAssertEqual(AlertSwitches.decide(bell: false, notify: true, voice: true, dryRun: false, environment: noBus),
                       AlertSwitches(bell: false, notify: true, voice: true))
        XCTAssertEqual(AlertSwitches.decide(bell: nil, notify: true, voice: true, dryRun: true, environment: noBus),
                       .silent, "a dry run sounds nothing and prints no bell unless asked")
        XCTAssertEqual(AlertSwitches.decide(bell: true, notify: nil, voice: false, dryRun: true, environment: noBus),
                       AlertSwitches(bell: true, notify: false, voice: false), "--bell asks for the bells as events")
        XCTAssertEqual(AlertSwitches.decide(bell: nil, notify: false, voice: false, display: true, dryRun: false,
                                            environment: noBus),
                       AlertSwitches(bell: true, flash: true), "the display flashes")
        XCTAssertEqual(AlertSwitches.decide(bell: nil, notify: false, voice: false, noFlash: true, display: true,
                                            dryRun: false, environment: noBus),
                       AlertSwitches(bell: true), "--no-flash")
        XCTAssertFalse(AlertSwitches.decide(bell: nil, notify: false, voice: false, display: false, dryRun: false,
                                            environment: noBus).flash, "nothing shows a flash without the display")
    }

    /// Each boundary and countdown second flashes when the switch is on, also with the
    /// bell off; the routine's `flash()` is an event either way.
    func testTheFlashComesAtBoundariesAndCountdownSeconds() throws {
        let source = """
            return workout { name = "F", countdown = 2, work(5, "A"), rest(3, "B"),
              on_segment_end = function() flash() end }
            """
        let flashing = try Harness(source, options: SessionOptions(bell: false, flash: true))
        XCTAssertEqual(flashing.run().filter { $0.contains("flash") },
                       ["0 flash", "3 flash 2", "4 flash 1", "5 flash", "5 flash", "6 flash 2", "7 flash 1", "8 flash"])
        let off = try Harness(source, options: SessionOptions(bell: false, flash: false))
        XCTAssertEqual(off.run().filter { $0.contains("flash") }, ["5 flash", "8 flash"],
                       "the routine's own flash() is always an event")
    }

    func testTheStackGuardCatchesALeakAtOnce() throws {
        final class Leaks: Sendable {
            let found = Mutex<[String]>([])
            var list: [String] { found.withLock { $0 } }
        }
        let leaks = Leaks()
        let saved = StackGuard.violated.withLock { $0 }
        StackGuard.violated.withLock { $0 = { leak in leaks.found.withLock { $0.append(leak) } } }
        defer { StackGuard.violated.withLock { $0 = saved } }
        let routine = try load("return workout { name = \"G\", work(1), on_start = function() end }")
        let hook = try XCTUnwrap(routine.hooks.onStart)
        try routine.lua.call(hook) { lua in
            lua.stack.push(1)
            return 1
        }
        XCTAssertEqual(leaks.list, [])
        // Two values pushed, one declared: the guard says so before Lua is even called.
        _ = try? routine.lua.call(hook) { lua in
            lua.stack.push(1)
            lua.stack.push(2)
            return 1
        }
        XCTAssertEqual(leaks.list.first?.hasPrefix("Lua stack leak in pushing a hook's arguments"), true, "\(leaks.list)")
        // A whole run of a routine that uses every kind of call leaks nothing.
        leaks.found.withLock { $0 = [] }
        let harness = try Harness("""
            local p = params { n = 2 }
            return workout { name = "All", countdown = 1,
              rounds(p.n, { work(3, "A", { x = { 1, 2 } }), rest(2) }),
              generate(function(run) coroutine.yield(work(2, "G" .. run.index)) end),
              on_segment_start = function(seg) print(seg.name, seg.info and seg.info.x[2]); if seg.index == 2 then extend(1) end end,
              on_finish = function(s) print(s.active) end }
            """, options: SessionOptions(bell: true, payloadsInEvents: true))
        harness.run()
        _ = harness.session.snapshot()
        XCTAssertEqual(leaks.list, [])
    }
}
