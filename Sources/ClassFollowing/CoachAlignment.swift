import IntervalEngine

/// Puts a follower's session where the coach's is: the same segment, paused or running
/// as the coach's is, and the segment ending on the coach's moment. The follower's
/// clock is the coach's (its scheduler's origin is where the coach's clock read 0), up
/// to `shift`: what a later measure of the clocks found the origin to be off by, in
/// workout seconds. Runs on the main thread, after each state the coach publishes.
public struct CoachAlignment {
    /// Differences smaller than this are left alone: a second's worth of states would
    /// otherwise nudge the timers by each state's rounding.
    public static let tolerance = 0.005
    /// A coach's next segment that starts this close to the follower's own end of the
    /// segment is the same boundary, which the follower's own timer makes.
    public static let sameBoundary = 0.25

    /// What it did, for tests and `--json`'s log.
    public enum Step: Equatable, Sendable {
        case pause, resume, next, back
        /// The segment made as long as the coach's (its `+time`).
        case add(Double)
        /// The segment's start moved, its length kept: the end and the cues move together.
        case shift(Double)
    }

    /// The commands that bring `session` to `coach`, applied; returns them.
    @discardableResult
    public static func align(_ session: Session, to coach: CoachState, shift: Double = 0) -> [Step] {
        // A boundary waiting for the coach's next generated segment goes on by itself when
        // it comes (`ClassFollower`); a step now would be kept and skip that segment.
        guard coach.joinable, let index = coach.segment, session.state == .running || session.state == .paused,
              !session.isAwaitingSegment
        else { return [] }
        var steps: [Step] = []
        func apply(_ step: Step) {
            steps.append(step)
            switch step {
            case .pause: session.apply(.pause)
            case .resume: session.apply(.resume)
            case .next: session.apply(.next)
            case .back: session.apply(.back)
            case .add(let seconds): session.apply(.add(seconds: seconds))
            case .shift(let seconds): session.shiftSegment(by: seconds)
            }
        }
        if coach.phase == .paused, session.state == .running { apply(.pause) }
        if coach.phase == .running, session.state == .paused { apply(.resume) }
        // The coach's segment began at its end less its duration: one segment ahead, on
        // the follower's own boundary, is the boundary the follower's timer is about to make.
        let ownIndex = session.segment.index
        if coach.phase == .running, ownIndex == index - 1, let deadline = coach.deadline, let duration = coach.duration {
            let coachStart = deadline - duration + shift
            if abs(session.segmentDeadline - coachStart) < sameBoundary * coach.speed,
               session.segmentDeadline > coach.t + shift - sameBoundary * coach.speed {
                return steps
            }
        }
        // A state from before a boundary the follower has made since (on its own timer, or
        // entering the coach's generated segment as it came, before the coach's next
        // state): its segment ended where the follower's began. Stepping back to it would
        // undo that boundary until the next state.
        if coach.phase == .running, ownIndex == index + 1, let deadline = coach.deadline,
           abs(session.segmentStart - (deadline + shift)) < sameBoundary * coach.speed {
            return steps
        }
        var guardCount = 0
        // Stepping past the segments the follower has leaves it waiting for the next.
        while session.segment.index != index, session.state != .finished, !session.isAwaitingSegment,
              guardCount < 2 * FollowedTimeline.mostSegments {
            guardCount += 1
            let before = session.segment.index
            apply(session.segment.index < index ? .next : .back)
            if session.segment.index == before, steps.last == .back { apply(.back) }
        }
        guard session.segment.index == index, session.state != .finished, !session.isAwaitingSegment else { return steps }
        let tolerance = Self.tolerance * max(coach.speed, 1)
        if let duration = coach.duration, abs(duration - session.segment.duration) > tolerance {
            apply(.add(duration - session.segment.duration))
        }
        let difference: Double
        if coach.phase == .paused || session.state == .paused {
            guard let left = coach.left else { return steps }
            difference = left - session.remainingInSegment
        } else {
            guard let deadline = coach.deadline else { return steps }
            difference = deadline + shift - session.segmentDeadline
        }
        if abs(difference) > tolerance { apply(.shift(difference)) }
        return steps
    }
}
