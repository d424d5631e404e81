import BlueZ
import DBus
import GATT
import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// Treadmill control on the virtual clock: `TreadmillControl` as a listener of a session
/// whose treadmill is a recorder, so each write, the athlete's console and stop, and the
/// machines' quirks are checked at exact times with no bus. The wiring against the fake
/// BlueZ's treadmill is RunnerSensorTests'.
final class TreadmillControlTests: XCTestCase {
    @MainActor
    final class RecordingTreadmill: TreadmillDevice {
        let clock: VirtualClock
        var isLive = true
        var hasTreadmillControl = true
        var ranges: [String: [UInt8]] = [
            SensorService.supportedSpeedRange: [0x64, 0x00, 0xd0, 0x07, 0x0a, 0x00],  // 1–20 km/h by 0.1
            SensorService.supportedInclinationRange: [0xe2, 0xff, 0x96, 0x00, 0x05, 0x00],  // −3–15 % by 0.5
        ]
        private(set) var writes: [(t: Double, bytes: [UInt8])] = []

        init(clock: VirtualClock) { self.clock = clock }

        func writeControl(_ bytes: [UInt8], failure: @escaping (BusFailure) -> Void) {
            writes.append((clock.now, bytes))
        }

        func readValue(_ uuid: String, reply: @escaping ([UInt8]?) -> Void) { reply(ranges[uuid]) }

        /// `t hex` for each write.
        var log: [String] {
            writes.map { "\(Number.format(Number.rounded($0.t, places: 3))) " + $0.bytes.map { String(format: "%02x", $0) }.joined() }
        }
    }

    static let routine = """
        return workout { name = "Treadmill", countdown = 0,
          warmup{ duration = 10, info = { pace = "6:00/km", incline = 1 } },
          work{ duration = 10, name = "Fast", info = { pace = 110 } },
          work{ duration = 10, name = "Same", info = { pace = 110 } },
          rest{ duration = 10, info = { pace = "3:00/km", incline = 20 } } }
        """

    @MainActor
    final class Rig {
        let harness: Harness
        let control: TreadmillControl
        let treadmill: RecordingTreadmill
        var warnings: [String] = []
        var pauses = 0

        init(athlete: Athlete = Athlete(thresholdPace: 300), source: String = TreadmillControlTests.routine) throws {
            var options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: athlete)
            options.powerInEvents = true
            harness = Harness(try load(source), options: options)
            var box: Rig?
            control = TreadmillControl(scheduler: harness.clock, pause: { box?.pauses += 1; box?.harness.session.apply(.pause) },
                                       warn: { box?.warnings.append($0) })
            treadmill = RecordingTreadmill(clock: harness.clock)
            box = self
            harness.session.subscribe(control)
            control.attach(treadmill)
        }

        /// The treadmill's data: its belt's speed (and incline).
        func data(speed: Double, incline: Double? = nil) {
            var sample = SensorSample(sensor: "T", name: "Treadmill", speed: speed)
            sample[.incline] = incline
            control.observe(sample)
        }
    }

    /// Control and start once; each change of speed or incline once, within the machine's
    /// ranges (20 % is its 15 %); a segment asking what the last asked writes nothing;
    /// the end stops the belt.
    func testEachChangeIsWrittenOnceWithinTheRanges() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig()
            rig.harness.run()
            // 10 km/h and 1 %; 110 % of a 5:00/km threshold is 13.2 km/h; 20 km/h and 15 %; stop.
            XCTAssertEqual(rig.treadmill.log, ["0 00", "0 07", "0 02e803", "0 030a00", "10 022805",
                                               "30 02d007", "30 039600", "40 0801"])
            XCTAssertEqual(rig.control.written, ["start", "speed 10", "incline 1", "speed 13.2", "speed 20", "incline 15", "stop"])
            XCTAssertEqual(rig.warnings, [])
        }
    }

    /// Never above max_speed: 3:00/km (20 km/h) is held at 16, said once.
    func testMaxSpeedHoldsAFasterPace() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig(athlete: {
                var athlete = Athlete(thresholdPace: 300)
                athlete.maxSpeed = 16
                return athlete
            }())
            rig.harness.run()
            XCTAssertTrue(rig.control.written.contains("speed 16"))
            XCTAssertFalse(rig.control.written.contains("speed 20"))
            XCTAssertEqual(rig.warnings, ["the segment's pace asks for 20 km/h; the treadmill is held at your max_speed, 16 km/h"])
        }
    }

    /// The console's speed is kept for the segment; the safety key pauses the workout at
    /// once and nothing is written until the athlete starts the belt at the machine.
    func testTheAthleteWinsAndTheSafetyKeyPauses() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig()
            rig.harness.session.start()
            rig.harness.clock.advance(by: 2)
            rig.control.status(.targetSpeed(9))
            rig.harness.clock.advance(by: 10)
            XCTAssertEqual(rig.control.written, ["start", "speed 10", "incline 1", "speed 13.2"], "9 km/h kept, not fought")
            rig.control.status(.safetyKey)
            XCTAssertEqual(rig.harness.session.state, .paused, "at once")
            XCTAssertEqual(rig.pauses, 1)
            XCTAssertEqual(rig.warnings, ["the treadmill stopped: its safety key was pulled; the workout is paused, and it "
                                          + "sets no speed until you start the belt at the machine"])
            rig.harness.session.apply(.resume)
            rig.harness.clock.advance(by: 10)
            XCTAssertEqual(rig.control.written.count, 4, "no start, no speed: the belt is the athlete's")
            rig.control.status(.startedByUser)
            rig.harness.clock.run()
            XCTAssertEqual(rig.control.written.suffix(3), ["speed 20", "incline 15", "stop"], "the next change is written")
        }
    }

    /// Heart-rate steering's speed is written as it changes, the incline kept.
    func testASteeredSpeedIsWritten() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig()
            rig.harness.session.start()
            rig.control.receive(Event(.treadmill(kmh: 10.4), t: 1, fire: nil))
            XCTAssertEqual(rig.control.written, ["start", "speed 10", "incline 1", "speed 10.4"])
        }
    }

    /// Paused, the belt is paused; resumed, started again with its target.
    func testAPausePausesTheBelt() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig()
            rig.harness.session.start()
            rig.harness.clock.advance(by: 5)
            rig.harness.session.apply(.pause)
            rig.control.status(.stoppedByUser(pause: true))  // the echo of our own pause
            XCTAssertEqual(rig.pauses, 0)
            rig.harness.session.apply(.resume)
            XCTAssertEqual(rig.control.written, ["start", "speed 10", "incline 1", "pause", "start"])
            XCTAssertEqual(rig.warnings, [])
        }
    }

    /// A speed write answered with success and ignored; a walking pad in mph; inclines in
    /// whole percent; a write refused with the belt standing, sent again once it moves.
    func testQuirksAreSaidOnceAndLivedWith() throws {
        try MainActor.assumeIsolated {
            let rig = try Rig()
            rig.harness.session.start()
            rig.data(speed: 10, incline: 1)
            rig.harness.clock.advance(by: 11)
            rig.data(speed: 10)  // 13.2 asked, still 10 after 8.2 s
            rig.harness.clock.advance(by: 9)
            XCTAssertEqual(rig.warnings, ["the treadmill took the speed 13.2 km/h but stays at 10 km/h (its firmware may "
                                          + "ignore speed writes): set it on the console; the workout goes on"])
            let pad = try Rig(source: """
                return workout { name = "T", countdown = 0, work{ duration = 30, info = { pace = "6:00/km" } } }
                """)
            pad.harness.session.start()
            pad.data(speed: 6.21)  // 10 km/h in mph: its first data, from which the belt has
            pad.harness.clock.advance(by: 8)  // 5 s, and a second a km/h (3.8), to get there
            XCTAssertEqual(pad.warnings, [])
            pad.harness.clock.advance(by: 1)
            XCTAssertEqual(pad.warnings, ["the treadmill sends its speed in mph as if km/h (6.21 for 10 km/h): its speed "
                                          + "and pace read low; the workout goes on"])
            pad.data(speed: 10, incline: 1)
            let whole = try Rig(source: """
                return workout { name = "T", countdown = 0, work{ duration = 5, info = { pace = "6:00/km", incline = 2.5 } } }
                """)
            whole.harness.session.start()
            whole.data(speed: 10, incline: 3)
            whole.data(speed: 10, incline: 3)
            XCTAssertEqual(whole.warnings, ["the treadmill sets its incline in whole percent: 2.5 % is 3 %"])
            whole.control.response(.init(request: 0x02, result: .failed))
            XCTAssertEqual(whole.warnings.last, "the treadmill refused its target speed (operation failed); the speed is yours",
                           "not standing: a failure is a refusal")
            let standing = try Rig()
            standing.harness.session.start()
            standing.data(speed: 0)
            standing.control.response(.init(request: 0x02, result: .failed))
            XCTAssertEqual(standing.warnings, ["the treadmill takes its target speed only with the belt moving; it is sent "
                                               + "again once the belt moves"])
            standing.data(speed: 1)
            XCTAssertEqual(standing.control.written, ["start", "speed 10", "incline 1", "speed 10", "incline 1"])
            standing.control.response(.init(request: 0x03, result: .notSupported))
            standing.control.response(.init(request: 0x03, result: .notSupported))
            XCTAssertEqual(standing.warnings.last, "the treadmill refused its target incline (not supported); the speed is yours")
            XCTAssertEqual(standing.warnings.count, 2)
        }
    }

    func testCommandsRangesStatusAndTargets() {
        XCTAssertEqual(FitnessMachineControl.targetSpeedBytes(12.34), [0x02, 0xd2, 0x04])
        XCTAssertEqual(FitnessMachineControl.targetInclinationBytes(-2.5), [0x03, 0xe7, 0xff])
        XCTAssertEqual(FitnessMachineControl.stopBytes(pause: true), [0x08, 0x02])
        let speeds = SupportedRange(speed: [0x64, 0x00, 0xd0, 0x07, 0x0a, 0x00])
        XCTAssertEqual(speeds, SupportedRange(minimum: 1, maximum: 20, increment: 0.1))
        XCTAssertEqual(speeds?.clamped(25), 20)
        XCTAssertEqual(SupportedRange(inclination: [0xe2, 0xff, 0x96, 0x00, 0x05, 0x00])?.clamped(2.3), 2.5)
        XCTAssertNil(SupportedRange(speed: [0xd0, 0x07, 0x64, 0x00, 0x0a, 0x00]), "least above most")
        XCTAssertNil(SupportedRange(speed: [0x64, 0x00]))
        XCTAssertEqual(FitnessMachineStatus([0x03]), .safetyKey)
        XCTAssertEqual(FitnessMachineStatus([0x02, 0x02]), .stoppedByUser(pause: true))
        XCTAssertEqual(FitnessMachineStatus([0x05, 0xb0, 0x04]), .targetSpeed(12))
        XCTAssertEqual(FitnessMachineStatus([0x06, 0xe2, 0xff]), .targetInclination(-3))
        XCTAssertNil(FitnessMachineStatus([0x05, 0xb0]))
        XCTAssertNil(FitnessMachineStatus([]))
        let athlete = Athlete(thresholdPace: 240)
        XCTAssertEqual(TreadmillTarget(info: .object([("pace", .string("4:00/km"))]), athlete: Athlete())?.speed, 15)
        XCTAssertEqual(TreadmillTarget(info: .object([("pace", .integer(90))]), athlete: athlete)?.speed ?? 0, 13.5, accuracy: 1e-9)
        XCTAssertNil(TreadmillTarget(info: .object([("pace", .integer(90))]), athlete: Athlete()), "no threshold pace")
        // Z2 is 77.5–87.7 % of a 4:00/km threshold's 15 km/h: held at 12.39 km/h, its middle.
        XCTAssertEqual(TreadmillTarget(info: .object([("pace_zone", .string("Z2"))]), athlete: athlete)?.speed, 12.39)
        XCTAssertNil(TreadmillTarget(info: .object([("pace_zone", .string("Z9"))]), athlete: athlete))
        XCTAssertEqual(TreadmillTarget(info: .object([("incline", .object([("low", .integer(1)), ("high", .integer(3))]))]),
                                       athlete: Athlete()), TreadmillTarget(speed: nil, incline: 2))
    }
}

/// What a rower's and a treadmill's data say they do wrong (`MachineQuirks`).
final class MachineQuirksTests: XCTestCase {
    func testAStrokeRateChangingWithoutStrokesIsLeftOut() {
        var quirks = MachineQuirks()
        var warnings: [String] = []
        var rates: [Double?] = []
        // Strokes counted: rates kept; then the count stands while the rate moves.
        for (count, rate) in [(10, 24.0), (11, 25.0), (11, 25.0), (11, 26.0), (11, 27.0), (11, 28.0), (12, 24.0)] {
            let (values, warning) = quirks.rower([.strokeRate: rate], strokeCount: count, name: "Rower")
            rates.append(values[.strokeRate])
            if let warning { warnings.append(warning) }
        }
        XCTAssertEqual(rates, [24, 25, 25, 26, 27, nil, 24], "left out after three changes without a stroke, back with strokes")
        XCTAssertEqual(warnings.count, 1)
    }

    func testATreadmillCountingWithItsBeltStandingIsSaidOnce() {
        var quirks = MachineQuirks()
        XCTAssertNil(quirks.treadmill([.speed: 0, .distance: 100], name: "T"))
        XCTAssertNil(quirks.treadmill([.speed: 10, .distance: 110], name: "T"))
        XCTAssertNotNil(quirks.treadmill([.speed: 0, .distance: 120], name: "T"))
        XCTAssertNil(quirks.treadmill([.speed: 0, .distance: 130], name: "T"), "once")
    }
}
