/// `workout plan --json`: the whole timeline as one object.
extension Routine {
    public var planJSON: JSONValue {
        .object([
            ("name", .string(name)),
            ("duration", .number(timeline.duration)),
            ("segments", .array(timeline.segments.map { segment in
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
            })),
        ])
    }
}
