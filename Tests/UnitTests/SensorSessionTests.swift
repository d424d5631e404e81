@testable import History
@testable import IntervalEngine
import PastSessions
import WorkoutValues
import TestSupport
import XCTest

/// The session's side of sensors, on the virtual clock: the limit of one `sample` event
/// a second per sensor, `on_sample` once a second, stale values nil to the routine, and
/// the totals the history keeps.
final class SensorSessionTests: XCTestCase {
    func session(_ source: String, events: @escaping (Event) -> Void) throws -> (Session, VirtualClock) {
        let clock = VirtualClock()
        let routine = try load(source)
        let options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: Athlete(maxHeartRate: 200))
        let session = Session(routine: routine, scheduler: clock, options: options, onEvent: events)
        return (session, clock)
    }

    func testSamplesAreLimitedToOneASecondPerSensorAndReachTheRoutine() throws {
        var lines: [String] = []
        let (session, clock) = try session("""
            return workout { name = "S", countdown = 0,
              on_sample = function(seg, s) print("hook " .. tostring(s.hr) .. " " .. tostring(s.power) .. " z" .. tostring(s.hr_zone)) end,
              work(10, "W", { }), }
            """) { event in
            switch event.kind {
            case .sample(let sample): lines.append("sample \(sample.sensor) \(Number.format(event.t))")
            case .log(let text): lines.append(text)
            default: break
            }
        }
        session.start()
        for step in 0..<9 {
            // A strap at 4 Hz and a power meter at 2 Hz, for 2 s.
            session.take(SensorSample(sensor: "A", name: "Strap", hr: 150 + step))
            if step % 2 == 0 { session.take(SensorSample(sensor: "B", name: "Meter", power: 200)) }
            clock.advance(by: 0.25)
        }
        session.sensorStale("A")
        session.take(SensorSample(sensor: "B", name: "Meter", power: 210))
        XCTAssertEqual(lines, [
            "sample A 0", "hook 150 nil z3", "sample B 0", "sample A 1", "hook 154 200 z3", "sample B 1",
            "sample A 2", "hook 158 200 z3", "sample B 2",
        ])
        XCTAssertNil(session.sensorValues[.hr]?.current, "a stale value is nil to the routine")
        XCTAssertEqual(session.sensorValues[.hr]?.value, 158, "and kept, marked stale, for the display")
    }

    func testTotalsWeighTimeAndCountZones() throws {
        let (session, clock) = try session("return workout { name = \"S\", work(60) }") { _ in }
        session.start()
        // 10 s at 110 bpm (zone 1, 55 %), then 10 s at 170 (zone 4, 85 %), 4 Hz.
        for step in 0..<80 {
            session.take(SensorSample(sensor: "A", name: "Strap", hr: step < 40 ? 110 : 170, power: 100))
            clock.advance(by: 0.25)
        }
        session.take(SensorSample(sensor: "A", name: "Strap", hr: 170))
        let totals = session.sensorTotals()
        XCTAssertEqual(totals.maxHR, 170)
        XCTAssertEqual(try XCTUnwrap(totals.averageHR), 140, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(totals.averagePower), 100, accuracy: 0.01)
        XCTAssertEqual(totals.zoneSeconds, [10, 0, 0, 10, 0])
        let line = HistoryEntry(routine: session.routine, summary: session.progress(), started: Date(), ended: Date())
        var withSensors = line
        withSensors.sensors = totals.summary
        XCTAssertTrue(withSensors.json.text.hasSuffix(
            #""hr":{"avg":140,"max":170,"zones":[10,0,0,10,0]},"power":{"avg":100}}"#), withSensors.json.text)
        XCTAssertFalse(line.json.text.contains("\"hr\""))
        // Read back as written.
        let back = try XCTUnwrap(HistoryEntry(line: withSensors.json.text))
        XCTAssertEqual(back.sensors, SensorSummary(averageHR: 140, maxHR: 170, zoneSeconds: [10, 0, 0, 10, 0], averagePower: 100))
        XCTAssertNil(try XCTUnwrap(HistoryEntry(line: line.json.text)).sensors)
    }

    /// An open segment keeps the heart rate and power during it, apart from the session's:
    /// a set at 150 bpm, then the rest at 100 until it dropped under 110.
    func testAnOpenSegmentKeepsItsOwnHeartRate() throws {
        let (session, clock) = try session("""
            return workout { name = "S", countdown = 0, work(10, "Warm"),
              work{ open = true, name = "Set" }, rest{ until_hr_below = 110, cap = 60 } }
            """) { _ in }
        session.start()
        for _ in 0..<40 {
            session.take(SensorSample(sensor: "A", name: "Strap", hr: 120, power: 50))
            clock.advance(by: 0.25)
        }
        for _ in 0..<20 {
            session.take(SensorSample(sensor: "A", name: "Strap", hr: 150, power: 250))
            clock.advance(by: 0.25)
        }
        session.apply(.done)
        for _ in 0..<8 {
            session.take(SensorSample(sensor: "A", name: "Strap", hr: 130))
            clock.advance(by: 0.25)
        }
        session.take(SensorSample(sensor: "A", name: "Strap", hr: 100))
        _ = clock.run()
        let open = session.progress().open
        XCTAssertEqual(open.map(\.name), ["Set", "Rest"])
        let set = try XCTUnwrap(open[0].sensors)
        XCTAssertEqual(try XCTUnwrap(set.averageHR), 150, accuracy: 0.01)
        XCTAssertEqual(set.maxHR, 150)
        XCTAssertEqual(try XCTUnwrap(set.averagePower), 250, accuracy: 0.01)
        let rest = try XCTUnwrap(open[1].sensors)
        XCTAssertEqual(try XCTUnwrap(rest.averageHR), 130, accuracy: 0.01, "2 s at 130, then it ended")
        XCTAssertEqual(rest.maxHR, 130)
        // In the line, and back.
        let record = open[0].json.text
        XCTAssertTrue(record.contains(#""hr":{"avg":150,"max":150,"zones":[0,0,5,0,0]},"power":{"avg":250}"#), record)
        let entry = HistoryEntry(routine: session.routine, summary: session.progress(), started: Date(), ended: Date())
        XCTAssertEqual(HistoryEntry(line: entry.json.text)?.open, open)
    }

    /// A sample out of all reason (from anywhere but the decoders, which drop it already)
    /// never reaches the totals: the session's line keeps the real values and reads back.
    func testAnAbsurdSampleNeverReachesTheHistory() throws {
        let (session, clock) = try session("return workout { name = \"S\", work(60) }") { _ in }
        session.start()
        for step in 0..<8 {
            session.take(SensorSample(sensor: "A", name: "Strap", hr: step == 3 ? 65_535 : 150,
                                      power: step == 5 ? -32_768 : 200, cadence: step == 2 ? 60_000 : 90))
            clock.advance(by: 0.25)
        }
        XCTAssertEqual(session.sensorTotals().maxHR, 150)
        XCTAssertEqual(try XCTUnwrap(session.sensorTotals().averagePower), 200, accuracy: 0.01)
        XCTAssertEqual(session.sensorValues[.cadence]?.value, 90)
    }

    /// Whatever the writer writes, the reader reads: a summary with values the reader
    /// refuses is written without them, through the real history file, and read back whole.
    func testTheHistoryWriterWritesOnlyWhatItsReaderReads() throws {
        let (session, _) = try session("return workout { name = \"S\", work(60) }") { _ in }
        var entry = HistoryEntry(routine: session.routine, summary: session.progress(), started: Date(), ended: Date())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = HistoryFile(path: folder.appendingPathComponent("history.jsonl").path)
        for extreme in [
            SensorSummary(averageHR: 65_535, maxHR: 65_535, zoneSeconds: [1e300, -1, .infinity, 0, 0], averagePower: -32_768),
            SensorSummary(averageHR: 70_000, maxHR: 150, zoneSeconds: nil, averagePower: 1e12),
            SensorSummary(averageHR: nil, maxHR: Int.max, zoneSeconds: nil, averagePower: .nan),
        ] {
            entry.sensors = extreme
            try file.append(entry)
        }
        let contents = try file.read()
        XCTAssertEqual(contents.damaged, [])
        XCTAssertEqual(contents.entries.count, 3)
        XCTAssertNil(contents.entries[0].sensors)
        XCTAssertEqual(contents.entries[1].sensors, SensorSummary(maxHR: 150, zoneSeconds: [0, 0, 0, 0, 0]))
        XCTAssertNil(contents.entries[2].sensors)
    }

    /// A damaged `hr` is a damaged line, as any other field.
    func testADamagedHeartRateIsADamagedLine() throws {
        let (session, _) = try session("return workout { name = \"S\", work(60) }") { _ in }
        let text = HistoryEntry(routine: session.routine, summary: session.progress(), started: Date(), ended: Date()).json.text
        for damage in [#""hr":{"avg":140}"#, #""hr":{"max":-1}"#, #""hr":{"max":150,"zones":[1,2]}"#, #""power":{"avg":"x"}"#] {
            XCTAssertNil(HistoryEntry(line: String(text.dropLast()) + "," + damage + "}"), damage)
        }
        XCTAssertNotNil(HistoryEntry(line: String(text.dropLast()) + #","hr":{"avg":null,"max":150}}"#))
    }
}

/// Open segments that a sample ends: `until_hr_below` and `until_sample = function(s) … end`.
final class UntilSampleTests: XCTestCase {
    func run(_ source: String, samples: [(at: Double, hr: Int)]) throws -> [String] {
        let clock = VirtualClock()
        let routine = try load(source)
        var trace: [String] = []
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(alerts: AlertSwitches(bell: false))) { event in
            switch event.kind {
            case let .segmentEnd(index, _, _, _, by): trace.append("\(Number.format(event.t)) end \(index) by \(by.rawValue)")
            case let .error(message, hook, _): trace.append("error \(hook): \(message)")
            case .workoutEnd: trace.append("\(Number.format(event.t)) workout_end")
            default: break
            }
        }
        session.start()
        for sample in samples {
            clock.advance(by: sample.at - clock.now)
            session.take(SensorSample(sensor: "A", name: "Strap", hr: sample.hr))
        }
        _ = clock.run()
        return trace
    }

    func testUntilHRBelowEndsTheRestOnTheSampleAndTheCapStillHolds() throws {
        let source = """
            return workout { name = "R", countdown = 0,
              work(10, "Climb"),
              rest{ until_hr_below = 120, cap = "3m" },
              rest{ name = "Capped", until_hr_below = 100, cap = 30 },
            }
            """
        XCTAssertEqual(try run(source, samples: [(2, 150), (11, 140), (14, 125), (16, 119), (20, 110)]), [
            "10 end 1 by timer", "16 end 2 by sample", "46 end 3 by cap", "46 workout_end",
        ])
        let without = try load(source)
        XCTAssertEqual(without.timeline.segments[1].open?.cap, 180)
    }

    func testUntilAFunctionOfTheSample() throws {
        let source = """
            return workout { name = "R", countdown = 0,
              rest{ until_sample = function(s) return s.hr ~= nil and s.hr < 100 end, cap = 60 },
              work(5),
            }
            """
        XCTAssertEqual(try run(source, samples: [(1, 120), (3, 99)]), ["3 end 1 by sample", "8 end 2 by timer", "8 workout_end"])
    }

    func testAFailingUntilIsReportedAndLeavesTheCap() throws {
        let source = """
            return workout { name = "R", countdown = 0,
              rest{ until_sample = function(s) return s.hr.nope end, cap = 10 },
            }
            """
        let trace = try run(source, samples: [(1, 120), (3, 99)])
        XCTAssertEqual(trace.count, 3, "\(trace)")
        XCTAssertTrue(trace[0].hasPrefix("error until_sample: "), "\(trace)")
        XCTAssertEqual(Array(trace.dropFirst()), ["10 end 1 by cap", "10 workout_end"])
    }

    func testUntilIsCheckedWhenTheRoutineLoads() {
        XCTAssertEqual(loadError("return workout { name = \"R\", rest{ until_hr_below = 500 } }"),
                       "test.lua:1: rest: until_hr_below must be a heart rate from 30 to 250 beats per minute, got 500")
        XCTAssertNotNil(loadError("return workout { name = \"R\", rest{ until_hr_below = 120, duration = 30 } }"))
    }
}
