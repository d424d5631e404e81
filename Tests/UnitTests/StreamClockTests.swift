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
}
