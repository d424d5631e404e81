@testable import Activity
import Display
@testable import History
@testable import IntervalEngine
import FIT
import LuaBridge
import PastSessions
import WorkoutValues
import TestSupport
import XCTest

/// A sensor value is one case of `SensorQuantity`: every layer that shows, keeps or hands
/// on the sensors' values iterates the cases, so a new one is checked here with no new
/// test code — the `sample` event, the snapshot, the routine's `workout.Sample` (values
/// and definitions), the plain text and the display, the history line (for the summed
/// ones), the samples file and the FIT and TCX files.
final class SensorQuantityTests: XCTestCase {
    /// A value of each quantity that every layer keeps: the middle of its plausible range.
    let values = Dictionary(uniqueKeysWithValues: SensorQuantity.allCases.map {
        ($0, (($0.plausibleRange.lowerBound + $0.plausibleRange.upperBound) / 2).rounded())
    })

    func testTheSessionsOutputsNameEveryQuantity() throws {
        var events: [Event] = []
        var logs: [String] = []
        let printed = SensorQuantity.allCases.map { "\"\($0.key)=\" .. math.type(s.\($0.key)) .. \":\" .. tostring(s.\($0.key))" }
            .joined(separator: " .. \" \" .. ")
        let routine = try load("""
            return workout { name = "Q", countdown = 0,
              on_sample = function(seg, s) print(\(printed)) end,
              work(10, "W"), }
            """)
        let clock = VirtualClock()
        let options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: Athlete(maxHeartRate: 200))
        let session = Session(routine: routine, scheduler: clock, options: options) { event in
            if case .log(let text) = event.kind { logs.append(text) } else { events.append(event) }
        }
        session.start()
        // A distance is what the run covered: the source's total from its first reading (0 here).
        session.take(SensorSample(sensor: "A", name: "All", values: values.merging([.distance: 0]) { $1 }))
        clock.advance(by: 1)
        for _ in 0..<3 {
            session.take(SensorSample(sensor: "A", name: "All", values: values))
            clock.advance(by: 1)
        }

        let sample = try XCTUnwrap(events.last { if case .sample = $0.kind { true } else { false } })
        let sensors = try XCTUnwrap(session.snapshot().json["sensors"])
        let line = SensorLine(readings: session.sensorValues, zone: session.sensorZone).line.text
        let plain = PlainText.line(sample)
        for quantity in SensorQuantity.allCases {
            let value = try XCTUnwrap(values[quantity])
            XCTAssertEqual(sample.json[quantity.key], quantity.json(value), "sample event: \(quantity)")
            XCTAssertEqual(sensors[quantity.key], quantity.json(value), "snapshot: \(quantity)")
            // A whole value reaches Lua as an integer, whatever the quantity.
            XCTAssertTrue(logs.last?.contains("\(quantity.key)=integer:\(Number.format(value))") == true, "on_sample: \(logs)")
            XCTAssertTrue(RoutineTypes.sample.fields.contains { $0.name == quantity.key }, "workout.Sample: \(quantity)")
            if quantity.inWords {
                XCTAssertTrue(line.contains(quantity.words(value)), "display: \(line)")
                XCTAssertTrue(plain?.contains(quantity.words(value)) == true, "plain text: \(String(describing: plain))")
            }
        }

        // The history line keeps each summed quantity's figures and reads them back.
        let summary = try XCTUnwrap(session.sensorTotals().summary)
        var entry = HistoryEntry(routine: session.routine, summary: session.progress(), started: Date(), ended: Date())
        entry.sensors = summary
        let back = try XCTUnwrap(HistoryEntry(line: entry.json.text)?.sensors)
        for quantity in SensorQuantity.allCases {
            for figure in quantity.history {
                XCTAssertEqual(summary[quantity, figure], values[quantity], "\(quantity) \(figure)")
                XCTAssertEqual(back[quantity, figure], values[quantity], "read back: \(quantity) \(figure)")
            }
        }
    }

    func testTheActivityFilesHoldEveryQuantity() throws {
        let start = Date(timeIntervalSince1970: 1_764_098_077)
        let sample = Sample(values: values)
        let records = (0..<3).map { ActivityRecord(t: Double($0), time: start.addingTimeInterval(Double($0)), segment: 1, sample: sample) }
        // The samples file: a column each, read back as written.
        XCTAssertEqual(ActivityFile.header, "t,time,segment," + SensorQuantity.allCases.map(\.key).joined(separator: ",") + "\n")
        let read = try XCTUnwrap(ActivityRecord(line: Array(records[0].line.utf8.dropLast())[...]))
        XCTAssertEqual(read.sample, sample)

        let routine = try load("return workout { name = \"Q\", countdown = 0, work(3, \"W\") }")
        let clock = VirtualClock()
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(alerts: AlertSwitches(bell: false))) { _ in }
        session.start()
        clock.advance(by: 4)
        let entry = HistoryEntry(routine: session.routine, summary: session.progress(), started: start, ended: start.addingTimeInterval(3))
        let activity = Activity(entry: entry, records: records)
        let creator = FITActivity.Creator(name: "workout", version: "1.0")

        let messages = try FITDecoder.messages(FITActivity.encode(activity, creator: creator))
        let record = try XCTUnwrap(messages.first { $0.global == 20 })
        let lap = try XCTUnwrap(messages.first { $0.global == 19 })
        let tcx = TCXActivity.encode(activity, creator: creator)
        for quantity in SensorQuantity.allCases {
            let value = try XCTUnwrap(values[quantity])
            // A stroke rate is the record's cadence only when no cadence is (below).
            if let form = quantity.fit, quantity != .strokeRate {
                // In the file's unit (speed: m/s), times the field's scale.
                let held = value * quantity.inActivityFiles
                XCTAssertEqual(record.numbers[form.record], UInt64((held * form.scale).rounded()), "FIT record: \(quantity)")
                if let numbers = form.lap {
                    XCTAssertEqual(lap.numbers[numbers.average], UInt64(held), "FIT lap: \(quantity)")
                    XCTAssertEqual(lap.numbers[numbers.maximum], UInt64(held), "FIT lap: \(quantity)")
                }
            }
            for element in [quantity.tcx.trackpoint, quantity.tcx.lapAverage, quantity.tcx.lapMaximum].compactMap({ $0 }) {
                XCTAssertTrue(tcx.contains((element.inExtension ? "<ax:" : "<") + element.name + ">"), "TCX: \(quantity) \(element.name)")
            }
        }
        // A rower's session, without a cadence sensor: its strokes a minute are the records' cadence.
        var rowing = values
        rowing[.cadence] = nil
        let rowed = Activity(entry: entry, records: records.map {
            ActivityRecord(t: $0.t, time: $0.time, segment: $0.segment, sample: Sample(values: rowing))
        })
        let rowedRecord = try XCTUnwrap(try FITDecoder.messages(FITActivity.encode(rowed, creator: creator)).first { $0.global == 20 })
        XCTAssertEqual(rowedRecord.numbers[4], UInt64(try XCTUnwrap(values[.strokeRate])))
        XCTAssertEqual(rowed.sport, .rowing)
        // A treadmill running downhill: FIT's grade is signed (sint16, 1/100 %).
        var downhill = values
        downhill[.incline] = -2.5
        let down = Activity(entry: entry, records: records.map {
            ActivityRecord(t: $0.t, time: $0.time, segment: $0.segment, sample: Sample(values: downhill))
        })
        let downRecord = try XCTUnwrap(try FITDecoder.messages(FITActivity.encode(down, creator: creator)).first { $0.global == 20 })
        XCTAssertEqual(downRecord.numbers[9].map { Int16(bitPattern: UInt16($0)) }, -250)
    }

    /// A samples file written before distance, pace, split, incline and stroke rate had
    /// columns has only hr, power, cadence and speed: its lines are read, the rest none.
    func testASamplesLineFromBeforeTheRunnersQuantitiesIsRead() throws {
        let old = try XCTUnwrap(ActivityRecord(line: Array("2,1764098079.000,1,140,200,90,".utf8)[...]))
        XCTAssertEqual(old.sample.values, [.hr: 140, .power: 200, .cadence: 90])
        XCTAssertNil(ActivityRecord(line: Array("2,1764098079.000,1,140,200".utf8)[...]), "fewer still is damage")
        let new = try XCTUnwrap(ActivityRecord(line: Array("2,1764098079.000,1,,,,12.5,400.5,288,,1.5,".utf8)[...]))
        XCTAssertEqual(new.sample.values, [.speed: 12.5, .distance: 400.5, .pace: 288, .incline: 1.5])
    }
}
