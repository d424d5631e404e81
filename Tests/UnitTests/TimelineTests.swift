import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// Constructors and flattening: what a routine builds is the timeline it gets.
final class TimelineTests: XCTestCase {
    private func describe(_ routine: Routine) -> [String] {
        routine.timeline.segments.map { segment in
            var text = "\(segment.index) \(segment.kind) \(segment.name) \(Number.format(segment.start))+\(Number.format(segment.duration))"
            if let round = segment.round, let rounds = segment.rounds { text += " r\(round)/\(rounds)" }
            if let block = segment.block { text += " \(block)" }
            return text
        }
    }

    func testShortConstructorsDefaultNamesAndInfo() throws {
        let routine = try load("""
            return workout { name = "All kinds",
              prep(5), warmup("1:00", "Jog"), work(20, { reps = 10 }), rest("10s", "Breathe", { tip = "slow" }),
              cooldown("2m") }
            """)
        XCTAssertEqual(describe(routine), [
            "1 prep Prep 0+5", "2 warmup Jog 5+60", "3 work Work 65+20", "4 rest Breathe 85+10", "5 cooldown Cooldown 95+120",
        ])
        XCTAssertEqual(routine.timeline.duration, 215)
        XCTAssertEqual(routine.infoJSON(for: routine.timeline.segments[2]), .object([("reps", .integer(10))]))
        XCTAssertEqual(routine.infoJSON(for: routine.timeline.segments[3]), .object([("tip", .string("slow"))]))
        XCTAssertEqual(routine.infoJSON(for: routine.timeline.segments[0]), .null)
    }

    func testSegmentFullFormWithAnyKind() throws {
        let routine = try load("""
            return workout { name = "Full",
              segment { kind = "stretch", duration = "1:30" },
              segment { kind = "work", duration = 30, name = "Plank", info = { side = "left" } } }
            """)
        XCTAssertEqual(describe(routine), ["1 stretch Stretch 0+90", "2 work Plank 90+30"])
        XCTAssertEqual(routine.timeline.segments[1].line, 3)
    }

    func testRoundsRepeatWithRoundNumbersAndBlock() throws {
        let routine = try load("""
            return workout { name = "R",
              rounds(3, { work(20, "Squats"), rest(10) }, { name = "Block A" }) }
            """)
        XCTAssertEqual(describe(routine), [
            "1 work Squats 0+20 r1/3 Block A", "2 rest Rest 20+10 r1/3 Block A",
            "3 work Squats 30+20 r2/3 Block A", "4 rest Rest 50+10 r2/3 Block A",
            "5 work Squats 60+20 r3/3 Block A", "6 rest Rest 80+10 r3/3 Block A",
        ])
    }

    func testSkipLastRestDropsOnlyTheFinalTrailingRest() throws {
        let routine = try load("""
            return workout { name = "R", rounds(2, { work(20), rest(10) }, { skip_last_rest = true }), cooldown(60) }
            """)
        XCTAssertEqual(describe(routine), [
            "1 work Work 0+20 r1/2", "2 rest Rest 20+10 r1/2", "3 work Work 30+20 r2/2", "4 cooldown Cooldown 50+60",
        ])
    }

    func testRestBetweenGoesBetweenRoundsNotAfterTheLast() throws {
        let routine = try load("""
            return workout { name = "R", rounds(3, { work(30) }, { rest_between = "0:15", name = "B" }) }
            """)
        XCTAssertEqual(describe(routine), [
            "1 work Work 0+30 r1/3 B", "2 rest Rest 30+15 r1/3 B", "3 work Work 45+30 r2/3 B",
            "4 rest Rest 75+15 r2/3 B", "5 work Work 90+30 r3/3 B",
        ])
    }

    func testNestedRoundsReportTheInnermostBlock() throws {
        let routine = try load("""
            return workout { name = "Nested",
              warmup(60),
              rounds(2, {
                rounds(2, { work(10, "Jab"), rest(5) }, { name = "Inner" }),
                rest(30, "Long rest"),
              }, { name = "Outer" }) }
            """)
        XCTAssertEqual(describe(routine), [
            "1 warmup Warmup 0+60",
            "2 work Jab 60+10 r1/2 Inner", "3 rest Rest 70+5 r1/2 Inner",
            "4 work Jab 75+10 r2/2 Inner", "5 rest Rest 85+5 r2/2 Inner",
            "6 rest Long rest 90+30 r1/2 Outer",
            "7 work Jab 120+10 r1/2 Inner", "8 rest Rest 130+5 r1/2 Inner",
            "9 work Jab 135+10 r2/2 Inner", "10 rest Rest 145+5 r2/2 Inner",
            "11 rest Long rest 150+30 r2/2 Outer",
        ])
    }

    func testDeepNestingAndSteps() throws {
        var source = "work(1)"
        for _ in 1...50 { source = "rounds(1, { \(source) })" }
        let routine = try load("return workout { name = \"Deep\", \(source) }")
        XCTAssertEqual(routine.timeline.count, 1)
        XCTAssertEqual(routine.timeline.segments[0].round, 1)
    }

    func testStepsBuiltByALoopAndReused() throws {
        let routine = try load("""
            local steps = {}
            for i, seconds in ipairs({ 15, 30, 45 }) do
              steps[#steps + 1] = work(seconds, "Up " .. i)
            end
            local plank = work(30, "Plank")
            return workout { name = "Loop", rounds(1, steps), plank, rest(10), plank }
            """)
        XCTAssertEqual(describe(routine), [
            "1 work Up 1 0+15 r1/1", "2 work Up 2 15+30 r1/1", "3 work Up 3 45+45 r1/1",
            "4 work Plank 90+30", "5 rest Rest 120+10", "6 work Plank 130+30",
        ])
    }

    func testWorkoutFields() throws {
        let routine = try load("""
            return workout { name = "Fields", description = "About it", countdown = 5, work(10) }
            """)
        XCTAssertEqual(routine.name, "Fields")
        XCTAssertEqual(routine.description, "About it")
        XCTAssertEqual(routine.countdown, 5)
        XCTAssertEqual(try load("return workout { name = \"D\", work(1) }").countdown, 3)
    }

    func testAHundredThousandSegmentsFlatten() throws {
        let routine = try load("return workout { name = \"Big\", rounds(50000, { work(1), rest(1) }) }")
        XCTAssertEqual(routine.timeline.count, 100_000)
        XCTAssertEqual(routine.timeline.duration, 100_000)
        XCTAssertEqual(routine.timeline.segments.last?.start, 99_999)
    }

    func testPlanJSONListsEverySegment() throws {
        let routine = try load("""
            return workout { name = "Plan", rounds(2, { work(20, "Go", { reps = 5 }) }, { name = "B" }) }
            """)
        var plan = ""
        routine.writePlanJSON { plan += $0 }
        XCTAssertEqual(plan, """
            {"name":"Plan","duration":40,"open_ended":false,"complete":true,"params":[],"segments":[\
            {"index":1,"start":0,"duration":20,"kind":"work","name":"Go","round":1,"rounds":2,"block":"B","info":{"reps":5}},\
            {"index":2,"start":20,"duration":20,"kind":"work","name":"Go","round":2,"rounds":2,"block":"B","info":{"reps":5}}]}
            """)
    }
}
