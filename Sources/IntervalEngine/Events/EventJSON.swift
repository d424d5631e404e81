import WorkoutValues

/// Events as the JSON objects `--json` prints: `event` and `t` first, then `at` and
/// `late_ms` for timer-caused events, then the event's own fields.
extension Event {
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("event", .string(name)),
            ("t", .number(Number.rounded(t, places: 6))),
        ]
        if let fire {
            fields.append(("at", .number(Number.rounded(fire.at, places: 6))))
            fields.append(("late_ms", .number(Number.rounded(fire.lateMs, places: 3))))
        } else if case .alert(.sound, _, _) = kind {
            // A sound always says when it was meant to be heard; asked for on the spot
            // (a key, a hook outside a timer), that is now.
            fields.append(("at", .number(Number.rounded(t, places: 6))))
        }
        fields += ownFields
        return .object(fields)
    }

    private var ownFields: [(String, JSONValue)] {
        switch kind {
        case let .workoutStart(name, segments, duration, speed, fromHistory):
            var fields: [(String, JSONValue)] = [("name", .string(name)), ("segments", .from(segments)),
                                                 ("duration", duration.map { .number($0) } ?? .null), ("speed", .number(speed))]
            if !fromHistory.isEmpty { fields.append(("from_history", .object(fromHistory.map { ($0.name, $0.value) }))) }
            return fields
        case let .segmentStart(segment, info):
            var fields: [(String, JSONValue)] = [
                ("index", .integer(segment.index)), ("count", .from(segment.count)),
                ("name", .string(segment.name)), ("kind", .string(segment.kind)),
                ("duration", .number(segment.duration)), ("round", .from(segment.round)),
                ("rounds", .from(segment.rounds)), ("block", .from(segment.block)), ("info", info)]
            if let open = segment.open {
                // `duration` is then what it is expected to take.
                fields += [("open", .bool(true)), ("cap", open.cap.map { .number($0) } ?? .null)]
                if let metres = open.distance { fields.append(("distance", .number(metres))) }
            }
            return fields
        case let .cue(index, offset, text):
            var fields: [(String, JSONValue)] = [("index", .integer(index)),
                                                 ("offset", .number(Number.rounded(offset, places: 6)))]
            if let text { fields.append(("text", .string(text))) }
            return fields
        case let .segmentEnd(index, name, kind, skipped, by):
            return [("index", .integer(index)), ("name", .string(name)), ("kind", .string(kind)),
                    ("skipped", .bool(skipped)), ("by", .string(by.rawValue))]
        case let .alert(type, text, _):
            return [("type", .string(type.rawValue)), ("text", .string(text))]
        case let .log(text):
            return [("text", .string(text))]
        case let .score(score):
            return [("name", .string(score.name)), ("value", .number(score.value)), ("better", .string(score.better))]
        case let .tally(name, value, add):
            return [("name", .string(name)), ("value", .integer(value)), ("add", .integer(add))]
        case let .lap(index, number, split):
            return [("index", .integer(index)), ("lap", .integer(number)),
                    ("split", .number(Number.rounded(split, places: 6)))]
        case let .pause(index, remaining), let .resume(index, remaining):
            return [("index", .integer(index)), ("remaining", .number(Number.rounded(remaining, places: 6)))]
        case let .suspend(index, missed):
            return [("index", .integer(index)), ("missed", .number(Number.rounded(missed, places: 3)))]
        case let .error(message, hook, traceback):
            var fields: [(String, JSONValue)] = [("message", .string(message)), ("hook", .string(hook))]
            if let traceback { fields.append(("traceback", .string(traceback))) }
            return fields
        case let .sample(sample):
            var fields: [(String, JSONValue)] = [("sensor", .string(sample.sensor)), ("name", .string(sample.name))]
            for quantity in SensorQuantity.allCases {
                if let value = sample[quantity] { fields.append((quantity.key, quantity.json(value))) }
            }
            return fields
        case let .erg(watts):
            return [("watts", .integer(watts))]
        case let .treadmill(kmh):
            return [("kmh", .number(Number.rounded(kmh, places: 2)))]
        case let .workoutEnd(summary):
            return [("completed", .bool(summary.completed)), ("elapsed", .number(Number.rounded(summary.elapsed, places: 6))),
                    ("segments_done", .integer(summary.segmentsDone))]
        }
    }
}
