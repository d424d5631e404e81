/// Segments that reach a routine made from data while it runs: a follower's copy of the
/// coach's generated segments (`generate`), handed on as the coach makes and publishes
/// them. The routine pulls them through the engine's own generator path
/// (`Timeline.pull`), so they join its timeline as a Lua generator's would; until the
/// coach's next one is here the pull waits (`Timeline.Pulled.waiting`), and once the
/// coach says no more will come, the routine's end follows the last. On the session's
/// thread.
public final class DataSegmentFeed {
    /// Received and not pulled yet.
    private var received: [DataSegment] = []
    /// The coach said no more will come.
    public private(set) var isClosed = false

    public init() {}

    /// More of the coach's segments, in order, after those handed on before.
    public func append(_ segments: [DataSegment]) {
        guard !isClosed else { return }
        received += segments
    }

    /// No more will come: the routine ends after what it has.
    public func close() {
        isClosed = true
    }

    /// What the generator takes: everything received so far.
    fileprivate func take() -> [DataSegment] {
        defer { received = [] }
        return received
    }

    fileprivate var isDrained: Bool { isClosed && received.isEmpty }

    /// The generator the routine's `generate` step runs: the received segments as steps,
    /// none yet while the coach has not sent more, finished once closed and drained.
    final class Generator: SegmentGenerator {
        private let feed: DataSegmentFeed

        init(_ feed: DataSegmentFeed) {
            self.feed = feed
        }

        var isFinished: Bool { feed.isDrained }

        func next(index: Int, elapsed: Double) throws(HookError) -> [Step] {
            feed.take().map(\.step)
        }

        func close() {}
    }
}
