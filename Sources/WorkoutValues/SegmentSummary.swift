/// The fields of `segment_start`, and what a display needs to show a segment.
public struct SegmentSummary: Sendable, Equatable {
    public var index: Int
    /// How many segments the workout has; nil when it is open-ended.
    public var count: Int?
    public var name: String
    public var kind: String
    /// Its length; for an open segment, the length it is expected to take.
    public var duration: Double
    public var round: Int?
    public var rounds: Int?
    public var block: String?
    /// Set when it ends when the athlete says so (its clock counts up).
    public var open: OpenEnd?
    /// The routine line that created it, for warnings that name it (not in events).
    public var line: Int

    public init(index: Int, count: Int?, name: String, kind: String, duration: Double, round: Int? = nil,
                rounds: Int? = nil, block: String? = nil, open: OpenEnd? = nil, line: Int) {
        self.index = index
        self.count = count
        self.name = name
        self.kind = kind
        self.duration = duration
        self.round = round
        self.rounds = rounds
        self.block = block
        self.open = open
        self.line = line
    }
}
