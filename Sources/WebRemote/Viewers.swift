/// The viewers of one event feed (the live page's `/events`, the class page's
/// `/class/events`): at most `most` streams, each bounded (`FeedStream`). A value kept by
/// its feed, on the main thread or under the feed's lock.
struct Viewers {
    let most: Int
    private(set) var streams: [FeedStream] = []

    init(most: Int) {
        self.most = most
    }

    var count: Int { streams.count }
    var isEmpty: Bool { streams.isEmpty }

    /// A new viewer, starting with `first`. With `most` already, the newcomer takes the
    /// place of the viewer that has been behind longest, or else of the oldest: a screen
    /// that reloads is never locked out by connections that stopped reading or were
    /// forgotten.
    mutating func admit(first: [UInt8]) -> FeedStream {
        streams.removeAll(where: \.isGone)
        if streams.count >= most {
            let behind = streams.indices.compactMap { index in streams[index].behindSince.map { (index, $0) } }
            let leaving = behind.min { $0.1 < $1.1 }?.0 ?? 0
            streams.remove(at: leaving).abandon()
        }
        let stream = FeedStream()
        _ = stream.push(first)
        streams.append(stream)
        return stream
    }

    /// To every viewer; those gone or dropped for falling too far behind are forgotten.
    mutating func send(_ bytes: [UInt8]) {
        streams.removeAll { !$0.push(bytes) }
    }

    /// Every viewer gets what is queued, then its stream ends.
    func finish() {
        for stream in streams { stream.finish() }
    }
}
