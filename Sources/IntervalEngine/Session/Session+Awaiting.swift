/// A boundary that waits for its next segment: a follower runs the coach's generated
/// segments (`generate`) from a feed that has the next one only once the coach has made
/// and sent it, which may be a moment after the follower's own segment ended on the
/// coach's second. The boundary stops between segments, timers cancelled, and goes on
/// when told, at its own moment, as if it had not stopped.
extension Session {
    /// A follower's feed has more of the coach's segments, or says none will come: a
    /// boundary that waited for its next segment goes on as it would have at its moment,
    /// entering the segment at the boundary's time (so its end stays on the coach's) or
    /// finishing. Nothing when no boundary waits.
    public func segmentsArrived() {
        guard let waiting = awaiting else { return }
        awaiting = nil
        guard state != .finished else { return }
        let goOn = { self.carryOut(SessionMachine.entering(waiting.entry), planned: waiting.planned) }
        if let fire = waiting.fire { firing(fire, goOn) } else { goOn() }
    }

    /// A boundary waits for its next segment (`segmentsArrived`): a follower's segment
    /// ended before the coach's next one came. Commands that move between segments are
    /// not for now.
    public var isAwaitingSegment: Bool { awaiting != nil && state != .finished }
}

/// Where a boundary stopped for a segment not made yet: the entry it was making, the
/// moment whose timer began it (its announced alerts) and that timer's fire (stamped on
/// the events still to come, as they would have been).
struct AwaitedSegment {
    var entry: SessionMachine.Entry
    var planned: PlannedMoment?
    var fire: Fire?
}
