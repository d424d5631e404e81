/// `workout plan --json`: the whole timeline as one object. Written a segment at a
/// time, so a 100,000-segment plan never exists as one tree or one string.
extension Routine {
    public func writePlanJSON(_ write: (String) -> Void) {
        var head = "{"
        // An open-ended routine lists what its generators gave (see `expand`): `complete`
        // is false when the list stopped at the horizon, and `duration` is the listed part.
        for (key, value) in [("name", JSONValue.string(name)), ("duration", .number(timeline.duration)),
                             ("open_ended", .bool(timeline.isOpenEnded)), ("complete", .bool(!timeline.reachedHorizon)),
                             ("params", .array(parameters.map(\.json)))] {
            JSONValue.quote(key, into: &head)
            head += ":" + value.text + ","
        }
        write(head + "\"segments\":[")
        var chunk = ""
        for segment in timeline.segments {
            if segment.index > 1 { chunk += "," }
            planEntry(segment).write(to: &chunk)
            if chunk.utf8.count > 64 * 1024 {
                write(chunk)
                chunk = ""
            }
        }
        write(chunk + "]}")
    }

    private func planEntry(_ segment: Segment) -> JSONValue {
        .object([
            ("index", .integer(segment.index)),
            ("start", .number(Number.rounded(segment.start, places: 6))),
            ("duration", .number(segment.duration)),
            ("kind", .string(segment.kind)),
            ("name", .string(segment.name)),
            ("round", .from(segment.round)),
            ("rounds", .from(segment.rounds)),
            ("block", .from(segment.block)),
            ("info", infoJSON(for: segment)),
        ])
    }
}

extension Parameter {
    /// `{ "name", "type", "default", "value", "help" }`; durations in seconds.
    var json: JSONValue {
        .object([("name", .string(name)), ("type", .string(kind.rawValue)), ("default", defaultValue.json),
                 ("value", value.json), ("help", .from(help))])
    }
}

extension ParameterValue {
    var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        case .duration(let seconds, _): .number(seconds)
        case .string(let value): .string(value)
        case .boolean(let value): .bool(value)
        }
    }
}
