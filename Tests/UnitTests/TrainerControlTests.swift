import BlueZ
import DBus
import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// ERG on the virtual clock: `TrainerControl` as a listener of a session whose trainer is
/// a recorder, so the targets, the ramp's step a second, the pause's easiest setting and
/// the resume are checked at exact times, with no bus and no waiting. The wiring (BlueZ's
/// control point written by a real run) is SensorRunTests' ERG test.
final class TrainerControlTests: XCTestCase {
    /// A trainer that records each write with the virtual time it came at.
    @MainActor
    final class RecordingTrainer: ErgTrainer {
        let clock: VirtualClock
        var isLive = true
        var hasControlPoint = true
        var refuse = false
        private(set) var writes: [(t: Double, bytes: [UInt8])] = []

        init(clock: VirtualClock) { self.clock = clock }

        func writeControl(_ bytes: [UInt8], failure: @escaping (BusFailure) -> Void) {
            writes.append((clock.now, bytes))
            if refuse { failure(BusFailure(name: "org.bluez.Error.Failed", message: "no")) }
        }

        /// The power targets written (0x05 + little-endian watts), nil for the easiest
        /// setting (0x04 00), with their times; Request Control (0x00) left out.
        var targets: [String] {
            writes.compactMap { write in
                let time = Number.format(Number.rounded(write.t, places: 3))
                switch write.bytes.first {
                case 0x05: return "\(time) \(Int(write.bytes[1]) | Int(write.bytes[2]) << 8)"
                case 0x04: return "\(time) easiest"
                default: return nil
                }
            }
        }
    }

    /// The sensor tests' routine: 200 W for 3 s, then a ramp of 50–100 % of FTP over 3 s.
    static let routine = """
        return workout { name = "Sensors", countdown = 0,
          segment{ kind = "work", name = "Ride", duration = 3, info = { watts = 200 } },
          segment{ kind = "rest", name = "Easy", duration = 3, info = { power = { low = 50, high = 100 }, ramp = true } } }
        """

    @MainActor
    static func harness(ftp: Double?, runAhead: Double = 0) throws -> (Harness, TrainerControl, RecordingTrainer, [String]) {
        do {
            var options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: Athlete(ftp: ftp))
            options.powerInEvents = true
            let harness = Harness(try load(Self.routine), options: options)
            harness.clock.runAhead = runAhead
            var warnings: [String] = []
            let control = TrainerControl(snapshot: harness.session.snapshot, scheduler: harness.clock) { warnings.append($0) }
            harness.session.subscribe(control)
            let trainer = RecordingTrainer(clock: harness.clock)
            control.attach(trainer)
            return (harness, control, trainer, warnings)
        }
    }

    /// Control requested once; 200 W on the first boundary; the ramp's 100 W at its start,
    /// then 133 and 167 W on its whole seconds; the easiest setting at the end. Nothing
    /// is left scheduled (the harness checks).
    func testTargetsAndARampAStepASecond() throws {
        try MainActor.assumeIsolated {
            let (harness, control, trainer, _) = try Self.harness(ftp: 200)
            harness.run()
            XCTAssertEqual(trainer.writes.first?.bytes, [0x00], "Request Control first")
            XCTAssertEqual(trainer.writes.filter { $0.bytes == [0x00] }.count, 1)
            XCTAssertEqual(trainer.targets, ["0 200", "3 100", "4 133", "5 167", "6 easiest"])
            XCTAssertEqual(control.written, [200, 100, 133, 167, nil])
        }
    }

    /// A moment run ahead of itself (as a real run's are, 40 ms): the ramp's steps still
    /// fall on the segment's own seconds, timed from its end's deadline, not from the
    /// early fire.
    func testARampRunAheadStepsOnTheSegmentsSeconds() throws {
        try MainActor.assumeIsolated {
            let (harness, _, trainer, _) = try Self.harness(ftp: 200, runAhead: 0.04)
            harness.run()
            XCTAssertEqual(trainer.targets, ["0 200", "2.96 100", "4 133", "5 167", "5.96 easiest"],
                           "the boundaries written as their moments fire, 40 ms ahead; the steps on the seconds")
        }
    }

    /// Paused in the ramp: the easiest setting at once, no step while paused, and the
    /// ramp's target of the moment again on resume (a step a whole second of the segment),
    /// its steps on the segment's seconds.
    func testAPauseInARampHoldsTheEasiestUntilTheResume() throws {
        try MainActor.assumeIsolated {
            let (harness, _, trainer, _) = try Self.harness(ftp: 200)
            harness.session.start()
            harness.clock.advance(by: 4.5)
            harness.session.apply(.pause)
            harness.clock.advance(by: 10)
            XCTAssertEqual(trainer.targets, ["0 200", "3 100", "4 133", "4.5 easiest"], "no step while paused")
            harness.session.apply(.resume)
            harness.clock.run()
            // 1.5 s into the ramp at the resume (14.5): its second 1's 133 W again, then 167 W
            // on its next second, at 15; its end at 16.
            XCTAssertEqual(trainer.targets, ["0 200", "3 100", "4 133", "4.5 easiest", "14.5 133", "15 167", "16 easiest"])
        }
    }

    /// Percent of an FTP the run does not have: 200 W, then nothing for the ramp (no step
    /// is written) and one warning saying why; the easiest setting at the end.
    func testAPercentTargetWithoutAnFTPWarnsOnce() throws {
        try MainActor.assumeIsolated {
            var warnings: [String] = []
            var options = SessionOptions(alerts: AlertSwitches(bell: false))
            options.powerInEvents = true
            let harness = Harness(try load(Self.routine), options: options)
            let control = TrainerControl(snapshot: harness.session.snapshot, scheduler: harness.clock) { warnings.append($0) }
            harness.session.subscribe(control)
            let trainer = RecordingTrainer(clock: harness.clock)
            control.attach(trainer)
            harness.run()
            XCTAssertEqual(trainer.targets, ["0 200", "6 easiest"])
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(warnings.first?.contains("percent of FTP") ?? false, "\(warnings)")
        }
    }

    /// A trainer that refuses its writes: one warning, however many writes.
    func testARefusalWarnsOnce() throws {
        try MainActor.assumeIsolated {
            var warnings: [String] = []
            var options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: Athlete(ftp: 200))
            options.powerInEvents = true
            let harness = Harness(try load(Self.routine), options: options)
            let control = TrainerControl(snapshot: harness.session.snapshot, scheduler: harness.clock) { warnings.append($0) }
            harness.session.subscribe(control)
            let trainer = RecordingTrainer(clock: harness.clock)
            trainer.refuse = true
            control.attach(trainer)
            harness.run()
            XCTAssertGreaterThan(trainer.writes.count, 3)
            XCTAssertEqual(warnings, ["the trainer refused its power target (the write failed: no); the resistance is yours"])
        }
    }

    /// A trainer that is not live gets nothing; once attached live it takes the target of
    /// the moment, mid-ramp.
    func testATrainerAttachedMidRampTakesTheTargetOfTheMoment() throws {
        try MainActor.assumeIsolated {
            let (harness, control, trainer, _) = try Self.harness(ftp: 200)
            trainer.isLive = false
            harness.session.start()
            harness.clock.advance(by: 4.5)
            XCTAssertEqual(trainer.writes.count, 0)
            trainer.isLive = true
            control.attach(trainer)
            harness.clock.run()
            XCTAssertEqual(trainer.targets, ["4.5 133", "5 167", "6 easiest"], "the ramp's second 1, then its second 2")
        }
    }

    /// Inside `receive` the control reads nothing back from the session: the segment's
    /// power and clock come with the event. A listener before it and one after mark the
    /// emit; the snapshot is read only outside one (a ramp's steps, an attach).
    func testItReadsTheSessionOnlyOnTurnsOfItsOwn() throws {
        try MainActor.assumeIsolated {
            var options = SessionOptions(alerts: AlertSwitches(bell: false), athlete: Athlete(ftp: 200))
            options.powerInEvents = true
            let harness = Harness(try load(Self.routine), options: options)
            var emitting = false
            var readsInside = 0
            var readsOutside = 0
            let snapshot = { [unowned session = harness.session] in
                if emitting { readsInside += 1 } else { readsOutside += 1 }
                return session.snapshot()
            }
            let control = TrainerControl(snapshot: snapshot, scheduler: harness.clock) { _ in }
            harness.session.subscribe { _ in emitting = true }
            harness.session.subscribe(control)
            harness.session.subscribe { _ in emitting = false }
            let trainer = RecordingTrainer(clock: harness.clock)
            control.attach(trainer)
            harness.session.start()
            harness.clock.advance(by: 4.5)
            harness.session.apply(.pause)
            harness.session.apply(.resume)
            harness.clock.run()
            XCTAssertEqual(trainer.targets, ["0 200", "3 100", "4 133", "4.5 easiest", "4.5 133", "5 167", "6 easiest"])
            XCTAssertEqual(readsInside, 0)
            XCTAssertEqual(readsOutside, 2, "the ramp's two steps")
        }
    }

    /// More time in a ramp: its steps follow the longer segment from the next one on.
    func testARampLengthenedStepsOverItsNewLength() throws {
        try MainActor.assumeIsolated {
            let (harness, _, trainer, _) = try Self.harness(ftp: 200)
            harness.session.start()
            harness.clock.advance(by: 4.5)
            harness.session.apply(.add(seconds: 3))
            harness.clock.run()
            XCTAssertEqual(trainer.targets, ["0 200", "3 100", "4 133", "6 150", "7 167", "8 183", "9 easiest"],
                           "at 5, 2 s of 6 is 133 W again: nothing new to write")
        }
    }
}
