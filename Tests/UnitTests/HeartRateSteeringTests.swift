import IntervalEngine
import TestSupport
import WorkoutValues
import XCTest

/// Heart-rate steering on a simulated body: a first-order heart rate (it moves toward
/// rest + gain × output with a time constant of 30 to 60 s) with ±1.5 bpm of noise, read
/// once a second, the controller's output driving it, on simulated seconds. It must settle
/// in the band and overshoot it by no more than 5 bpm. The figures are BENCHMARKS.md's.
final class HeartRateSteeringTests: XCTestCase {
    struct Body {
        var bpm: Double
        let rest: Double
        let gain: Double
        let tau: Double
        var seed: UInt64

        /// One second on `output`; the heart rate as a strap reads it (with noise).
        mutating func second(at output: Double) -> Double {
            bpm += (rest + gain * output - bpm) / tau
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = (Double(seed >> 33) / Double(1 << 31) - 0.5) * 3
            return bpm + noise
        }
    }

    struct Outcome {
        /// Seconds until the true heart rate entered the band for good (nil: never).
        var settled: Double?
        /// Beats above the band's top at the highest (0 when it never went above).
        var overshoot: Double
        var outputs: Set<Double>
    }

    func simulate(tau: Double, watts: Bool, seconds: Int = 1_800, seed: UInt64 = 7) -> Outcome {
        let band = 135.0...145.0
        var steering = watts
            ? HeartRateSteering(band: band, base: 150, step: 5, limits: 50...300)
            : HeartRateSteering(band: band, base: 8, step: 0.2, limits: 3...16)
        var body = watts ? Body(bpm: 100, rest: 60, gain: 0.4, tau: tau, seed: seed)
            : Body(bpm: 100, rest: 60, gain: 8, tau: tau, seed: seed)
        var settled: Double?
        var overshoot = 0.0
        var outputs: Set<Double> = []
        for t in 0..<seconds {
            let read = body.second(at: steering.output)
            _ = steering.update(bpm: read, at: Double(t))
            outputs.insert(steering.output)
            overshoot = max(overshoot, body.bpm - band.upperBound)
            if band.contains(body.bpm) { settled = settled ?? Double(t) } else { settled = nil }
        }
        return Outcome(settled: settled, overshoot: overshoot, outputs: outputs)
    }

    func testItSettlesInTheBandWithoutOvershootingOnABikeAndATreadmill() {
        for watts in [true, false] {
            for tau in [30.0, 45.0, 60.0] {
                for seed: UInt64 in [1, 7, 42] {
                    let outcome = simulate(tau: tau, watts: watts, seed: seed)
                    let what = "\(watts ? "bike" : "treadmill") τ=\(Int(tau)) s seed \(seed)"
                    let settled = outcome.settled
                    XCTAssertNotNil(settled, "\(what): never settled")
                    XCTAssertLessThanOrEqual(settled ?? .infinity, 900, what)
                    XCTAssertLessThanOrEqual(outcome.overshoot, 5, what)
                    if seed == 7 {
                        print("steering \(what): settled in \(Int(settled ?? -1)) s, overshoot "
                              + "\(Number.format(Number.rounded(outcome.overshoot, places: 1))) bpm")
                    }
                }
            }
        }
    }

    func testStepsAreSmallRaisedSlowlyCutFastAndWithinLimits() {
        var steering = HeartRateSteering(band: 135...145, base: 150, step: 5, limits: 100...160)
        XCTAssertEqual(steering.update(bpm: 120, at: 0), 155)
        XCTAssertNil(steering.update(bpm: 120, at: 10), "raised at most every 30 s")
        XCTAssertEqual(steering.update(bpm: 120, at: 30), 160)
        XCTAssertNil(steering.update(bpm: 120, at: 60), "never above the limit")
        XCTAssertEqual(steering.update(bpm: 150, at: 61), 150, "cut fast: two steps at once")
        XCTAssertEqual(steering.update(bpm: 150, at: 66), 140, "and again 5 s later")
        XCTAssertEqual(steering.correction, -10, "the program's own 150 W kept apart")
        var floor = HeartRateSteering(band: 135...145, base: 105, step: 5, limits: 100...160)
        XCTAssertEqual(floor.update(bpm: 170, at: 0), 100)
        XCTAssertNil(floor.update(bpm: 170, at: 10), "never below the limit")
    }

    /// Runs `source` (one 25-minute segment with a band) on the virtual clock, a second at
    /// a time, the steering's output (`output` of an event) driving `body` from `start`,
    /// its heart rate read by a strap: the outputs written, and the true heart rate of the
    /// last 5 minutes. Never above 150 bpm on the way.
    func steered(_ source: String, athlete: Athlete, body: Body, start: Double,
                 output: @escaping (Event.Kind) -> Double?) throws -> (written: [Double], last: [Double]) {
        let clock = VirtualClock()
        var current = start
        var written: [Double] = []
        let session = Session(routine: try load(source), scheduler: clock,
                              options: SessionOptions(alerts: AlertSwitches(bell: false), athlete: athlete)) { event in
            if let value = output(event.kind) { current = value; written.append(value) }
        }
        session.start()
        var body = body
        var last: [Double] = []
        for t in 1...1_490 {
            clock.advance(by: 1)
            let read = body.second(at: current)
            session.take(SensorSample(sensor: "S", name: "Strap", hr: Int(read.rounded())))
            XCTAssertLessThanOrEqual(body.bpm, 150, "overshoot at \(t) s")
            if t > 1_190 { last.append(body.bpm) }
        }
        return (written, last)
    }

    /// The whole path on the virtual clock: a routine's `hr = { 135, 145 }` over its own
    /// 150 W, the session steering through `erg`, the simulated body answering the watts.
    func testARoutinesHeartRateBandSteersTheTrainer() throws {
        let source = """
            return workout { name = "Steady", countdown = 0,
              work{ duration = "25m", name = "Hold", hr = { 135, 145 }, info = { watts = 150 } } }
            """
        XCTAssertEqual(try load(source).timeline.segments.first?.steer, 135...145)
        let (written, last) = try steered(source, athlete: Athlete(ftp: 250), body: Body(bpm: 100, rest: 60, gain: 0.4, tau: 45, seed: 3),
                                          start: 150) { kind in
            if case .erg(let watts) = kind { Double(watts) } else { nil }
        }
        XCTAssertTrue(last.allSatisfy { (135...145).contains($0) }, "the last 5 minutes in the band: \(last.min() ?? 0)–\(last.max() ?? 0)")
        XCTAssertTrue(written.allSatisfy { (100...300).contains($0) }, "within 40–120 % of the FTP")
        XCTAssertEqual(written.first, 155, "a small first step on the program's own 150 W")
    }

    /// With a pace target the band steers a treadmill's speed, from the pace's 8 km/h,
    /// through `treadmill` events, never above max_speed.
    func testWithAPaceTheBandSteersATreadmillsSpeed() throws {
        var athlete = Athlete()
        athlete.maxSpeed = 12
        var watts = 0
        let (written, last) = try steered("""
            return workout { name = "Steady run", countdown = 0,
              work{ duration = "25m", name = "Hold", hr = { 135, 145 }, info = { pace = "7:30/km" } } }
            """, athlete: athlete, body: Body(bpm: 100, rest: 60, gain: 8, tau: 45, seed: 5), start: 8) { kind in
            if case .erg = kind { watts += 1 }
            if case .treadmill(let kmh) = kind { return kmh }
            return nil
        }
        XCTAssertEqual(watts, 0, "no watts for a treadmill's segment")
        XCTAssertTrue(last.allSatisfy { (135...145).contains($0) }, "\(last.min() ?? 0)–\(last.max() ?? 0)")
        XCTAssertEqual(written.first, 8.2)
        XCTAssertTrue(written.allSatisfy { $0 <= 12 })
    }

    func testABandIsCheckedWhereItIsWritten() {
        XCTAssertEqual(loadError("return workout { name = \"S\", work{ duration = 60, hr = { 150, 140 } } }"),
                       "test.lua:1: work: hr must be a band of heart rates such as { 135, 145 } (beats a minute, 40 to 220, "
                       + "the low first), got table")
    }
}
