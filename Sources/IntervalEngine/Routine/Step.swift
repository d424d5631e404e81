/// What the routine's constructors build: a tree of segments and `rounds` blocks, kept
/// as plain Swift values so that Lua stays out of the timing path. A step repeated by
/// `rounds` is the same value each time, so its payload reference is shared.
indirect enum Step {
    case segment(SegmentSpec)
    case rounds(RoundsSpec)
    case generate(GeneratorSpec)

    /// Whether a `generate` is in it, at any depth: a generator may yield only fixed steps.
    var isOpenEnded: Bool {
        switch self {
        case .segment: false
        case .rounds(let spec): spec.steps.contains { $0.isOpenEnded }
        case .generate: true
        }
    }

    /// How many `rounds` levels the step holds (0 for a segment).
    var depth: Int {
        if case .rounds(let spec) = self { return spec.depth }
        return 0
    }
}

/// One timed segment as written, before it is placed on the timeline.
struct SegmentSpec {
    var kind: String
    var name: String
    /// Its length; for an open segment, the length it is expected to take.
    var duration: Double
    var info: LuaRef?
    var cues: [Cue]
    var onStart: LuaRef?
    var onEnd: LuaRef?
    var line: Int
    /// Set for a segment that ends when the athlete says so.
    var open: OpenEnd? = nil
    /// What marks an open segment done on a sample (`Segment.until`).
    var until: SampleCondition? = nil
    /// A score it records by itself when it ends.
    var score: SegmentScore? = nil
    /// A routine made from data (`Routine.fromData`): the payload as JSON, not a Lua table,
    /// and the segment's place in the coach's `rounds`, which a flat list cannot nest.
    var infoData: JSONValue? = nil
    var place: SegmentPlace? = nil
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
struct RoundsSpec {
    var count: Int
    var steps: [Step]
    var name: String?
    var restBetween: Double?
    var skipLastRest: Bool
    var line: Int
    /// How many `rounds` deep this block is (1: it holds only segments).
    var depth = 1
    /// The segments it unrolls to, saturating above the maximum, counted once here so
    /// that a block reused at every level (`s = rounds(2, { s, s })`) is never walked
    /// again.
    var segmentCount = 0
}

/// `generate(fn)`: segments produced by `fn`, one `coroutine.yield` at a time, as the
/// workout reaches them.
struct GeneratorSpec {
    var function: LuaRef
    var line: Int
}
