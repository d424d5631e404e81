import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// Many listeners and controllers on one session: every event heard once and in order by
/// each listener, commands from a scripted controller and from hooks applied alike, and
/// look-ahead notices that come before their moment and are withdrawn when a command
/// moves it.
final class ListenerTests: XCTestCase {
    /// Hears everything: events as trace lines, planned and withdrawn moments.
    final class Recorder: SessionListener {
        var events: [Event] = []
        var planned: [PlannedMoment] = []
        var withdrawn: [PlannedMoment] = []
        /// What happened, in order: `event …`, `plan …`, `withdraw …`.
        var log: [String] = []

        func receive(_ event: Event) {
            events.append(event)
            log.append("event " + Harness.describe(event))
        }

        func planned(_ moment: PlannedMoment) {
            planned.append(moment)
            log.append("plan \(Recorder.describe(moment))")
        }

        func withdrawn(_ moment: PlannedMoment) {
            withdrawn.append(moment)
            log.append("withdraw \(Recorder.describe(moment))")
        }

        /// Moments announced and not taken back.
        var pending: [PlannedMoment] {
            planned.filter { moment in !withdrawn.contains { $0.id == moment.id } }
        }

        static func describe(_ moment: PlannedMoment) -> String {
            let at = Number.format(Number.rounded(moment.at, places: 6))
            switch moment.kind {
            case let .boundary(next, last): return "\(at) boundary \(moment.index)->\(next?.name ?? (last ? "end" : "?"))"
            case let .countdown(second): return "\(at) countdown \(second)"
            case let .cue(offset, text): return "\(at) cue \(Number.format(offset))" + (text.map { " \($0)" } ?? "")
            case let .announcement(text): return "\(at) announce \(text)"
            }
        }
    }

    /// Applies commands at given workout times, as a web page or a watch would.
    final class ScriptedController {
        init(_ harness: Harness, _ script: [(Double, SessionCommand)]) {
            for (time, command) in script {
                harness.clock.schedule(at: time) { [weak session = harness.session] _ in session?.apply(command) }
            }
        }
    }

    let routine = """
        return workout { name = "L", countdown = 2,
          work(10, "A"), rest(5, "B"),
          segment { kind = "work", duration = 10, name = "C", cues = { [4] = "Go" } },
          on_segment_start = function(seg) if seg.name == "B" then extend(5) end end }
        """

    func testEveryListenerHearsEveryEventOnceAndInOrder() throws {
        let harness = try Harness(routine)
        let first = Recorder()
        let second = Recorder()
        harness.session.subscribe(first)
        harness.session.subscribe(second)
        var order: [String] = []
        harness.session.subscribe { order.append("third " + $0.name) }
        harness.run()
        XCTAssertEqual(first.events.map(Harness.describe), harness.trace)
        XCTAssertEqual(second.events.map(Harness.describe), harness.trace)
        XCTAssertEqual(order, harness.events.map { "third " + $0.name })
        XCTAssertEqual(harness.trace, [
            "0 workout_start L 3", "0 segment_start 1 A", "10 segment_end 1", "10 segment_start 2 B",
            "20 segment_end 2", "20 segment_start 3 C", "24 cue 3@4 Go", "30 segment_end 3", "30 workout_end true 30 3",
        ], "extend(5) from B's hook: one event each, no repeats")
    }

    func testCommandsFromAControllerAndFromHooksTakeTheSameDoor() throws {
        let harness = try Harness("""
            return workout { name = "C", work(20, "A"), rest(10, "B"), work(10, "C"),
              on_segment_start = function(seg) if seg.name == "B" then skip() end end }
            """)
        let recorder = Recorder()
        harness.session.subscribe(recorder)
        _ = ScriptedController(harness, [(5, .pause), (8, .resume), (9, .add(seconds: 10)), (12, .toggle), (13, .toggle)])
        harness.run()
        XCTAssertEqual(harness.trace, [
            "0 workout_start C 3", "0 segment_start 1 A", "5 pause 1 15", "8 resume 1 15",
            "12 pause 1 21", "13 resume 1 21", "34 segment_end 1", "34 segment_start 2 B",
            "34 segment_end 2 skipped", "34 segment_start 3 C", "44 segment_end 3", "44 workout_end true 44 3",
        ])
        let quit = try Harness(twoSegments)
        _ = ScriptedController(quit, [(3, .next), (6, .back), (6.5, .back), (7, .quit)])
        quit.run()
        XCTAssertEqual(quit.trace, [
            "0 workout_start Two 2", "0 segment_start 1 A", "3 segment_end 1 skipped", "3 segment_start 2 B",
            "6 segment_start 2 B", "6.5 segment_start 1 A", "7 workout_end false 7 0",
        ], "back restarts, then within 2 s goes to the previous segment and un-counts it")
    }

    let twoSegments = "return workout { name = \"Two\", countdown = 2, work(20, \"A\"), rest(10, \"B\") }"

    func testEachMomentIsAnnouncedBeforeItComesAndComesWhenPlanned() throws {
        let harness = try Harness(routine, options: SessionOptions(bell: true))
        let recorder = Recorder()
        harness.session.subscribe(recorder)
        harness.session.start()
        XCTAssertEqual(recorder.pending.map(Recorder.describe), ["10 boundary 1->B", "8 countdown 2", "9 countdown 1"])
        XCTAssertEqual(recorder.planned.first?.deadline, 10_000_000_000, "virtual nanoseconds")
        harness.clock.run()
        // Every countdown bell, cue and boundary came at a moment announced before it.
        var heard = 0
        for (position, line) in recorder.log.enumerated() where line.hasPrefix("event ") {
            let event = recorder.events[heard]
            heard += 1
            let time = Number.format(Number.rounded(event.t, places: 6))
            let expected: String
            switch event.kind {
            case let .alert(.bell, text, _) where !text.isEmpty: expected = "plan \(time) countdown \(text)"
            case let .cue(_, offset, _): expected = "plan \(time) cue \(Number.format(offset))"
            case let .segmentEnd(index, _, _, false, _): expected = "plan \(time) boundary \(index)->"
            default: continue
            }
            XCTAssertTrue(recorder.log[..<position].contains { $0.hasPrefix(expected) }, "\(line) was announced before it came")
        }
        XCTAssertEqual(heard, recorder.events.count)
        XCTAssertEqual(countdownBells(harness), countdownMoments(recorder), "what was planned and not withdrawn is what came")
        XCTAssertTrue(recorder.log.contains("plan 20 boundary 2->C"), "extend(5) from B's hook re-planned its end")
        XCTAssertTrue(recorder.log.contains("withdraw 15 boundary 2->C"), "and withdrew the old one")
        XCTAssertTrue(recorder.log.contains("plan 24 cue 4 Go"))
        XCTAssertTrue(recorder.log.contains("plan 30 boundary 3->end"))
    }

    func testPauseWithdrawsWhatIsPlannedAndResumePlansItAnew() throws {
        let harness = try Harness(twoSegments, options: SessionOptions(bell: true))
        let recorder = Recorder()
        harness.session.subscribe(recorder)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.apply(.pause)
        XCTAssertEqual(recorder.pending, [], "nothing is due while paused")
        XCTAssertEqual(Set(recorder.withdrawn.map(Recorder.describe)), ["20 boundary 1->B", "18 countdown 2", "19 countdown 1"])
        harness.clock.advance(by: 100)
        harness.session.apply(.resume)
        XCTAssertEqual(Set(recorder.pending.map(Recorder.describe)), ["120 boundary 1->B", "118 countdown 2", "119 countdown 1"])
        harness.clock.run()
        let bells = harness.trace.filter { $0.contains(" bell ") }
        XCTAssertEqual(bells, ["118 bell 2", "119 bell 1", "128 bell 2", "129 bell 1"], "no bell at a withdrawn moment")
        XCTAssertEqual(countdownBells(harness), countdownMoments(recorder))
    }

    func testSkipBackAndExtendWithdrawTheMomentsTheyMove() throws {
        for (command, moved) in [(SessionCommand.next, "20 boundary 1->B"), (.back, "20 boundary 1->B"),
                                 (.add(seconds: 10), "20 boundary 1->B")] {
            let harness = try Harness(twoSegments, options: SessionOptions(bell: true))
            let recorder = Recorder()
            harness.session.subscribe(recorder)
            harness.session.start()
            harness.clock.advance(by: 5)
            harness.session.apply(command)
            XCTAssertTrue(recorder.withdrawn.map(Recorder.describe).contains(moved), "\(command) withdraws \(moved)")
            XCTAssertFalse(recorder.pending.map(Recorder.describe).contains(moved), "\(command)")
            harness.clock.run()
            XCTAssertEqual(countdownBells(harness), countdownMoments(recorder), "\(command): withdrawn moments never come")
            XCTAssertFalse(countdownBells(harness).isEmpty)
        }
    }

    /// The countdown bells that rang: `18 2` (workout time, seconds left).
    private func countdownBells(_ harness: Harness) -> [String] {
        harness.events.compactMap { event in
            guard case let .alert(.bell, text, _) = event.kind, !text.isEmpty else { return nil }
            return "\(Number.format(Number.rounded(event.t, places: 6))) \(text)"
        }
    }

    /// The countdown moments announced and never withdrawn, in time order.
    private func countdownMoments(_ recorder: Recorder) -> [String] {
        recorder.pending.compactMap { moment -> (Double, String)? in
            guard case let .countdown(second) = moment.kind else { return nil }
            return (moment.at, "\(Number.format(Number.rounded(moment.at, places: 6))) \(second)")
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    func testTheComputerSleepingWithdrawsToo() throws {
        let harness = try Harness(twoSegments, options: SessionOptions(bell: true))
        let recorder = Recorder()
        harness.session.subscribe(recorder)
        harness.session.start()
        harness.clock.advance(by: 3)
        harness.session.suspended(missed: 3600)
        XCTAssertEqual(recorder.pending, [])
        XCTAssertEqual(recorder.withdrawn.count, 3)
    }

    func testTheSnapshotHasWhatAViewerShows() throws {
        let harness = try Harness("""
            return workout { name = "Snap", rounds(2, { work(20, "Jab", { combo = "1-2", reps = 3 }), rest(10) }, { name = "Box" }) }
            """)
        harness.session.start()
        harness.clock.advance(by: 4.5)
        var snapshot = harness.session.snapshot()
        XCTAssertEqual(snapshot.routine, "Snap")
        XCTAssertEqual(snapshot.state, .running)
        XCTAssertEqual(snapshot.current?.segment.name, "Jab")
        XCTAssertEqual(snapshot.current?.segment.round, 1)
        XCTAssertEqual(snapshot.current?.segment.block, "Box")
        XCTAssertEqual(snapshot.current?.info["combo"], .string("1-2"))
        XCTAssertEqual(snapshot.next?.segment.name, "Rest")
        XCTAssertEqual(snapshot.count, 4)
        XCTAssertEqual(snapshot.remaining, 15.5)
        XCTAssertEqual(snapshot.deadline, 20)
        XCTAssertEqual(snapshot.deadlineNanoseconds, 20_000_000_000)
        XCTAssertEqual(snapshot.workoutDone, 4.5)
        XCTAssertEqual(snapshot.workoutLeft, 55.5)
        XCTAssertEqual(snapshot.nextChange, 5, "the shown 0:16 becomes 0:15 at 5 s")
        let json = snapshot.json
        XCTAssertEqual(json["segment"]?["info"]?["reps"], .integer(3))
        XCTAssertEqual(json["state"], .string("running"))
        XCTAssertEqual(json["next"]?["name"], .string("Rest"))
        harness.session.apply(.pause)
        snapshot = harness.session.snapshot()
        XCTAssertTrue(snapshot.paused)
        XCTAssertNil(snapshot.deadline)
        XCTAssertNil(snapshot.nextChange)
        XCTAssertEqual(snapshot.json["deadline"], .null)
    }

    func testTheSnapshotKeepsTheLatestMessageUntilTheNextSegment() throws {
        let harness = try Harness("""
            return workout { name = "M", segment { kind = "work", duration = 10, cues = { [2] = "Breathe" } }, rest(5),
              on_segment_start = function(seg) print("hello \\27[2J") end }
            """)
        harness.session.start()
        XCTAssertEqual(harness.session.snapshot().message?.text, "hello \\27[2J", "escaped")
        XCTAssertEqual(harness.session.snapshot().message?.kind, .log)
        harness.clock.advance(by: 3)
        XCTAssertEqual(harness.session.snapshot().message?.text, "Breathe")
        harness.clock.advance(by: 7)
        XCTAssertEqual(harness.session.snapshot().message?.text, "hello \\27[2J", "the new segment's own print")
    }

    func testTheSummaryKeepsPausesApart() throws {
        let harness = try Harness(twoSegments)
        harness.session.start()
        harness.clock.advance(by: 5)
        harness.session.apply(.pause)
        harness.clock.advance(by: 25)
        harness.session.apply(.resume)
        harness.clock.run()
        let summary = try XCTUnwrap(harness.session.summary)
        XCTAssertEqual(summary.elapsed, 55)
        XCTAssertEqual(summary.active, 30)
        XCTAssertEqual(SummaryText.line(routine: "Two", summary),
                       "Finished Two in 0:55 (0:25 paused): 2/2 segments (0 skipped), 0:20 of work")
        XCTAssertEqual(SummaryText.notification(summary), "0:55 (0:25 paused) · 2/2 segments · 0:20 of work")
    }
}
