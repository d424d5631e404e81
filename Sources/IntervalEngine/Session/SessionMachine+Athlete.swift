import WorkoutValues

/// The athlete's commands as inputs (a key, the page, `POST /control`, a signal, or a hook
/// through `SessionCommand`): next, back, ±time, done, a tally, a lap, quit, and a
/// follower's shift onto the coach's clock. Pause and resume are in `SessionMachine.swift`.
extension SessionMachine {
    /// Ends the current segment at `now`, marked skipped. While paused, the next segment
    /// starts paused. In a boundary it waits for the boundary's end.
    mutating func skip(by cause: SegmentEndCause, at now: Double) -> [Action] {
        guard isUnderWay else { return [] }
        if var boundary = phase.boundary {
            boundary.skip = cause
            phase.boundary = boundary
            return []
        }
        return endSegment(at: endingTime(at: now), skipped: true, by: cause)
    }

    /// Starts the current segment again from its beginning, or the previous segment when
    /// the current one is less than `grace` seconds old: a fresh start with its hooks and
    /// alerts; the abandoned attempt has no end, and a segment gone back over no longer
    /// counts as done. While paused, it stays paused; in a boundary, nothing.
    mutating func back(at now: Double, grace: Double) -> [Action] {
        guard isUnderWay, phase.boundary == nil else { return [] }
        let time = phase.pausedSince ?? now
        var position = segment.index - 1
        var actions: [Action] = []
        if elapsedInSegment(at: now) < grace && position > 0 {
            position -= 1
            tally.forget(position)
            actions.append(.forgetOpenRecord(index: position + 1))
        }
        countWork(until: time)
        return actions + [.cancelTimers] + Self.entering(.position(position, at: time))
    }

    /// Lengthens the current segment by `seconds` (or shortens it, when negative; a cut of
    /// all that is left ends it now, skipped, as `next` does, and nothing more). An open
    /// segment without a cap has no end to move; between segments there is none.
    mutating func extend(by seconds: Double, at now: Double) -> [Action] {
        guard isUnderWay, phase.boundary?.betweenSegments != true else { return [] }
        if let open = segment.open, open.cap == nil { return [] }
        guard segment.duration + seconds > elapsedInSegment(at: now) else { return skip(by: .athlete, at: now) }
        segment.duration = min(segment.duration + seconds, Duration.maximum)
        return phase.state == .running ? [.cancelTimers, .scheduleTimers] : []
    }

    /// Moves the current segment's start by `seconds` (positive: later) and keeps its
    /// length, so that its end and its cues move together. Nothing in a boundary.
    mutating func shiftSegment(by seconds: Double) -> [Action] {
        guard isUnderWay, phase.boundary == nil, seconds.isFinite else { return [] }
        segmentStart += seconds
        return phase.state == .running ? [.cancelTimers, .scheduleTimers] : []
    }

    /// Ends the current segment, done, if it is open. In a boundary inside the segment
    /// it waits for the boundary's end. The athlete's `done` within `Session.doneGrace` of
    /// the segment's start is a second press of the one before, and does nothing.
    mutating func markDone(by cause: SegmentEndCause, at now: Double) -> [Action] {
        guard isUnderWay, segment.open != nil else { return [] }
        if var boundary = phase.boundary {
            guard !boundary.betweenSegments else { return [] }
            boundary.done = true
            phase.boundary = boundary
            return []
        }
        if cause == .athlete && elapsedInSegment(at: now) < Session.doneGrace { return [] }
        return endSegment(at: endingTime(at: now), skipped: false, by: cause)
    }

    /// Counts `add` more on the tally `name` (never below 0). A name or step out of
    /// bounds, or a new name past `Score.mostNames`, is ignored: it comes from outside.
    mutating func count(_ name: String, add: Int) -> [Action] {
        guard isUnderWay, Session.isTallyName(name), abs(add) <= Session.largestTallyStep else { return [] }
        let value: Int
        if let position = tallies.firstIndex(where: { $0.name == name }) {
            value = max(0, tallies[position].value + add)
            tallies[position].value = value
        } else {
            guard tallies.count < Score.mostNames else { return [] }
            value = max(0, add)
            tallies.append(TallyCount(name: name, value: value))
        }
        return [.emit(.tally(name: name, value: value, add: add)), .callHook(.tally(name: name, value: value))]
    }

    /// What the tally `name` has counted (0 before its first count).
    func tallyValue(_ name: String) -> Int {
        tallies.first { $0.name == name }?.value ?? 0
    }

    /// Records a lap split at `now`: seconds since the segment's previous lap or its
    /// start, pauses excluded. None before the first segment, and none of no time.
    mutating func lap(at now: Double) -> [Action] {
        guard isUnderWay, segment.index > 0 else { return [] }
        let split = elapsedInSegment(at: now) - laps.reduce(0, +)
        guard split > 0 else { return [] }
        laps.append(split)
        return [.emit(.lap(number: laps.count, split: split)), .callHook(.lap(split: split))]
    }

    /// Quits at `now`: the workout ends, not completed; the work done in the segment under
    /// way counts, as it would had the segment ended.
    mutating func stop(at now: Double) -> [Action] {
        guard isUnderWay else { return [] }
        let time = phase.pausedSince ?? now
        if phase.boundary?.betweenSegments != true { countWork(until: time) }
        return finish(completed: false, at: time)
    }
}
