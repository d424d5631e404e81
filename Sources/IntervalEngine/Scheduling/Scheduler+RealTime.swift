/// Times for the listeners' own timers (a trainer's ramp, the music lowered under a cue,
/// the state published to a broker, a sensor's retry): they take the session's scheduler
/// too, so a real run keeps them on the main run loop with the session's timers and a test
/// runs them on the virtual clock, never waiting in real time. Some of those times are
/// real ones, whatever `--speed` (words take as long to say at any speed, a sensor as
/// long to answer): these turn a real delay, or a CLOCK_MONOTONIC deadline, into the
/// scheduler's workout seconds. On a virtual clock (speed 1, virtual nanoseconds) the
/// same arithmetic holds.
extension Scheduler {
    /// The scheduler's time `seconds` of real time from now (none if negative).
    public func time(afterReal seconds: Double) -> Double {
        now + max(0, seconds) * speed
    }

    /// The scheduler's time at `deadline`, nanoseconds of CLOCK_MONOTONIC (of the virtual
    /// clock's own on a virtual clock): the inverse of `deadline(for:)`, for a time a
    /// listener was handed as a deadline (`PlannedMoment.deadline`,
    /// `SessionSnapshot.deadlineNanoseconds`).
    public func time(atDeadline deadline: UInt64) -> Double {
        now + (Double(deadline) - Double(self.deadline(for: now))) / 1e9 * speed
    }

    /// Now, as a deadline: nanoseconds of CLOCK_MONOTONIC (virtual ones on a virtual clock).
    public var nowDeadline: UInt64 { deadline(for: now) }
}
