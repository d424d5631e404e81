import IntervalEngine
import WorkoutValues

/// `PREFIX/state`: the workout at one moment, flat enough for a Home Assistant template
/// (`{{ value_json.kind }}`) and complete enough for a follower (`t`, `deadline`). Built
/// from the session's snapshot alone, so the virtual clock's tests check it exactly.
public enum StatePayload {
    /// `targetWatts`: the trainer's target now (the segment's `watts`/`power`, or the
    /// routine's latest `erg()`), nil without one.
    public static func json(_ snapshot: SessionSnapshot, targetWatts: Int?) -> JSONValue {
        let segment = snapshot.current?.segment
        func running(_ quantity: SensorQuantity) -> JSONValue {
            snapshot.sensors[quantity].map { quantity.json($0.value) } ?? .null
        }
        let next: JSONValue = snapshot.next.map {
            .object([("name", .string($0.segment.name)), ("kind", .string($0.segment.kind)),
                     ("duration", .number($0.segment.duration))])
        } ?? .null
        return .object([
            ("phase", .string(snapshot.state.name)),
            ("routine", .string(snapshot.routine)),
            ("segment", .from(segment?.index)),
            ("segments", .from(snapshot.count)),
            ("name", .from(segment?.name)),
            ("kind", .from(segment?.kind)),
            ("duration", segment.map { .number($0.duration) } ?? .null),
            ("remaining", segment == nil ? .null : .integer(shownSeconds(snapshot.remaining))),
            ("open", .bool(snapshot.open != nil)),
            ("next", next),
            ("hr", .from(snapshot.sensors[.hr].map { Int($0.value) })),
            ("hr_zone", .from(snapshot.hrZone)),
            ("power", .from(snapshot.sensors[.power].map { Int($0.value) })),
            ("target_watts", .from(targetWatts)),
            // A runner's and a rower's machine: each as the snapshot holds it, null without.
            ("distance", running(.distance)),
            ("pace", running(.pace)),
            ("split", running(.split)),
            ("incline", running(.incline)),
            ("stroke_rate", running(.strokeRate)),
            ("t", .number(Number.rounded(snapshot.t, places: 3))),
            // The exact seconds left in the segment, paused or not: what a follower aligns to.
            ("left", segment == nil ? .null : .number(Number.rounded(max(0, snapshot.remaining), places: 3))),
            ("speed", .number(snapshot.speed)),
            ("deadline", snapshot.deadline.map { .number(Number.rounded($0, places: 3)) } ?? .null),
            ("workout_left", snapshot.workoutLeft.map { .integer(shownSeconds($0)) } ?? .null),
        ])
    }

    /// Whole seconds as the display counts down: 14.2 s left shows 15.
    static func shownSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds, 1e9).rounded(.up))
    }

    /// The trainer's target now, as ERG mode would hold it.
    public static func targetWatts(_ snapshot: SessionSnapshot, ftp: Double?) -> Int? {
        guard let current = snapshot.current, let target = ErgTarget(info: current.info, ftp: ftp) else { return nil }
        return target.watts(elapsed: snapshot.elapsedInSegment, duration: current.segment.duration)
    }
}
