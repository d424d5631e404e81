@testable import IntervalEngine
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
        XCTAssertNil(session.sensorValues.hr?.current, "a stale value is nil to the routine")
        XCTAssertEqual(session.sensorValues.hr?.value, 158, "and kept, marked stale, for the display")
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
        withSensors.sensors = totals
        XCTAssertTrue(withSensors.json.text.hasSuffix(
            #""hr":{"avg":140,"max":170,"zones":[10,0,0,10,0]},"power":{"avg":100}}"#), withSensors.json.text)
        XCTAssertFalse(line.json.text.contains("\"hr\""))
    }
}
