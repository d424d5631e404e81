import Foundation
import IntervalEngine
import WorkoutValues

/// A follower's session kept in step with the coach's: after each state the coach
/// publishes, `CoachAlignment` brings it to the coach's segment, pause and end of
/// segment; now and then the clocks are measured again and a drift of the coach's
/// clock against ours becomes `shift`. When the coach's workout ends (its final state,
/// or `offline`, said by it or by the broker for it) the follower ends too, with a
/// message. On the main thread, the session's.
@MainActor
public final class ClassFollower {
    public let link: CoachLink
    private let session: Session
    /// Local seconds at which the follower's clock reads 0 (its scheduler's origin).
    private let origin: Double
    private let say: (String) -> Void
    private var ending = false
    private var remeasure: DispatchSourceTimer?
    /// The latest measure's origin against the one the scheduler has, in workout seconds.
    public private(set) var shift = 0.0

    /// How often the clocks are measured again, in real seconds.
    public static let remeasureEvery = 20.0
    /// Seconds the follower waits, after the coach's end, for its own last boundary.
    public static let endGrace = 0.5

    public init(link: CoachLink, session: Session, origin: Double, say: @escaping (String) -> Void) {
        self.link = link
        self.session = session
        self.origin = origin
        self.say = say
    }

    /// From now on each change the link hears acts on the session.
    public func start() {
        link.changed = { [weak self] in self?.coachChanged() }
        coachChanged()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.link.remeasure()
                self.link.askSeveral(5)
            }
        }
        timer.schedule(deadline: .now() + Self.remeasureEvery, repeating: Self.remeasureEvery, leeway: .seconds(1))
        timer.resume()
        remeasure = timer
    }

    public func finish() {
        remeasure?.cancel()
        remeasure = nil
        link.changed = {}
    }

    private func coachChanged() {
        guard session.state != .finished, !ending else { return }
        if link.clock.count >= 3, let measured = link.clock.origin, let speed = link.clock.speed {
            // Our clock reads the coach's plus this: boundaries move by it.
            shift = (measured - origin) * speed
        }
        if link.online == false {
            return end("the coach's workout is over (\(VisibleText.escape(link.topics.availability)): offline)")
        }
        guard let state = link.state else { return }
        if state.phase == .finished {
            return end("the coach's workout ended", lastSegment: state.segment)
        }
        CoachAlignment.align(session, to: state, shift: shift)
    }

    /// Ends after a moment's grace: the follower's own last boundary, on the coach's
    /// second, makes a completed workout.
    /// `lastSegment`: the coach's, when it ended its workout; a follower there ends the
    /// same way (the coach's DONE or skip of the last segment completes it), else it quits.
    private func end(_ why: String, lastSegment: Int? = nil) {
        ending = true
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.endGrace / max(link.clock.speed ?? 1, 1)) { [self] in
            MainActor.assumeIsolated { endNow(why, lastSegment: lastSegment) }
        }
    }

    private func endNow(_ why: String, lastSegment: Int?) {
        guard session.state != .finished else { return }
        say("workout: \(why)")
        if let lastSegment, session.segment.index == lastSegment, lastSegment == session.routine.timeline.count {
            session.apply(.next)
        } else {
            session.apply(.quit)
        }
    }
}
