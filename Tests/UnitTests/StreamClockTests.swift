import XCTest
@testable import SoundPlayer

/// The stream clock on made-up timing updates: a server that reads in quanta (as
/// pipewire-pulse does) reads late, never early, so the earliest origin is the true one.
final class StreamClockTests: XCTestCase {
    let rate = 48_000

    /// An update measured at `time` µs of a stream whose frame 0 is heard at `origin` µs,
    /// read in quanta of `quantum` frames, as pipewire-pulse reports it (no sink latency).
    func update(at time: Int64, origin: Int64 = 1_000_000, quantum: Int64 = 1024) -> StreamClock.Update {
        let frames = (time - origin) * Int64(rate) / 1_000_000
        return StreamClock.Update(measured: time, read: frames / quantum * quantum, sink: 0)
    }

    func testOneUpdateInAQuantumIsLateByItsPhase() {
        var clock = StreamClock(rate: rate)
        clock.record(update(at: 2_044_000))  // 48 quanta of 21.3 ms and 20 ms into the next
        let best = try! XCTUnwrap(clock.best)
        XCTAssertEqual(clock.origin(best) - 1_000_000, 20_000, accuracy: 1_000)
    }

    func testABurstFindsTheOriginWithinItsSpacing() {
        var clock = StreamClock(rate: rate)
        for step in 0..<30 { clock.record(update(at: 2_001_000 + Int64(step) * 1_500)) }
        XCTAssertTrue(clock.isSettled)
        XCTAssertEqual(clock.origin(clock.best!), 1_000_000, accuracy: 1_500)
        // The latest alone is off by its phase in the quantum.
        XCTAssertGreaterThan(clock.origin(clock.updates.last!) - 1_000_000, 1_500)
    }

    func testPulseAudiosExactUpdatesStayExact() {
        var clock = StreamClock(rate: rate)
        for step in 0..<10 {
            let time = 2_000_000 + Int64(step) * 7_000
            // Read ahead of what is heard by a sink latency that varies; the origin does not.
            let sink = Int64(20_000 + step * 300)
            let read = (time + sink - 1_000_000) * Int64(rate) / 1_000_000
            clock.record(StreamClock.Update(measured: time, read: read, sink: sink))
        }
        XCTAssertEqual(clock.origin(clock.best!), 1_000_000, accuracy: 25)
    }

    func testOldUpdatesAreLetGo() {
        var clock = StreamClock(rate: rate)
        clock.record(update(at: 2_000_000, quantum: 1))
        clock.record(update(at: 8_000_000, origin: 1_005_000, quantum: 1))  // drifted 5 ms in 6 s
        XCTAssertEqual(clock.updates.count, 1)
        XCTAssertEqual(clock.origin(clock.best!), 1_005_000, accuracy: 25)
    }

    func testAJumpLaterStartsAgain() {
        var clock = StreamClock(rate: rate)
        clock.record(update(at: 2_000_000, quantum: 1))
        // An underrun of 300 ms the server did not report: the origin moved on.
        clock.record(update(at: 2_500_000, origin: 1_300_000, quantum: 1))
        XCTAssertEqual(clock.updates.count, 1)
        XCTAssertEqual(clock.origin(clock.best!), 1_300_000, accuracy: 25)
    }

    func testResetForgetsAndIsNotSettled() {
        var clock = StreamClock(rate: rate)
        for step in 0..<30 { clock.record(update(at: 2_000_000 + Int64(step) * 1_500)) }
        clock.reset()
        XCTAssertNil(clock.best)
        XCTAssertFalse(clock.isSettled)
    }

    func testTheKeptUpdatesAreBounded() {
        var clock = StreamClock(rate: rate)
        for step in 0..<2_000 { clock.record(update(at: 2_000_000 + Int64(step) * 1_000)) }
        XCTAssertEqual(clock.updates.count, StreamClock.kept)
    }

    /// Bursts as the player asks for them (every 1.5 ms for 45 ms, every 2 s) of a stream
    /// whose frame 0 is heard at `origin(time)`, read in quanta; the placing line's frame
    /// for a sound due 0.5 s after each burst, by when it was due.
    func placed(for seconds: Int, quantum: Int64 = 256, origin: (Int64) -> Int64) -> [(due: Int64, frame: Int64)] {
        var clock = StreamClock(rate: rate)
        var placed: [(Int64, Int64)] = []
        for burst in 0..<(seconds / 2) {
            let start = 2_000_000 + Int64(burst) * 2_000_000
            for step in 0..<30 {
                let time = start + Int64(step) * 1_500
                clock.record(update(at: time, origin: origin(time), quantum: quantum))
            }
            let due = start + 500_000
            placed.append((due, clock.frame(at: due)!))
        }
        return placed
    }

    /// How far the placed frames lie from where `origin` hears them on time (ms).
    func errors(_ placed: [(due: Int64, frame: Int64)], origin: (Int64) -> Int64) -> [Double] {
        placed.map { Double($0.frame - (($0.due - origin($0.due)) * Int64(rate) / 1_000_000)) / Double(rate) * 1_000 }
    }

    /// The origin moves a quantum (256 frames, 5.3 ms) later and stays, as pipewire-pulse's
    /// did once in ten idle minutes when the graph skipped the stream for a cycle (the pips
    /// heard moved with it): the line starts again at the next burst, every sound placed
    /// after it is on time, and `record` says so once. With bursts every 2 s (the player's),
    /// and every second, where the window lets the oldest updates go in the middle of a burst.
    func testAMoveOfAQuantumIsFollowedAtTheNextBurst() {
        for every in [2_000_000, 1_000_000] as [Int64] {
            let origin = { (time: Int64) -> Int64 in time < 20_000_000 ? 1_000_000 : 1_005_333 }
            var clock = StreamClock(rate: rate)
            var restarts: [Int64] = []
            var misses: [Double] = []
            for burst in 0..<(80_000_000 / every) {
                let start = 2_000_000 + burst * every
                for step in 0..<30 {
                    let time = start + Int64(step) * 1_500
                    if clock.record(update(at: time, origin: origin(time), quantum: 256)) { restarts.append(time) }
                }
                let due = start + 500_000
                misses += errors([(due, clock.frame(at: due)!)], origin: origin)
            }
            XCTAssertEqual(restarts.count, 1, "every \(every) µs: restarts at \(restarts)")
            XCTAssertEqual(Double(restarts.first ?? 0), 20_040_000, accuracy: 3_000, "at the burst after the move, once it spans its settling")
            XCTAssertLessThan(misses.map(abs).max()!, 0.5, "every \(every) µs: misses (ms): \(misses)")
        }
    }

    /// A move smaller than `shift` (2 ms) is a reading's to slew through: sounds 2 s apart
    /// move by at most the slew between them, and are on time again within the time the
    /// slew needs.
    func testASmallMoveIsFollowedBySlewingNeverByAStep() {
        let origin = { (time: Int64) -> Int64 in time < 20_000_000 ? 1_000_000 : 1_002_000 }
        let placed = placed(for: 80, origin: origin)
        let misses = errors(placed, origin: origin)
        // Sounds 2 s apart are 96,000 frames apart, give or take the slew.
        let steps = zip(placed, placed.dropFirst()).map { abs(Double($1.frame - $0.frame - 96_000)) / 48 }
        XCTAssertLessThanOrEqual(steps.max()!, StreamClock.slew * 2_000 + 0.3, "steps (ms): \(steps)")
        XCTAssertGreaterThan(misses.map(abs).max()!, 1, "the move is not followed at once: \(misses)")
        XCTAssertLessThan(misses.suffix(5).map(abs).max()!, 0.5, "followed in the end: \(misses)")
    }

    /// A sink 1,700 ppm slow against the monotonic clock: its origin drifts 1.7 ms later a
    /// second. Until the drift is measured (five samples, 10 s) the line trails by what the
    /// earliest origin of the last 5 s lags (8.5 ms here), and then closes at the slew:
    /// from then on every sound is within a millisecond of its moment with no lag growing,
    /// and the rate is said within 100 ppm.
    func testASinkRunningSlowIsFollowedWithoutLag() {
        let origin = { (time: Int64) -> Int64 in 1_000_000 + (time - 2_000_000) * 17 / 10_000 }
        var clock = StreamClock(rate: rate)
        var misses: [Double] = []
        for burst in 0..<40 {
            let start = 2_000_000 + Int64(burst) * 2_000_000
            for step in 0..<30 {
                let time = start + Int64(step) * 1_500
                clock.record(update(at: time, origin: origin(time), quantum: 256))
            }
            let due = start + 500_000
            let frame = clock.frame(at: due)!
            misses.append(Double(frame - (due - origin(due)) * Int64(rate) / 1_000_000) / Double(rate) * 1_000)
        }
        XCTAssertLessThan(misses.map(abs).max()!, 11, "misses (ms): \(misses)")
        XCTAssertLessThan(misses.dropFirst(25).map(abs).max()!, 1, "misses (ms): \(misses)")
        XCTAssertEqual(clock.ppm, -1_700, accuracy: 100)
    }

    /// A cork starts the line again at the new place at once (the read index stood while
    /// time ran on: that is no jump to slew through), keeping the drift measured.
    func testAResetStartsTheLineAgainAtOnce() {
        var clock = StreamClock(rate: rate)
        for step in 0..<30 { clock.record(update(at: 2_000_000 + Int64(step) * 1_500, quantum: 1)) }
        clock.reset()
        XCTAssertNil(clock.frame(at: 3_000_000))
        for step in 0..<30 { clock.record(update(at: 9_000_000 + Int64(step) * 1_500, origin: 3_500_000, quantum: 1)) }
        let frame = try! XCTUnwrap(clock.frame(at: 10_000_000))
        XCTAssertEqual(Double(frame), Double((10_000_000 - 3_500_000) * Int64(rate) / 1_000_000), accuracy: 2)
    }
}
