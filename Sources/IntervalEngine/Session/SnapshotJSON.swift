import WorkoutValues

/// The snapshot as JSON, for a web page or a script: the same names as the events'
/// (`segment` has `segment_start`'s fields), times in workout seconds, `deadline_ns` on
/// CLOCK_MONOTONIC.
extension SessionSnapshot {
    public var json: JSONValue {
        // Typed first: the compiler checks a literal this long slowly.
        let sensorFields: JSONValue = sensors.isEmpty ? .null : sensorsJSON
        let fields: [(String, JSONValue)] = [
            ("routine", .string(routine)),
            ("state", .string(state.name)),
            ("t", .number(Number.rounded(t, places: 6))),
            ("speed", .number(speed)),
            ("segment", current.map(SessionSnapshot.json) ?? .null),
            ("next", next.map(SessionSnapshot.json) ?? .null),
            ("count", .from(count)),
            ("remaining", .number(Number.rounded(remaining, places: 6))),
            ("elapsed_in_segment", .number(Number.rounded(elapsedInSegment, places: 6))),
            ("deadline", deadline.map { .number(Number.rounded($0, places: 6)) } ?? .null),
            ("deadline_ns", deadlineNanoseconds.map { .number(Double($0)) } ?? .null),
            ("paused", .bool(paused)),
            ("workout_done", .number(Number.rounded(workoutDone, places: 6))),
            ("workout_left", workoutLeft.map { .number(Number.rounded($0, places: 6)) } ?? .null),
            ("elapsed", .number(Number.rounded(elapsed, places: 6))),
            ("active", .number(Number.rounded(active, places: 6))),
            ("message", message.map { .object([("text", .string($0.text)), ("kind", .string($0.kind.rawValue))]) } ?? .null),
            ("tenths", .bool(tenths)),
            ("next_change", nextChange.map { .number(Number.rounded($0, places: 6)) } ?? .null),
            ("open", .bool(open != nil)),
            ("cap", open?.cap.map { .number($0) } ?? .null),
            ("distance", open?.distance.map { .number($0) } ?? .null),
            ("covered", covered.map { .number(Number.rounded($0, places: 1)) } ?? .null),
            ("tallies", .object(tallies.map { ($0.name, .integer($0.value)) })),
            ("laps", .array(laps.map { .number(Number.rounded($0, places: 3)) })),
            ("sensors", sensorFields),
        ]
        return .object(fields)
    }

    /// `{hr, power, cadence, speed, hr_zone, stale}` (each `SensorQuantity` that has a value): the latest values, `stale` naming
    /// the ones whose sensor dropped out.
    private var sensorsJSON: JSONValue {
        var fields: [(String, JSONValue)] = []
        var stale: [JSONValue] = []
        for quantity in SensorQuantity.allCases {
            guard let reading = sensors[quantity] else { continue }
            fields.append((quantity.key, quantity.json(reading.value)))
            if reading.stale { stale.append(.string(quantity.key)) }
        }
        fields.append(("hr_zone", .from(hrZone)))
        fields.append(("stale", .array(stale)))
        return .object(fields)
    }

    private static func json(_ part: Part) -> JSONValue {
        let segment = part.segment
        return .object([
            ("index", .integer(segment.index)), ("count", .from(segment.count)), ("name", .string(segment.name)),
            ("kind", .string(segment.kind)), ("duration", .number(segment.duration)), ("round", .from(segment.round)),
            ("rounds", .from(segment.rounds)), ("block", .from(segment.block)), ("info", part.info),
            ("open", .bool(segment.open != nil)),
        ])
    }
}

extension Session.State {
    /// `ready`, `running`, `paused`, `finished`.
    public var name: String {
        switch self {
        case .ready: "ready"
        case .running: "running"
        case .paused: "paused"
        case .finished: "finished"
        }
    }
}
