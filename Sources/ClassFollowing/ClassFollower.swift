import ClassPublishing
import Foundation
import IntervalEngine
import WorkoutValues

/// A follower's session kept in step with the coach's: after each state the coach
/// publishes, `CoachAlignment` brings it to the coach's segment, pause and end of
/// segment; now and then the clocks are measured again and a drift of the coach's
/// clock against ours becomes `shift`. When the coach's workout ends (its final state,
/// or `offline`, said by it or by the broker for it) the follower ends too, with a
/// message. A coach whose routine makes segments as it goes publishes its timeline again
/// as it makes them: each new one is read once (`GeneratedSegments`) and what it adds
/// reaches the session, which may be waiting at a boundary for it. On the main thread,
/// the session's.
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
    /// The coach's generated segments, for a routine that makes them (else nil).
    private let generated: GeneratedSegments?
    /// The link's timeline version last read (`CoachLink.timelineVersion`).
    private var timelineRead: Int
    private var warnedOfTimeline = false
    /// The rest of the coach's class could not be followed: the run's exit status is 1.
    public private(set) var failed = false

    /// How often the clocks are measured again, in real seconds.
    public static let remeasureEvery = 20.0
    /// Seconds the follower waits, after the coach's end, for its own last boundary.
    public static let endGrace = 0.5

    /// `generated` and `timelineRead`: what the routine was built from (`FollowedTimeline.Read`)
    /// and the link's timeline version then.
    public init(link: CoachLink, session: Session, origin: Double, generated: GeneratedSegments? = nil,
                timelineRead: Int = 0, say: @escaping (String) -> Void) {
        self.link = link
        self.session = session
        self.origin = origin
        self.generated = generated
        self.timelineRead = timelineRead
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
        // Before the state: the coach publishes a segment before the state that names it.
        takeGeneratedSegments()
        guard !ending else { return }
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

    /// A new timeline from a coach that generates segments: what it adds goes to the
    /// session. One that is refused changes nothing and is said once a run; the coach's
    /// own word that its timeline grew too large to publish ends the follower, in words.
    private func takeGeneratedSegments() {
        guard let generated, link.timelineVersion != timelineRead else { return }
        timelineRead = link.timelineVersion
        let source = VisibleText.escape(link.topics.timeline)
        if let problem = link.timelineProblem { return refused(VisibleText.escape(problem)) }
        guard let bytes = link.timeline else { return }
        do throws(FollowError) {
            switch try generated.take(bytes, source: source) {
            case .added(let count, let more):
                if count > 0 || !more { session.segmentsArrived() }
            case .tooLarge:
                failed = true
                end("\(source): the coach's timeline grew past what it publishes "
                    + "(\(SessionPublisher.largestTimeline / 1024 / 1024) MiB): a follower cannot follow the rest of this class, "
                    + "after segment \(generated.count)")
            }
        } catch {
            refused(error.message)
        }
    }

    private func refused(_ why: String) {
        guard !warnedOfTimeline else { return }
        warnedOfTimeline = true
        say("workout: mqtt: \(why); ignored, as later ones like it will be")
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
        // The coach's last segment is the follower's last only once the coach said no
        // more would come; a coach that quits a generating class leaves it incomplete.
        let known = generated?.count ?? session.routine.timeline.count
        if let lastSegment, session.segment.index == lastSegment, lastSegment == known, generated?.isComplete ?? true {
            session.apply(.next)
        } else {
            session.apply(.quit)
        }
    }
}
