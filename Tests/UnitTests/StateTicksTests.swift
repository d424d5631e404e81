import ClassPublishing
import Foundation
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// When `run --mqtt` publishes the state while nothing happens (`StateTicks`), on the
/// virtual clock: 20 ms after each turn of the shown second, never within a second of the
/// last state, none while paused or after the end. A publisher stands in that publishes
/// on every event and tick, as `SessionPublisher` does; the broker itself is MQTTTests'.
final class StateTicksTests: XCTestCase {
    @MainActor
    final class Publisher {
        let harness: Harness
        private(set) var ticks: StateTicks!
        /// The times of the states published by a tick.
        private(set) var ticked: [String] = []

        init(_ harness: Harness) {
            self.harness = harness
            ticks = StateTicks(scheduler: harness.clock) { [unowned self] in
                ticked.append(Number.format(Number.rounded(harness.clock.now, places: 3)))
                publish()
            }
            harness.session.subscribe { [unowned self] _ in publish() }
        }

        func publish() {
            ticks.published()
            ticks.next(after: harness.session.snapshot())
        }
    }

    static let routine = "return workout { name = \"Ride\", countdown = 0, sounds = { finish = false }, work(3, \"A\"), rest(2.5, \"B\") }"

    /// While running, 20 ms after each shown second turns; a new segment's events publish
    /// at once and the ticks go on from them; none after the end, and none left scheduled.
    func testATickAfterEachTurnOfTheShownSecond() throws {
        try MainActor.assumeIsolated {
            let harness = Harness(try load(Self.routine))
            let publisher = Publisher(harness)
            harness.run()
            // A's seconds turn at 1 and 2. B's 2.5 s turn at 3.5 and 4.5, within a second of
            // the state at its start (3) and of the tick at 4: a second apart instead.
            XCTAssertEqual(publisher.ticked, ["1.02", "2.02", "4", "5"])
            XCTAssertFalse(publisher.ticks.isSet)
            XCTAssertEqual(harness.clock.pendingCount, 0)
        }
    }

    /// A state published between the turns (a command's) puts the next tick a second
    /// after it, even though the shown second turns sooner.
    func testNeverWithinASecondOfTheLastState() throws {
        try MainActor.assumeIsolated {
            let harness = Harness(try load(Self.routine))
            let publisher = Publisher(harness)
            harness.session.start()
            harness.clock.advance(by: 1.5)
            publisher.publish()
            harness.clock.advance(by: 1.3)
            XCTAssertEqual(publisher.ticked, ["1.02", "2.5"], "a second after the state at 1.5, not 2.02")
        }
    }

    /// Paused: no tick; resumed: they go on from the resume's state.
    func testNoTickWhilePaused() throws {
        try MainActor.assumeIsolated {
            let harness = Harness(try load(Self.routine))
            let publisher = Publisher(harness)
            harness.session.start()
            harness.clock.advance(by: 0.5)
            harness.session.apply(.pause)
            XCTAssertFalse(publisher.ticks.isSet)
            harness.clock.advance(by: 10)
            XCTAssertEqual(publisher.ticked, [])
            harness.session.apply(.resume)
            XCTAssertTrue(publisher.ticks.isSet)
            harness.clock.advance(by: 1.1)
            XCTAssertEqual(publisher.ticked, ["11.5"], "2.5 s left shows 3 until 11.0, but a second after the resume's state")
        }
    }
}
