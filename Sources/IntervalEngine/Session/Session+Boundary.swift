/// Boundaries and the current segment's timers. At a boundary the order is:
/// `segment_end` → the old segment's `on_end` → `on_segment_end` → the new segment's
/// timers (each announced to the listeners as planned) → `segment_start` → its `on_start`
/// → `on_segment_start` → alerts (sound, bell, flash, notification, voice).
extension Session {
    func startSegment(_ position: Int, at time: Double) {
        segment = timeline.segments[position]
        segmentsReached = max(segmentsReached, segment.index)
        segmentStart = time
        if state == .paused { pausedAt = time }
        firedCues = []
        // Hooks may have changed a payload since it was last shown.
        infoCache = []
        segmentHasEnded = false
        inBoundary = true
        if state == .running { scheduleTimers() }
        let info = options.payloadsInEvents ? routine.infoJSON(for: segment) : .null
        emit(.segmentStart(SegmentSummary(segment, count: segmentCount), info: info))
        callSegmentHook(segment.onStart, "on_start")
        callSegmentHook(routine.hooks.onSegmentStart, "on_segment_start")
        guard state != .finished else { return }
        if options.sound, let sound = routine.sounds.start(of: segment.kind) { play(sound) }
        if options.bell { ring(nil) }
        if options.flash { flash() }
        if options.notify { sendNotification(title: segment.name, body: SummaryText.segment(segment, next: nextSegment)) }
        if options.voice { speak(segment.name) }
        endBoundary()
    }

    /// Applies the control actions that hooks asked for during the boundary.
    private func endBoundary() {
        inBoundary = false
        if pendingPause {
            pendingPause = false
            pause()
        }
        if pendingSkip {
            pendingSkip = false
            // Through the scheduler, not recursion: a hook that skips every segment
            // must not grow the stack by a boundary per segment.
            plan(nil, at: scheduler.now) { session, _ in session.skip() }
        }
    }

    func endSegment(at time: Double, skipped: Bool) {
        cancelTimers()
        inBoundary = true
        segmentHasEnded = true
        segmentsDone += 1
        if skipped { segmentsSkipped += 1 }
        outcomes[segment.index - 1] = skipped ? .skipped : .done
        countWork(until: time)
        emit(.segmentEnd(index: segment.index, name: segment.name, kind: segment.kind, skipped: skipped))
        callSegmentHook(segment.onEnd, "on_end")
        callSegmentHook(routine.hooks.onSegmentEnd, "on_segment_end")
        guard state != .finished else { return }
        if segment.index < timeline.count || pullSegment(at: time) {
            startSegment(segment.index, at: time)
        } else {
            // A dry run stopped at the horizon did not see the end of the workout.
            finish(completed: !timeline.reachedHorizon, at: time)
        }
    }

    /// Asks an open-ended routine for its next segment, after the old segment's hooks
    /// (so a generator sees what they changed); false when the workout has no more. A
    /// generator that fails is reported like a hook and ends; the steps after it follow.
    func pullSegment(at time: Double) -> Bool {
        let elapsed = time - startedAt - pausedSeconds
        let pulled = routine.timeline.pull(routine.lua, elapsed: elapsed) { error in
            emit(.error(message: error.message, hook: "generate", traceback: error.traceback))
        }
        if outcomes.count < timeline.count {
            outcomes += Array(repeating: .pending, count: timeline.count - outcomes.count)
        }
        return pulled
    }

    /// Adds the current segment's work done by `time` to the work total.
    func countWork(until time: Double) {
        guard segment.kind == "work" else { return }
        workSeconds += min(max(0, time - segmentStart), segment.duration)
    }

    /// Forgets how the segment at `position` ended: the user went back to redo it.
    func uncount(_ position: Int) {
        switch outcomes[position] {
        case .pending: return
        case .done: segmentsDone -= 1
        case .skipped: segmentsDone -= 1; segmentsSkipped -= 1
        }
        outcomes[position] = .pending
    }

    func finish(completed: Bool, at time: Double) {
        let paused = pausedSeconds + (state == .paused ? max(0, time - pausedAt) : 0)
        cancelTimers()
        state = .finished
        inBoundary = true
        if completed && options.sound, let chime = routine.sounds.finish { play(chime) }
        if completed && options.bell { ring(nil) }
        var summary = summarySoFar(completed: completed, at: time, paused: paused)
        self.summary = summary
        callHook(routine.hooks.onFinish, "on_finish") { [summary] lua in lua.pushSummary(summary) }
        // `on_finish` may record the session's final scores.
        summary.scores = scores
        self.summary = summary
        if completed && options.notify {
            sendNotification(title: "\(routine.name) done", body: SummaryText.notification(summary), urgency: .critical)
        }
        emit(.workoutEnd(summary))
        routine.lua.actions = nil
        routine.release()
    }

    /// How the workout stands, as it would be summed up if it ended at `time`.
    func summarySoFar(completed: Bool, at time: Double, paused: Double) -> Summary {
        let elapsed = Number.rounded(time - startedAt, places: 6)
        return Summary(completed: completed, segmentsDone: segmentsDone, segmentsSkipped: segmentsSkipped,
                       segments: timeline.isOpenEnded ? segmentsReached : timeline.count, elapsed: elapsed,
                       active: Number.rounded(max(0, elapsed - paused), places: 6),
                       workSeconds: Number.rounded(workSeconds, places: 6), speed: scheduler.speed, scores: scores)
    }

    /// The segment after the current one, when it is known.
    var nextSegment: Segment? {
        segment.index < timeline.count ? timeline.segments[segment.index] : nil
    }

    /// Schedules one of the segment's timers and, when it is a moment a listener may
    /// want to hear of ahead (`kind`), announces it. The timer forgets itself when it
    /// fires; `cancelTimers` withdraws those still to come.
    func plan(_ kind: PlannedMoment.Kind?, sound: Sound? = nil, at time: Double,
              _ action: @escaping (Session, Fire) -> Void) {
        let scheduled = ScheduledToken()
        let token = scheduler.schedule(at: time) { [weak self] fire in
            guard let self else { return }
            self.firing(fire) {
                let outer = self.currentMoment
                self.currentMoment = self.forgetTimer(scheduled.token)
                action(self, fire)
                self.currentMoment = outer
            }
        }
        scheduled.token = token
        var moment: PlannedMoment?
        if let kind {
            moment = PlannedMoment(id: token.id, kind: kind, index: segment.index, at: time - startedAt,
                                   deadline: scheduler.deadline(for: time), sound: sound)
        }
        timers.append((token, moment))
        if let moment {
            for listener in listeners { listener.planned(moment) }
        }
    }

    /// A timer's own token, for its action to find (it exists only once scheduled).
    private final class ScheduledToken {
        var token: TimerToken?
    }

    /// Drops a fired timer from the list; the moment it was announced as, if any.
    private func forgetTimer(_ token: TimerToken?) -> PlannedMoment? {
        guard let token, let position = timers.firstIndex(where: { $0.token == token }) else { return nil }
        return timers.remove(at: position).moment
    }

    /// The end timer, the cues not yet fired and the countdown seconds still ahead, each
    /// announced to the listeners before it comes.
    func scheduleTimers() {
        let start = segmentStart
        let duration = segment.duration
        let following = nextSegment
        let last = following == nil && timeline.isComplete
        plan(.boundary(next: following.map { SegmentSummary($0, count: segmentCount) }, last: last),
             sound: boundarySound(next: following, last: last), at: start + duration) { session, fire in
            session.endSegment(at: fire.at, skipped: false)
        }
        for (position, cue) in segment.cues.enumerated() where !firedCues.contains(position) {
            guard let offset = cue.offset(in: duration) else { continue }
            plan(.cue(offset: offset, text: cue.text), at: start + offset) { session, _ in
                session.fireCue(position, offset: offset)
            }
        }
        let now = scheduler.now
        if options.voice, let offset = announcementOffset, start + offset > now, let following {
            let text = "Next: \(following.name)"
            plan(.announcement(text: text), at: start + offset) { session, _ in session.speak(text) }
        }
        guard options.alerts.countdown, routine.countdown > 0 else { return }
        for second in stride(from: Int(routine.countdown), through: 1, by: -1) {
            let offset = duration - Double(second)
            guard offset > 0, start + offset > now else { continue }
            plan(.countdown(second: second), sound: options.sound ? routine.sounds.countdown : nil,
                 at: start + offset) { session, _ in session.countdown(second) }
        }
    }

    /// Cancels the timers still to come and withdraws the moments they were announced as.
    func cancelTimers() {
        let pending = timers
        timers.removeAll(keepingCapacity: true)
        for (token, moment) in pending {
            scheduler.cancel(token)
            guard let moment else { continue }
            for listener in listeners { listener.withdrawn(moment) }
        }
    }

    func fireCue(_ position: Int, offset: Double) {
        firedCues.insert(position)
        let cue = segment.cues[position]
        emit(.cue(index: segment.index, offset: offset, text: cue.text))
        switch cue.action {
        case .text(let text):
            if options.voice { speak(text) }
        case .function(let function):
            inBoundary = true
            callSegmentHook(function, "cue")
            endBoundary()
        }
    }

    /// With `--voice`, the next segment's name is spoken this long before the countdown,
    /// so "Next: Rest" and "3, 2, 1" do not talk over each other.
    static let announcementLead = 2.0

    /// When in the current segment to say what comes next: nil for the last segment and
    /// for segments too short to fit it before the countdown.
    private var announcementOffset: Double? {
        guard segment.index < timeline.count else { return nil }
        let offset = segment.duration - max(routine.countdown, 0) - Session.announcementLead
        return offset >= Session.announcementLead ? offset : nil
    }

    /// What the end of the current segment will sound like, when that is known: the
    /// next segment's start sound, or the chime when the workout ends there (an
    /// open-ended workout's next segment is not known until it is made).
    private func boundarySound(next: Segment?, last: Bool) -> Sound? {
        guard options.sound else { return nil }
        if let next { return routine.sounds.start(of: next.kind) }
        return last ? routine.sounds.finish : nil
    }

    func countdown(_ second: Int) {
        if options.sound, let pip = routine.sounds.countdown { play(pip) }
        if options.bell { ring(String(second)) }
        if options.flash { flash(String(second)) }
        if options.voice { speak(String(second)) }
    }

    /// Alerts are events; `AlertListener` makes heard those the switches allow.
    func ring(_ text: String?) {
        emit(.alert(.bell, text: text ?? "", nil))
    }

    /// The visual bell, for the live display (a countdown second's text is the seconds left).
    func flash(_ text: String? = nil) {
        emit(.alert(.flash, text: text ?? "", nil))
    }

    func sendNotification(title: String, body: String?, urgency: Urgency = .normal) {
        emit(.alert(.notify, text: body.map { "\(title): \($0)" } ?? title,
                    .notification(Notification(title: title, body: body ?? "", urgency: urgency))))
    }

    /// A sound alert. When the timer firing now announced this very sound, the event
    /// names that moment: a player that heard of it ahead has already written it.
    func play(_ sound: Sound) {
        let moment = currentMoment.flatMap { $0.sound == sound ? $0.id : nil }
        emit(.alert(.sound, text: sound.name, .sound(SoundAlert(sound: sound, moment: moment))))
    }

    /// Words to say. When a timer firing now announced a moment, the event names it: a
    /// player that rendered the moment's words ahead has already written them.
    func speak(_ text: String) {
        emit(.alert(.say, text: text, currentMoment.map { .spoken(moment: $0.id) }))
    }
}
