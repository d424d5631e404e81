/// Boundaries and the current segment's timers. At a boundary (SPEC §2) the order is:
/// `segment_end` → the old segment's `on_end` → `on_segment_end` → the new segment's
/// timers → `segment_start` → its `on_start` → `on_segment_start` → alerts.
extension Session {
    func startSegment(_ position: Int, at time: Double) {
        segment = timeline.segments[position]
        segmentsReached = max(segmentsReached, segment.index)
        segmentStart = time
        if state == .paused { pausedAt = time }
        firedCues = []
        segmentHasEnded = false
        inBoundary = true
        if state == .running { scheduleTimers() }
        let info = options.payloadsInEvents ? routine.infoJSON(for: segment) : .null
        emit(.segmentStart(SegmentSummary(segment, count: segmentCount), info: info))
        callSegmentHook(segment.onStart, "on_start")
        callSegmentHook(routine.hooks.onSegmentStart, "on_segment_start")
        guard state != .finished else { return }
        if options.bell { ring(nil) }
        if options.notify {
            let title = segment.name
            sendNotification(title: title, body: notificationBody())
        }
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
            timers.append(scheduler.schedule(at: scheduler.now) { [weak self] fire in
                guard let self else { return }
                self.firing(fire) { self.skip() }
            })
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
        cancelTimers()
        state = .finished
        inBoundary = true
        if completed && options.bell { ring(nil) }
        let summary = Summary(
            completed: completed, segmentsDone: segmentsDone, segmentsSkipped: segmentsSkipped,
            segments: timeline.isOpenEnded ? segmentsReached : timeline.count, elapsed: Number.rounded(time - startedAt, places: 6),
            workSeconds: Number.rounded(workSeconds, places: 6), speed: scheduler.speed, scores: scores)
        self.summary = summary
        callHook(routine.hooks.onFinish, "on_finish") { lua in lua.pushSummary(summary) }
        // `on_finish` may record the session's final scores.
        self.summary?.scores = scores
        if completed && options.notify {
            sendNotification(title: "\(routine.name) done", body: finishBody(summary), urgency: .critical)
        }
        emit(.workoutEnd(completed: completed, elapsed: summary.elapsed, segmentsDone: segmentsDone))
        routine.lua.actions = nil
        routine.release()
        onFinish?(self.summary ?? summary)
    }

    /// The end timer, the cues not yet fired and the countdown bells still ahead.
    func scheduleTimers() {
        let start = segmentStart
        let duration = segment.duration
        timers.append(scheduler.schedule(at: start + duration) { [weak self] fire in
            guard let self else { return }
            self.firing(fire) { self.endSegment(at: fire.at, skipped: false) }
        })
        for (position, cue) in segment.cues.enumerated() where !firedCues.contains(position) {
            guard let offset = cue.offset(in: duration) else { continue }
            timers.append(scheduler.schedule(at: start + offset) { [weak self] fire in
                guard let self else { return }
                self.firing(fire) { self.fireCue(position, offset: offset) }
            })
        }
        let now = scheduler.now
        if options.voice, let offset = announcementOffset, start + offset > now {
            timers.append(scheduler.schedule(at: start + offset) { [weak self] fire in
                guard let self else { return }
                self.firing(fire) { self.announceNext() }
            })
        }
        guard options.bell || options.voice, routine.countdown > 0 else { return }
        for second in stride(from: Int(routine.countdown), through: 1, by: -1) {
            let offset = duration - Double(second)
            guard offset > 0, start + offset > now else { continue }
            timers.append(scheduler.schedule(at: start + offset) { [weak self] fire in
                guard let self else { return }
                self.firing(fire) { self.countdown(second) }
            })
        }
    }

    func cancelTimers() {
        for token in timers {
            scheduler.cancel(token)
        }
        timers.removeAll(keepingCapacity: true)
    }

    private func fireCue(_ position: Int, offset: Double) {
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

    private func announceNext() {
        speak("Next: \(timeline.segments[segment.index].name)")
    }

    private func countdown(_ second: Int) {
        if options.bell { ring(String(second)) }
        if options.voice { speak(String(second)) }
    }

    /// `work · 0:20 · round 2/8 · next: Rest`
    private func notificationBody() -> String {
        var parts = [segment.kind, TimeText.clock(segment.duration)]
        if let round = segment.round, let rounds = segment.rounds {
            parts.append("round \(round)/\(rounds)")
        }
        if segment.index < timeline.count {
            parts.append("next: \(timeline.segments[segment.index].name)")
        }
        return parts.joined(separator: " · ")
    }

    /// `24:00 · 20/20 segments · 12:00 of work`
    private func finishBody(_ summary: Summary) -> String {
        "\(TimeText.clock(summary.elapsed)) · \(summary.segmentsDone)/\(summary.segments) segments · "
            + "\(TimeText.clock(summary.workSeconds)) of work"
    }

    func ring(_ text: String?) {
        emit(.alert(.bell, text: text ?? ""))
        if options.bell { alerts.bell() }
    }

    func sendNotification(title: String, body: String?, urgency: Urgency = .normal) {
        emit(.alert(.notify, text: body.map { "\(title): \($0)" } ?? title))
        alerts.notify(title: title, body: body ?? "", urgency: urgency)
    }

    func speak(_ text: String) {
        emit(.alert(.say, text: text))
        alerts.say(text)
    }
}
