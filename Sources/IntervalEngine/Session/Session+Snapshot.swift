import WorkoutValues

extension Session {
    /// The workout as it stands now.
    public func snapshot() -> SessionSnapshot {
        // One reading of the clock for every time in it: "time done" and the segment's
        // clock are shown rounded, and two readings a few microseconds apart could round
        // to different seconds.
        let now = self.now
        let started = state != .ready && segment.index > 0
        let elapsed = started ? elapsedInSegment(at: now) : 0
        let remaining = started ? segment.duration - elapsed : 0
        var current: SessionSnapshot.Part?
        var next: SessionSnapshot.Part?
        var done = 0.0
        if started {
            current = .init(segment: SegmentSummary(segment, count: segmentCount), info: info(of: segment))
            done = timeline.segments[segment.index - 1].start + elapsed
            if segment.index < timeline.count {
                let upcoming = timeline.segments[segment.index]
                next = .init(segment: SegmentSummary(upcoming, count: segmentCount), info: info(of: upcoming))
            }
        }
        let running = state == .running && started
        let sinceStart = (phase.pausedSince ?? now) - startedAt
        let deadline = running ? segmentDeadline : nil
        var snapshot = SessionSnapshot(
            routine: routine.name, state: state, current: current, next: next,
            count: timeline.isComplete ? timeline.count : nil,
            remaining: remaining, elapsedInSegment: elapsed,
            deadline: deadline.map { $0 - startedAt },
            deadlineNanoseconds: deadline.map { scheduler.deadline(for: $0) },
            workoutDone: done,
            workoutLeft: started ? remainingInWorkout(segmentRemaining: segment.open.map { max(0, $0.expect - elapsed) } ?? remaining) : nil,
            elapsed: started ? sinceStart : 0, active: started ? max(0, sinceStart - pausedSeconds) : 0,
            message: message,
            tenths: options.tenths,
            backGrace: options.backGrace,
            nextChange: running ? ShownTime(remaining: remaining, tenths: options.tenths)
                .nextChange(deadline: segmentDeadline - startedAt) : nil,
            open: started ? segment.open : nil,
            tallies: tallies, laps: laps,
            t: now - startedAt, speed: scheduler.speed, sensors: sensors, hrZone: sensorZone)
        if started { snapshot.covered = coveredInSegment }
        return snapshot
    }

    /// A segment's `info` as JSON, converted once per segment start for the current
    /// segment and the next: a viewer takes a snapshot on every tick.
    /// The current segment's power for a trainer (`Event.power`), from its `info` as it
    /// stands now (kept, as the snapshot's is).
    func segmentPower() -> SegmentPower {
        SegmentPower(part: .init(segment: SegmentSummary(segment, count: segmentCount), info: info(of: segment)),
                     athlete: options.athlete, file: routine.fileName)
    }

    private func info(of segment: Segment) -> JSONValue {
        if let cached = infoCache.first(where: { $0.index == segment.index }) { return cached.info }
        let info = routine.infoJSON(for: segment)
        infoCache = Array(infoCache.suffix(1)) + [(segment.index, info)]
        return info
    }
}
