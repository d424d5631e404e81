/// `workout plan --json`: the whole timeline as one object. Written a segment at a
/// time, so a 100,000-segment plan never exists as one tree or one string.
extension Routine {
    public func writePlanJSON(_ write: (String) -> Void) {
        var head = "{"
        for (key, value) in [("name", JSONValue.string(name)), ("duration", .number(timeline.duration))] {
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
