import IntervalEngine
import WorkoutValues

/// A coach's routine that makes its segments as it goes (`generate`) publishes the
/// retained `PREFIX/timeline` again whenever it has made more, with every segment made so
/// far and whether more may come (`more`). A follower keeps what it has followed and hands
/// what a new one adds to its routine's feed (`DataSegmentFeed`), which the session pulls
/// as the coach's generator's segments; `more: false` closes the feed, and the follower's
/// workout ends after the last, as the coach's does.
///
/// Whoever may publish on the topic writes what is read here, so a new timeline is taken
/// only when it is a longer version of the one followed: the same bounds as the first
/// (`FollowedTimeline`), the segments already followed unchanged (kind, name, duration),
/// each new one numbered where it stands. Anything else is refused and changes nothing.
/// On the main thread, the session's.
public final class GeneratedSegments {
    public let feed: DataSegmentFeed
    /// What is compared of a segment followed already.
    struct Known: Equatable {
        var kind: String
        var name: String
        var duration: Double
    }

    private(set) var known: [Known]

    /// `segments`: those of the timeline the routine was built from; `more`: whether the
    /// coach said more may come.
    init(_ segments: [DataSegment], more: Bool) {
        feed = DataSegmentFeed()
        known = segments.map(Known.init)
        if !more { feed.close() }
    }

    /// The segments followed so far (the timeline's and those appended).
    public var count: Int { known.count }
    /// The coach said no more will come.
    public var isComplete: Bool { feed.isClosed }

    /// What a republished timeline means for a follower.
    public enum Update: Equatable {
        /// `count` segments more (maybe none), and whether more may still come.
        case added(Int, more: Bool)
        /// The coach's timeline grew past what it publishes: the rest cannot be followed.
        case tooLarge
    }

    /// Reads a republished timeline and hands what it adds to the feed; throws, changing
    /// nothing, for one that is not a longer version of the one followed.
    public func take(_ bytes: [UInt8], source: String) throws(FollowError) -> Update {
        // The coach said no more would come: nothing is taken after that (a reconnect
        // brings the same timeline again; anything else would not be the coach's).
        guard !isComplete else { return .added(0, more: false) }
        let read = try Self.read(bytes, following: known, source: source)
        guard case .added(let segments, let more) = read else { return .tooLarge }
        known += segments.map(Known.init)
        feed.append(segments)
        if !more { feed.close() }
        return .added(segments.count, more: more)
    }

    /// What a republished timeline adds to `known`, checked as the first one is; pure.
    enum Read: Equatable {
        case added([DataSegment], more: Bool)
        case tooLarge
    }

    static func read(_ bytes: [UInt8], following known: [Known], source: String) throws(FollowError) -> Read {
        guard bytes.count <= FollowedTimeline.largest else {
            throw FollowError("\(source): a timeline of \(bytes.count) bytes, more than a follower reads (\(FollowedTimeline.largest))")
        }
        guard let value = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }), case .object = value else {
            throw FollowError("\(source): a timeline that is not a workout plan as data")
        }
        if value["too_large"] == .bool(true) { return .tooLarge }
        guard value["open_ended"] == .bool(true), case .bool(let more)? = value["more"] else {
            throw FollowError("\(source): a timeline that does not say whether more segments come (\"open_ended\", \"more\")")
        }
        guard case .array(let entries)? = value["segments"], entries.count <= FollowedTimeline.mostSegments else {
            throw FollowError("\(source): a timeline without a \"segments\" list of at most \(FollowedTimeline.mostSegments)")
        }
        guard entries.count >= known.count else {
            throw FollowError("\(source): a timeline of \(entries.count) segments, older than the \(known.count) followed")
        }
        for (position, segment) in known.enumerated() {
            let entry = entries[position]
            guard entry["kind"] == .string(segment.kind), entry["name"] == .string(segment.name),
                  entry["duration"]?.double == segment.duration else {
                throw FollowError("\(source): a timeline whose segment \(position + 1) is not the one followed")
            }
        }
        var added: [DataSegment] = []
        for position in known.count..<entries.count {
            let entry = entries[position]
            guard entry["index"]?.double == Double(position + 1) else {
                throw FollowError("\(source): a timeline whose segment \(position + 1) is numbered out of order")
            }
            added.append(try FollowedTimeline.segment(entry, number: position + 1, source: source))
        }
        return .added(added, more: more)
    }
}

extension GeneratedSegments.Known {
    init(_ segment: DataSegment) {
        self.init(kind: segment.kind, name: segment.name, duration: segment.duration)
    }
}
