// A release build compiles every target, this one too, and has no XCTest: there the
// module is empty.
#if canImport(XCTest)
import Foundation
import IntervalEngine
import LuaBridge
import WorkoutValues
import XCTest

// Loading routines and running sessions on the virtual clock, for the unit tests and the
// system tests that drive a session in-process (the TestSupport target, which both import).

package func load(_ source: String, limits: LuaLimits = LuaLimits(),
          file: StaticString = #filePath, line: UInt = #line) throws -> Routine {
    do {
        return try RoutineLoader.load(source: source, fileName: "test.lua", limits: limits)
    } catch {
        XCTFail("did not load: \(error.message)", file: file, line: line)
        throw error
    }
}

package func loadError(_ source: String) -> String? {
    do {
        _ = try RoutineLoader.load(source: source, fileName: "test.lua")
        return nil
    } catch {
        return error.message
    }
}

/// A session on a virtual clock that records its events.
package final class Harness {
    package let clock = VirtualClock()
    package let session: Session
    package private(set) var events: [Event] = []

    package init(_ routine: Routine, options: SessionOptions = SessionOptions(bell: false)) {
        clock.stepLimit = Harness.stepLimit
        session = Session(routine: routine, scheduler: clock, options: options)
        session.subscribe { [unowned self] in self.events.append($0) }
    }

    /// More timers than any test's workout has: a session that plans without end fails
    /// the test instead of hanging it.
    package static let stepLimit = 2_000_000

    /// A session that finished must leave nothing scheduled: a timer left behind would be
    /// a leak in a real run. Checked when the test lets go of its harness.
    deinit {
        if session.state == .finished, clock.pendingCount > 0 {
            XCTFail("the finished session left \(clock.pendingCount) timers scheduled")
        }
        if clock.reachedStepLimit {
            XCTFail("the virtual clock ran \(clock.steps) timers without the workout ending")
        }
    }

    package convenience init(_ source: String, options: SessionOptions = SessionOptions(bell: false)) throws {
        self.init(try load(source), options: options)
    }

    /// Starts and runs to the end.
    @discardableResult
    package func run() -> [String] {
        session.start()
        clock.run()
        return trace
    }

    /// The events as short lines: `5 segment_start 2 Rest`.
    package var trace: [String] { events.map(Harness.describe) }

    package static func describe(_ event: Event) -> String {
        let time = Number.format(Number.rounded(event.t, places: 6))
        switch event.kind {
        case let .workoutStart(name, segments, _, _, _):
            return "\(time) workout_start \(name) \(segments.map(String.init) ?? "open-ended")"
        case let .segmentStart(segment, _): return "\(time) segment_start \(segment.index) \(segment.name)"
        case let .cue(index, offset, text): return "\(time) cue \(index)@\(Number.format(offset))" + (text.map { " \($0)" } ?? "")
        case let .segmentEnd(index, _, _, skipped, by):
            return "\(time) segment_end \(index)" + (skipped ? " skipped" : by == .timer ? "" : " by \(by.rawValue)")
        case let .alert(type, text, _): return "\(time) \(type.rawValue)" + (text.isEmpty ? "" : " \(text)")
        case let .log(text): return "\(time) log \(text)"
        case let .score(score): return "\(time) score \(score.name) \(score.valueText) \(score.better)"
        case let .tally(name, value, _): return "\(time) tally \(name) \(value)"
        case let .lap(index, number, split): return "\(time) lap \(index) \(number) \(Number.format(split))"
        case let .sample(sample): return "\(time) sample \(sample.sensor)"
        case let .erg(watts): return "\(time) erg \(watts)"
        case let .treadmill(kmh): return "\(time) treadmill \(Number.format(kmh))"
        case let .pause(index, remaining): return "\(time) pause \(index) \(Number.format(remaining))"
        case let .resume(index, remaining): return "\(time) resume \(index) \(Number.format(remaining))"
        case let .suspend(index, missed): return "\(time) suspend \(index) \(Number.format(missed))"
        case let .error(_, hook, _): return "\(time) error \(hook)"
        case let .workoutEnd(summary): return "\(time) workout_end \(summary.completed) \(Number.format(summary.elapsed)) \(summary.segmentsDone)"
        }
    }
}
#endif
