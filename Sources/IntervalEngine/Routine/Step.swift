import WorkoutValues

/// What the routine's constructors build: a tree of segments and `rounds` blocks, kept
/// as plain Swift values so that Lua stays out of the timing path. A step repeated by
/// `rounds` is the same value each time, so its payload reference is shared.
package indirect enum Step {
    case segment(SegmentSpec)
    case rounds(RoundsSpec)
    case generate(GeneratorSpec)

    /// Whether a `generate` is in it, at any depth: a generator may yield only fixed steps.
    package var isOpenEnded: Bool {
        switch self {
        case .segment: false
        case .rounds(let spec): spec.steps.contains { $0.isOpenEnded }
        case .generate: true
        }
    }

    /// How many `rounds` levels the step holds (0 for a segment).
    package var depth: Int {
        if case .rounds(let spec) = self { return spec.depth }
        return 0
    }
}

/// One timed segment as written, before it is placed on the timeline.
package struct SegmentSpec {
    package var kind: String
    package var name: String
    /// Its length; for an open segment, the length it is expected to take.
    package var duration: Double
    package var info: RoutineReference?
    package var cues: [Cue]
    package var onStart: RoutineReference?
    package var onEnd: RoutineReference?
    package var line: Int
    /// Set for a segment that ends when the athlete says so.
    package var open: OpenEnd? = nil
    /// What marks an open segment done on a sample (`Segment.until`).
    package var until: SampleCondition? = nil
    /// The heart-rate band that steers the machine (`Segment.steer`).
    package var steer: ClosedRange<Double>? = nil
    /// A score it records by itself when it ends.
    package var score: SegmentScore? = nil
    /// A routine made from data (`Routine.fromData`): the payload as JSON, not a Lua table,
    /// and the segment's place in the coach's `rounds`, which a flat list cannot nest.
    package var infoData: JSONValue? = nil
    package var place: SegmentPlace? = nil

    package init(kind: String, name: String, duration: Double, info: RoutineReference? = nil, cues: [Cue],
                 onStart: RoutineReference? = nil, onEnd: RoutineReference? = nil, line: Int, open: OpenEnd? = nil,
                 until: SampleCondition? = nil, score: SegmentScore? = nil, infoData: JSONValue? = nil,
                 place: SegmentPlace? = nil) {
        self.kind = kind
        self.name = name
        self.duration = duration
        self.info = info
        self.cues = cues
        self.onStart = onStart
        self.onEnd = onEnd
        self.line = line
        self.open = open
        self.until = until
        self.score = score
        self.infoData = infoData
        self.place = place
    }
}

/// Where a segment stood in its innermost `rounds` block: round x of n, the block's name.
public struct SegmentPlace: Equatable, Sendable {
    public var round: Int
    public var rounds: Int
    public var block: String?

    public init(round: Int, rounds: Int, block: String?) {
        self.round = round
        self.rounds = rounds
        self.block = block
    }
}

/// `rounds(n, steps, opts)`.
package struct RoundsSpec {
    package var count: Int
    package var steps: [Step]
    package var name: String?
    package var restBetween: Double?
    package var skipLastRest: Bool
    package var line: Int
    /// How many `rounds` deep this block is (1: it holds only segments).
    package var depth = 1
    /// The segments it unrolls to, saturating above the maximum, counted once here so
    /// that a block reused at every level (`s = rounds(2, { s, s })`) is never walked
    /// again.
    package var segmentCount = 0

    package init(count: Int, steps: [Step], name: String? = nil, restBetween: Double? = nil, skipLastRest: Bool,
                 line: Int) {
        self.count = count
        self.steps = steps
        self.name = name
        self.restBetween = restBetween
        self.skipLastRest = skipLastRest
        self.line = line
    }
}

/// `generate(fn)`: segments produced by `fn`, one `coroutine.yield` at a time, as the
/// workout reaches them.
package struct GeneratorSpec {
    package var function: RoutineReference
    package var line: Int

    package init(function: RoutineReference, line: Int) {
        self.function = function
        self.line = line
    }
}
