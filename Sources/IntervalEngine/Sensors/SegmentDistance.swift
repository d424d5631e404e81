import WorkoutValues

/// How far the athlete has gone in the current segment, from the running totals that
/// treadmills, rowers and foot pods send (`SensorQuantity.distance`): each sensor's total
/// less what it said when the segment started (or, for one first heard during it, its
/// first total). With two sources (a treadmill and a foot pod) the farther counts: a
/// source that stalls never holds a step back. A total that falls (a machine that
/// restarted its count) goes on from where it was; what a machine counts while the
/// workout is paused (a belt running on) is not the athlete's.
struct SegmentDistance: Sendable, Equatable {
    private var base: [String: Double] = [:]
    private var last: [String: Double] = [:]

    /// A new segment: it counts from each source's last total.
    mutating func restart() { base = last }

    /// `sensor` says its total is `total`; `counting`: the workout is running.
    mutating func take(sensor: String, total: Double, counting: Bool) {
        guard let previous = last[sensor] else {
            base[sensor] = total
            last[sensor] = total
            return
        }
        let start = base[sensor] ?? previous
        if total < previous {
            base[sensor] = total - (previous - start)
        } else if !counting {
            base[sensor] = start + (total - previous)
        } else {
            base[sensor] = start
        }
        last[sensor] = total
    }

    /// Metres `sensor` covered since it was first heard (or since the segment began).
    func covered(by sensor: String) -> Double? {
        last[sensor].flatMap { total in base[sensor].map { total - $0 } }
    }

    /// Metres covered in the segment; nil before any source gave a total.
    var covered: Double? {
        last.compactMap { sensor, total in base[sensor].map { total - $0 } }.max()
    }
}
