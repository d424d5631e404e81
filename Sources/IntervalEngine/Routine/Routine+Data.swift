/// A routine made from data alone, with no Lua code run: what `workout follow` builds
/// from the coach's published timeline (docs/mqtt.md). Its segments have no hooks and no
/// info; a cue is a text said at its moment.
public struct DataSegment: Equatable, Sendable {
    public var kind: String
    public var name: String
    public var duration: Double
    /// Text cues, seconds from the segment's start.
    public var cues: [DataCue]

    public init(kind: String, name: String, duration: Double, cues: [DataCue] = []) {
        self.kind = kind
        self.name = name
        self.duration = duration
        self.cues = cues
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
    /// `fileName` names it in messages (the broker's address). The Lua state is an empty
    /// sandbox the session needs; nothing is ever loaded into it.
    public static func fromData(name: String, fileName: String, countdown: Double, sounds: SoundScheme = .standard,
                                segments: [DataSegment]) -> Routine {
        let lua = LuaState(chunkName: fileName)
        let steps: [Step] = segments.map { segment in
            .segment(SegmentSpec(kind: segment.kind, name: segment.name, duration: segment.duration, info: nil,
                                 cues: segment.cues.map { Cue(moment: .fromStart($0.at), action: .text($0.text)) },
                                 onStart: nil, onEnd: nil, line: 0))
        }
        let spec = WorkoutSpec(name: name, description: nil, countdown: countdown, sounds: sounds, steps: steps,
                               hooks: WorkoutHooks(), line: 0)
        return Routine(spec: spec, lua: lua)
    }
}
