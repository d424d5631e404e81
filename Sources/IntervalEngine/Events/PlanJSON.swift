import WorkoutValues

/// `workout plan --json`: the whole timeline as one object. Written a segment at a
/// time, so a 100,000-segment plan never exists as one tree or one string.
extension Routine {
    /// `forFollowers`: with what a follower plays as the routine does, as data (the
    /// published `PREFIX/timeline`): `countdown`, the built-in `sounds` by name, `more`
    /// (an open-ended routine's generators may still make segments), and each segment's
    /// text `cues` in seconds from its start and `open` (`{"cap", "expect"}`, or `null`);
    /// its `info`, `round`, `rounds` and `block` are the plan's. Hooks and functions never.
    public func writePlanJSON(forFollowers: Bool = false, _ write: (String) -> Void) {
        write(planHead(forFollowers: forFollowers) + "\"segments\":[")
        var chunk = ""
        for segment in timeline.segments {
            if segment.index > 1 { chunk += "," }
            writePlanEntry(segment, forFollowers: forFollowers, into: &chunk)
            if chunk.utf8.count > 64 * 1024 {
                write(chunk)
                chunk = ""
            }
        }
        write(chunk + "]}")
    }

    /// The plan's object up to its `segments` list: `{` and every field before it, each
    /// followed by a comma. Of the timeline as it is now (a coach's grows as it runs).
    public func planHead(forFollowers: Bool) -> String {
        var head = "{"
        // An open-ended routine lists what its generators gave (see `expand`): `complete`
        // is false when the list stopped at the horizon, and `duration` is the listed part.
        var fields: [(String, JSONValue)] = [("name", JSONValue.string(name)), ("duration", .number(timeline.duration)),
                                             ("open_ended", .bool(timeline.isOpenEnded)),
                                             ("complete", .bool(!timeline.reachedHorizon)),
                                             ("params", .array(parameters.map(\.json)))]
        if forFollowers {
            fields += [("countdown", .number(countdown)), ("sounds", sounds.builtInNames),
                       ("more", .bool(timeline.isOpenEnded && !timeline.isComplete))]
        }
        for (key, value) in fields {
            JSONValue.quote(key, into: &head)
            head += ":" + value.text + ","
        }
        return head
    }

    /// One segment's entry in the plan's `segments` list, appended to `text`.
    public func writePlanEntry(_ segment: Segment, forFollowers: Bool, into text: inout String) {
        var entry = planEntry(segment)
        if forFollowers, case .object(var entryFields) = entry {
            entryFields.append(("cues", .array(segment.cues.compactMap { cue -> JSONValue? in
                guard let text = cue.text, let at = cue.offset(in: segment.duration) else { return nil }
                return .object([("at", .number(at)), ("text", .string(text))])
            })))
            entryFields.append(("open", segment.open.map {
                .object([("cap", $0.cap.map(JSONValue.number) ?? .null), ("expect", .number($0.expect))])
            } ?? .null))
            entry = .object(entryFields)
        }
        entry.write(to: &text)
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
    /// The value as the plan's JSON and a history line's `params` give it (PastSessions'
    /// `HistoryEntry`); a duration in seconds.
    public var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        case .duration(let seconds, _): .number(seconds)
        case .string(let value): .string(value)
        case .boolean(let value): .bool(value)
        }
    }
}

extension SoundScheme {
    /// Each moment and kind with its built-in sound's name, `null` for silence; a
    /// routine's own notes or files are left out (a follower plays its default there), and
    /// only named in `own` — `{"files": [names], "notes": bool}` — so that a follower can
    /// say it hears its defaults in their place. Never the files' bytes.
    var builtInNames: JSONValue {
        func name(_ sound: Sound?) -> JSONValue? {
            guard let sound else { return .null }
            return Sound.named(sound.name) == sound ? .string(sound.name) : nil
        }
        var fields: [(String, JSONValue)] = []
        for (key, sound) in [("countdown", countdown), ("finish", finish), ("pause", pause), ("resume", resume),
                             ("start", start)] {
            if let value = name(sound) { fields.append((key, value)) }
        }
        var kindFields: [(String, JSONValue)] = []
        for (kind, sound) in kinds.sorted(by: { $0.key < $1.key }) {
            if let value = name(sound) { kindFields.append((kind, value)) }
        }
        var files: [String] = [], notes = false
        for case let sound? in [countdown, finish, pause, resume, start] + kinds.values
        where Sound.named(sound.name) != sound {
            if sound.file == nil { notes = true } else if !files.contains(sound.name) { files.append(sound.name) }
        }
        let own = JSONValue.object([("files", .array(files.sorted().map(JSONValue.string))), ("notes", .bool(notes))])
        return .object(fields + [("kinds", .object(kindFields)), ("own", own)])
    }
}
