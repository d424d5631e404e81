@testable import IntervalEngine
import TestSupport
import WorkoutValues
import XCTest

/// Distance steps (`work{ distance = 400 }`): open segments that end when a treadmill's,
/// rower's or foot pod's running total has covered their metres, on the virtual clock.
final class DistanceStepTests: XCTestCase {
    /// Runs `source`, handing the session each `(at, sensor, total)` distance; the trace of
    /// segment ends, and the snapshots' `covered` at each sample.
    func run(_ source: String, samples: [(at: Double, sensor: String, total: Double)], pauseAt: Double? = nil,
             resumeAt: Double? = nil) throws -> (trace: [String], covered: [Double?]) {
        let clock = VirtualClock()
        let routine = try load(source)
        var trace: [String] = []
        let session = Session(routine: routine, scheduler: clock, options: SessionOptions(alerts: AlertSwitches(bell: false))) { event in
            switch event.kind {
            case let .segmentEnd(index, _, _, _, by): trace.append("\(Number.format(event.t)) end \(index) by \(by.rawValue)")
            case .workoutEnd: trace.append("\(Number.format(event.t)) workout_end")
            default: break
            }
        }
        session.start()
        var covered: [Double?] = []
        for sample in samples {
            clock.advance(by: sample.at - clock.now)
            session.take(SensorSample(sensor: sample.sensor, name: "Treadmill", values: [.distance: sample.total]))
            covered.append(session.snapshot().covered)
            if let pauseAt, clock.now == pauseAt { session.apply(.pause) }
            if let resumeAt, clock.now == resumeAt { session.apply(.resume) }
        }
        _ = clock.run()
        return (trace, covered)
    }

    let source = """
        return workout { name = "Track", countdown = 0,
          warmup(10),
          work{ distance = 400, name = "Rep", cap = "3m", info = { pace = "4:00/km" } },
          rest(30),
        }
        """

    func testTheStepEndsWhenTheBeltHasCoveredItsMetres() throws {
        // The belt's total is 1,000 m when the step starts at 10 s: it ends at 1,400 m.
        let samples: [(Double, String, Double)] = [(9, "T", 1_000), (11, "T", 1_004), (50, "T", 1_200), (90, "T", 1_399),
                                                   (91, "T", 1_401), (95, "T", 1_410)]
        let (trace, covered) = try run(source, samples: samples)
        XCTAssertEqual(trace, ["10 end 1 by timer", "91 end 2 by distance", "121 end 3 by timer", "121 workout_end"])
        XCTAssertEqual(covered, [nil, 4, 200, 399, nil, nil], "counted from the total at the step's start")
    }

    /// What a sample says of the distance is the run's, from 0 at the source's first reading:
    /// a foot pod that has counted 1,234 m since it was switched on, and a treadmill whose
    /// count restarts mid-run, give the metres covered — to the display, the history, the
    /// activity files and the routine alike.
    func testASamplesDistanceIsTheRunsFromZero() throws {
        let clock = VirtualClock()
        var said: [Double] = []
        let session = Session(routine: try load(source), scheduler: clock,
                              options: SessionOptions(alerts: AlertSwitches(bell: false))) { event in
            if case .sample(let sample) = event.kind, let metres = sample[.distance] { said.append(metres) }
        }
        session.start()
        for (at, total) in [(1.0, 1_234.0), (3, 1_300), (5, 1_450), (7, 20), (9, 120)] {
            clock.advance(by: at - clock.now)
            session.take(SensorSample(sensor: "P", name: "Pod", values: [.distance: total, .speed: 10]))
        }
        XCTAssertEqual(said, [0, 66, 216, 216, 316])
        XCTAssertEqual(session.sensorTotals().summary?[.distance, .maximum], 316)
    }

    func testWithoutADistanceTheCapEndsIt() throws {
        let (trace, _) = try run(source, samples: [])
        XCTAssertEqual(trace, ["10 end 1 by timer", "190 end 2 by cap", "220 end 3 by timer", "220 workout_end"])
    }

    func testASourceFirstHeardInTheStepCountsFromItsFirstTotal() throws {
        let (trace, covered) = try run(source, samples: [(20, "P", 5_000), (60, "P", 5_250), (100, "P", 5_400)])
        XCTAssertEqual(covered, [0, 250, nil])
        XCTAssertEqual(trace.prefix(2), ["10 end 1 by timer", "100 end 2 by distance"])
    }

    func testWhatTheBeltCountsWhilePausedIsNotTheAthletes() throws {
        // Paused at 40 s with 100 m done; the belt runs on 150 m until the resume at 60 s.
        // (Paused, the step's clock stands: its cap is 20 s later.)
        let samples: [(Double, String, Double)] = [(10, "T", 0), (40, "T", 100), (50, "T", 200), (60, "T", 250),
                                                   (100, "T", 549), (101, "T", 551)]
        let (trace, covered) = try run(source, samples: samples, pauseAt: 40, resumeAt: 60)
        XCTAssertEqual(covered, [0, 100, 100, 100, 399, nil])
        XCTAssertEqual(trace[1], "101 end 2 by distance")
    }

    func testASourceStandingStillCoversNothing() throws {
        let clock = VirtualClock()
        let session = Session(routine: try load(source), scheduler: clock, options: SessionOptions(alerts: AlertSwitches(bell: false)))
        session.start()
        clock.advance(by: 11)
        session.take(SensorSample(sensor: "T", name: "T", values: [.distance: 0, .speed: 10]))
        clock.advance(by: 1)
        session.take(SensorSample(sensor: "T", name: "T", values: [.distance: 500, .speed: 0]))
        XCTAssertEqual(session.snapshot().covered, 0, "a belt at 0 km/h counting on")
        XCTAssertEqual(session.segment.index, 2)
    }

    func testACountThatRestartsGoesOnFromWhereItWas() {
        var distance = SegmentDistance()
        distance.take(sensor: "T", total: 300, counting: true)
        distance.restart()
        distance.take(sensor: "T", total: 350, counting: true)
        distance.take(sensor: "T", total: 10, counting: true)  // the machine started its count again
        distance.take(sensor: "T", total: 40, counting: true)
        XCTAssertEqual(distance.covered, 80)
        // A second source that stalls holds nothing back: the farther counts.
        distance.take(sensor: "P", total: 7, counting: true)
        distance.take(sensor: "P", total: 7, counting: true)
        XCTAssertEqual(distance.covered, 80)
    }

    func testDistancesArePlannedAtTheirPaceAndCheckedWhereWritten() throws {
        let routine = try load("""
            return workout { name = "D",
              work{ distance = "1.2km", info = { pace = "5:00/km" } },
              work{ distance = "2mi" },
              work{ distance = 500, info = { pace = "1:50/500m" }, cap = 100 },
              work{ distance = 400, expect = 75 },
            }
            """)
        let segments = routine.timeline.segments
        XCTAssertEqual(segments.map(\.open?.distance), [1_200, 3_218.688, 500, 400])
        XCTAssertEqual(segments.map(\.duration), [360, 1_159, 100, 75], "at the pace, at 6:00/km, within the cap, as expected")
        XCTAssertEqual(loadError("return workout { name = \"D\", work{ distance = \"400 yards\" } }"),
                       "test.lua:1: work: distance must be " + DistanceText.expected + ", got \"400 yards\"")
        XCTAssertEqual(loadError("return workout { name = \"D\", work{ distance = 0 } }"),
                       "test.lua:1: work: distance must be " + DistanceText.expected + ", got 0")
        XCTAssertNotNil(loadError("return workout { name = \"D\", work{ distance = 400, duration = 60 } }"))
    }

    func testDistanceAndPaceText() {
        XCTAssertEqual(DistanceText.metres("400mtr"), 400)
        XCTAssertEqual(DistanceText.metres("1.5 km"), 1_500)
        XCTAssertEqual(DistanceText.metres("400m", units: ["mtr", "km", "mi"]), nil, "intervals.icu's m is minutes")
        XCTAssertNil(DistanceText.metres("1e3m"))
        XCTAssertNil(DistanceText.metres("200km"))
        XCTAssertEqual(DistanceText.words(1_500), "1.5 km")
        XCTAssertEqual(PaceText("4:00/km")?.perKilometre, 240)
        XCTAssertEqual(PaceText("1:55/500m")?.perKilometre, 230)
        XCTAssertEqual(PaceText(" 8:00/mi ")?.kmh ?? 0, 12.07008, accuracy: 1e-5)
        XCTAssertNil(PaceText("4:00"))
        XCTAssertNil(PaceText("4:75/km"))
        XCTAssertNil(PaceText("0:00/km"))
        XCTAssertNil(PaceText("4.5/km"))
    }
}
