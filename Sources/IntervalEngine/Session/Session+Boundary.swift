import WorkoutValues

/// Carrying out the machine's transitions, and the current segment's timers. The order at
/// a boundary is the machine's (`SessionMachine+Boundary.swift`): `segment_end` → the old
/// segment's `on_end` → `on_segment_end` → the new segment's timers (each announced to the
/// listeners as planned) → `segment_start` → its `on_start` → `on_segment_start` → alerts
/// (sound, bell, flash, notification, voice).
extension Session {
    /// Carries out what an input of the machine returned, in order. `planned`: the moment
    /// whose timer caused the input, which announced the alerts it gives (a boundary's, a
    /// text cue's). A list made while the session was under way stops where it finished
    /// (a hook's or a listener's `quit`, or no segment left to enter): what followed was
    /// the course of a session that is over. A finish's own list runs to its end.
    func carryOut(_ actions: [SessionMachine.Action], planned: PlannedMoment? = nil) {
        let finishing = state == .finished
        for action in actions {
            guard finishing || state != .finished else { return }
            switch action {
            case .cancelTimers: cancelTimers()
            case .scheduleTimers: if machine.clockRuns { scheduleTimers() }
            case .emit(let emission): emitEvent(emission)
            case .alert(let moment): giveAlerts(of: moment, planned: planned)
            case .callHook(let hook): call(hook)
            case .recordEnd(let time, let skipped, let cause): recordEnd(of: segment, at: time, skipped: skipped, by: cause)
            case .forgetOpenRecord(let index): openRecords.removeAll { $0.index == index }
            case .enterSegment(let entry):
                // No segment yet (a follower's feed): the rest of the list waits for it.
                guard enterSegment(entry, planned: planned) else { return }
            case .begin: begin()
            case .summarize(let completed, let time, let paused):
                summary = summarySoFar(completed: completed, at: time, paused: paused)
            case .keepFinalScores: summary?.scores = scores
            case .release:
                routine.code.actions = nil
                routine.release()
            case .endBoundary: endBoundary()
            }
        }
    }

    /// Enters the segment the entry names when there is one (asked of a generator when
    /// none is known yet, after the old segment's hooks, so it sees what they changed), or
    /// finishes. A dry run stopped at the horizon did not see the end of the workout: not
    /// completed. False when the generator has nothing yet (a follower's feed): the
    /// boundary waits, between segments, for `segmentsArrived`.
    private func enterSegment(_ entry: SessionMachine.Entry, planned: PlannedMoment?) -> Bool {
        let position: Int
        let time: Double
        switch entry {
        case .first: (position, time) = (0, startedAt)
        case .next(let at): (position, time) = (segment.index, at)
        case .position(let index, let at): (position, time) = (index, at)
        }
        if position >= timeline.count {
            switch pullSegment(at: time) {
            case .added:
                break
            case .none:
                carryOut(machine.finish(completed: !timeline.reachedHorizon, at: time), planned: planned)
                return true
            case .waiting:
                awaiting = AwaitedSegment(entry: entry, planned: planned, fire: currentFire)
                return false
            }
        }
        // Hooks may have changed a payload since it was last shown.
        infoCache = []
        machine.enter(timeline.segments[position], at: time)
        distance.restart()
        return true
    }

    /// Leaves the boundary and applies what its hooks asked for, each as the input it is:
    /// a pause at once, a skip or a done through the scheduler.
    private func endBoundary() {
        for kept in machine.leaveBoundary() {
            switch kept {
            case .pause: pause()
            case .skip(let cause): plan(nil, at: now) { session, _, _ in session.skip(by: cause) }
            case .done: plan(nil, at: now) { session, _, _ in session.markDone(by: .hook) }
            }
        }
    }

    /// Emits what the machine says of the current segment.
    private func emitEvent(_ emission: SessionMachine.Emission) {
        switch emission {
        case .workoutStart: emitWorkoutStart()
        case .workoutEnd: if let summary { emit(.workoutEnd(summary)) }
        case .pause: emit(.pause(index: segment.index, remaining: remainingInSegment))
        case .resume: emit(.resume(index: segment.index, remaining: remainingInSegment))
        case .segmentStart:
            let info = options.payloadsInEvents ? routine.infoJSON(for: segment) : .null
            emit(.segmentStart(SegmentSummary(segment, count: segmentCount), info: info))
        case .segmentEnd(let skipped, let cause):
            emit(.segmentEnd(index: segment.index, name: segment.name, kind: segment.kind, skipped: skipped, by: cause))
        case .cue(let position, let offset):
            emit(.cue(index: segment.index, offset: offset, text: segment.cues[position].text))
        case .tally(let name, let value, let add): emit(Event.Kind.tally(name: name, value: value, add: add))
        case .lap(let number, let split): emit(.lap(index: segment.index, number: number, split: split))
        }
    }

    /// Gives a moment's alerts: those its timer announced when it did, else the policy's.
    private func giveAlerts(of moment: SessionMachine.AlertMoment, planned: PlannedMoment?) {
        switch moment {
        case .pause: give(alertPolicy.alerts(for: .pause))
        case .resume: give(alertPolicy.alerts(for: .resume))
        case .segmentStart:
            if let planned, case .boundary(let next?, _) = planned.kind, next.index == segment.index,
               let alerts = planned.alerts {
                give(alerts, moment: planned.id)
            } else {
                give(alertPolicy.alerts(for: .segmentStart(segment, next: nextSegment)))
            }
        case .cue: give(planned?.alerts ?? [], moment: planned?.id)
        case .finish:
            if let planned, case .boundary(_, last: true) = planned.kind, let alerts = planned.alerts {
                give(alerts, moment: planned.id)
            } else {
                give(alertPolicy.alerts(for: .finish))
            }
        case .summary:
            guard let summary else { return }
            give(alertPolicy.alerts(for: .summary(title: "\(routine.name) done", body: SummaryText.notification(summary))))
        }
    }

    /// Asks an open-ended routine for its next segment, after the old segment's hooks
    /// (so a generator sees what they changed); false when the workout has no more. A
    /// generator that fails is reported like a hook and ends; the steps after it follow.
    func pullSegment(at time: Double) -> Timeline.Pulled {
        let elapsed = time - startedAt - pausedSeconds
        let pulled = routine.pullSegment(elapsed: elapsed) { error in
            emit(.error(message: error.message, hook: "generate", traceback: error.traceback))
        }
        machine.tally.grow(to: timeline.count)
        return pulled
    }

    /// How the workout stands, as it would be summed up if it ended at `time`.
    func summarySoFar(completed: Bool, at time: Double, paused: Double) -> Summary {
        let elapsed = Number.rounded(time - startedAt, places: 6)
        return Summary(completed: completed, segmentsDone: tally.done, segmentsSkipped: tally.skipped,
                       segments: timeline.isOpenEnded ? tally.reached : timeline.count, elapsed: elapsed,
                       active: Number.rounded(max(0, elapsed - paused), places: 6),
                       workSeconds: Number.rounded(workSeconds, places: 6), speed: scheduler.speed, scores: scores,
                       open: openRecords)
    }

    /// The segment after the current one, when it is known.
    var nextSegment: Segment? {
        segment.index < timeline.count ? timeline.segments[segment.index] : nil
    }

    /// Schedules one of the segment's timers and, when it is a moment a listener may
    /// want to hear of ahead (`kind`), announces it with the alerts it will make
    /// (`alerts`, nil where they cannot be known yet). The timer forgets itself when it
    /// fires and hands its action the moment it was announced as; `cancelTimers`
    /// withdraws those still to come.
    ///
    /// Every timer fires `scheduler.runAhead` before its moment (40 ms in a real run, none
    /// on a virtual clock), and from then on the session's clock reads the moment: the
    /// hooks, the events and their times are the moment's, and a sound a hook plays is
    /// known ahead of it, so the player places it on the moment as it does a planned one.
    /// All of a segment's timers move together, so their order is kept.
    func plan(_ kind: PlannedMoment.Kind?, alerts: [AlertPolicy.Alert]? = nil, at time: Double,
              _ action: @escaping (Session, Fire, PlannedMoment?) -> Void) {
        let scheduled = ScheduledToken()
        let token = scheduler.schedule(at: time - scheduler.runAhead) { [weak self] early in
            guard let self else { return }
            let fire = Fire(at: max(early.at, time), lateMs: early.lateMs)
            self.ranAheadTo = max(self.ranAheadTo, fire.at)
            self.firing(fire) {
                action(self, fire, self.forgetTimer(scheduled.token))
            }
        }
        scheduled.token = token
        var moment: PlannedMoment?
        if let kind {
            moment = PlannedMoment(id: token.id, kind: kind, index: segment.index, at: time - startedAt,
                                   deadline: scheduler.deadline(for: time), alerts: alerts)
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
    /// announced to the listeners, with its alerts, before it comes. An open segment has
    /// an end timer (and a countdown) only at its cap; in a dry run, a stand-in athlete
    /// marks it done when it was expected to take.
    func scheduleTimers() {
        let start = segmentStart
        let duration = segment.duration
        let following = nextSegment
        let last = following == nil && timeline.isComplete
        let hasEnd = segment.open.map { $0.cap != nil } ?? true
        if hasEnd {
            // What the boundary will make: the next segment's start, or the finish; not
            // known for an open-ended workout whose next segment is not made yet.
            let boundaryAlerts = following.map {
                alertPolicy.alerts(for: .segmentStart($0, next: $0.index < timeline.count ? timeline.segments[$0.index] : nil))
            } ?? (last ? alertPolicy.alerts(for: .finish) : nil)
            plan(.boundary(next: following.map { SegmentSummary($0, count: segmentCount) }, last: last),
                 alerts: boundaryAlerts, at: start + duration) { session, fire, moment in
                session.carryOut(session.machine.endTimerFired(at: fire.at), planned: moment)
            }
        }
        if options.standInAthlete, let open = segment.open, open.expect < duration, start + open.expect > now {
            plan(nil, at: start + open.expect) { session, _, _ in session.markDone(by: .athlete) }
        }
        for (position, cue) in segment.cues.enumerated() where !machine.firedCues.contains(position) {
            guard let offset = cue.offset(in: duration) else { continue }
            var alerts: [AlertPolicy.Alert] = []
            if case .text(let text) = cue.action { alerts = alertPolicy.alerts(for: .textCue(text)) }
            plan(.cue(offset: offset, text: cue.text), alerts: alerts, at: start + offset) { session, _, moment in
                session.carryOut(session.machine.cueFired(position, offset: offset), planned: moment)
            }
        }
        guard hasEnd else { return }
        let now = self.now
        if let offset = announcementOffset, start + offset > now, let following {
            let alerts = alertPolicy.alerts(for: .announcement("Next: \(following.name)"))
            if !alerts.isEmpty {
                plan(.announcement(text: "Next: \(following.name)"), alerts: alerts, at: start + offset) { session, _, moment in
                    session.give(alerts, moment: moment?.id)
                }
            }
        }
        guard alertPolicy.countdownAlerts, routine.countdown > 0 else { return }
        for second in stride(from: Int(routine.countdown), through: 1, by: -1) {
            let offset = duration - Double(second)
            guard offset > 0, start + offset > now else { continue }
            let alerts = alertPolicy.alerts(for: .countdown(second: second))
            plan(.countdown(second: second), alerts: alerts, at: start + offset) { session, _, moment in
                session.give(alerts, moment: moment?.id)
            }
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

    /// Gives alerts as events, in order; `moment`: the planned moment that announced
    /// them, which the sound and spoken ones name (a player has written them ahead).
    func give(_ alerts: [AlertPolicy.Alert], moment: UInt64? = nil) {
        for alert in alerts {
            emit(alert.event(moment: moment))
        }
    }

    /// An alert the routine asked for (`bell()`, `flash()`, `sound()`, `notify()`, `say()`).
    func giveRoutine(_ alert: AlertPolicy.Alert) {
        give(alertPolicy.alerts(for: .routine(alert)))
    }
}
