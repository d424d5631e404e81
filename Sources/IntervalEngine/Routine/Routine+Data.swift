import WorkoutValues

/// A routine made from data alone, with no Lua code run: what `workout follow` builds
/// from the coach's published timeline (docs/mqtt.md). Its segments have no hooks; their
/// info is JSON data, read by the display and the targets as a routine's table is; a cue
/// is a text said at its moment.
public struct DataSegment: Equatable, Sendable {
    public var kind: String
    public var name: String
    public var duration: Double
    /// Text cues, seconds from the segment's start.
    public var cues: [DataCue]
    /// The segment's `info` as data (`null`: none): its text, targets and notes.
    public var info: JSONValue
    /// Round x of n in the coach's innermost `rounds`, if it was in one.
    public var place: SegmentPlace?
    /// Set when it ends when the athlete (the coach) says DONE, or at its cap.
    public var open: OpenEnd?

    public init(kind: String, name: String, duration: Double, cues: [DataCue] = [], info: JSONValue = .null,
                place: SegmentPlace? = nil, open: OpenEnd? = nil) {
        self.kind = kind
        self.name = name
        self.duration = duration
        self.cues = cues
        self.info = info
        self.place = place
        self.open = open
    }
}

public struct DataCue: Equatable, Sendable {
    public var at: Double
    public var text: String

    public init(at: Double, text: String) {
        self.at = at
        self.text = text
    }
}

extension Routine {
    /// `fileName` names it in messages (the broker's address). It has no code
    /// (`DataOnlyCode`): nothing is ever called. `more`: segments still to come while it
    /// runs (a coach's `generate`), after `segments`; the routine is then open-ended, as
    /// the coach's is.
    public static func fromData(name: String, fileName: String, countdown: Double, sounds: SoundScheme = .standard,
                                segments: [DataSegment], more: DataSegmentFeed? = nil) -> Routine {
        var steps = segments.map(\.step)
        if more != nil { steps.append(.generate(GeneratorSpec(function: RoutineReference(id: 0), line: 0))) }
        let spec = WorkoutSpec(name: name, description: nil, countdown: countdown, sounds: sounds, steps: steps,
                               hooks: WorkoutHooks(), line: 0)
        return Routine(spec: spec, code: DataOnlyCode(feed: more), fileName: fileName, loadLog: [], parameters: [])
    }
}

extension DataSegment {
    /// The segment as a routine's step: no hooks, its info as data.
    var step: Step {
        .segment(SegmentSpec(kind: kind, name: name, duration: duration, info: nil,
                             cues: cues.map { Cue(moment: .fromStart($0.at), action: .text($0.text)) },
                             onStart: nil, onEnd: nil, line: 0, open: open,
                             infoData: info == .null ? nil : info, place: place))
    }
}
