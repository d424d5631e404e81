import ClassPublishing
import IntervalEngine

/// The coach's retained `PREFIX/timeline` (`workout plan --json`'s object) made into a
/// routine: data only, read with bounds, never code. A segment keeps its kind, name and
/// duration and its text cues; hooks, functions and `info` never cross the broker.
public enum FollowedTimeline {
    /// The coach publishes at most this much (`SessionPublisher.largestTimeline`); a
    /// little more is room for the object around the segments.
    public static let largest = SessionPublisher.largestTimeline + 64 * 1024
    public static let mostSegments = 100_000
    static let longestText = 1000

    /// `source`: where it came from, for messages (`PREFIX/timeline`).
    public static func routine(_ bytes: [UInt8], source: String) throws(FollowError) -> Routine {
        guard bytes.count <= largest else {
            throw FollowError("\(source): the timeline is \(bytes.count) bytes, more than a follower reads (\(largest))")
        }
        guard let value = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }), case .object = value else {
            throw FollowError("\(source): the timeline is not a workout plan as data (a JSON object from `workout plan --json`)")
        }
        if value["too_large"] == .bool(true) {
            throw FollowError("\(source): the coach's timeline was too large to publish")
        }
        guard case .array(let entries)? = value["segments"] else {
            throw FollowError("\(source): the timeline has no \"segments\" list")
        }
        guard entries.count <= mostSegments else {
            throw FollowError("\(source): the timeline has \(entries.count) segments, more than \(mostSegments)")
        }
        var segments: [DataSegment] = []
        for (position, entry) in entries.enumerated() {
            segments.append(try segment(entry, number: position + 1, source: source))
        }
        let name = text(value["name"]) ?? "class"
        let countdown = value["countdown"]?.double.flatMap { $0.isFinite && $0 >= 0 && $0 <= 60 ? $0 : nil } ?? 3
        return Routine.fromData(name: name, fileName: source, countdown: countdown, sounds: sounds(value["sounds"]),
                                segments: segments)
    }

    private static func segment(_ entry: JSONValue, number: Int, source: String) throws(FollowError) -> DataSegment {
        guard let kind = text(entry["kind"]), let name = text(entry["name"]),
              let duration = entry["duration"]?.double, duration.isFinite, duration >= 0, duration <= Duration.maximum
        else {
            throw FollowError("\(source): segment \(number) of the timeline is not a kind, a name and a duration in seconds")
        }
        var cues: [DataCue] = []
        if case .array(let list)? = entry["cues"] {
            for cue in list.prefix(100) {
                if let at = cue["at"]?.double, at.isFinite, at >= 0, at < duration, let words = text(cue["text"]) {
                    cues.append(DataCue(at: at, text: words))
                }
            }
        }
        return DataSegment(kind: kind, name: name, duration: duration, cues: cues)
    }

    /// The coach's built-in sounds by name (`null`: silence); anything else, and a name
    /// that is not a built-in sound, keeps the default.
    static func sounds(_ value: JSONValue?) -> SoundScheme {
        var scheme = SoundScheme.standard
        guard let value, case .object = value else { return scheme }
        func sound(_ field: JSONValue?, otherwise: Sound?) -> Sound? {
            switch field {
            case .null?: nil
            case .string(let name)?: Sound.named(name) ?? otherwise
            default: otherwise
            }
        }
        scheme.countdown = sound(value["countdown"], otherwise: scheme.countdown)
        scheme.finish = sound(value["finish"], otherwise: scheme.finish)
        scheme.pause = sound(value["pause"], otherwise: scheme.pause)
        scheme.resume = sound(value["resume"], otherwise: scheme.resume)
        scheme.start = sound(value["start"], otherwise: scheme.start)
        if case .object(let kinds)? = value["kinds"] {
            for (kind, field) in kinds.prefix(100) where kind.utf8.count <= longestText {
                scheme.kinds[kind] = .some(sound(field, otherwise: scheme.kinds[kind] ?? scheme.start))
            }
        }
        return scheme
    }

    /// A string of a bounded length; anything else is not one.
    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value, text.utf8.count <= longestText else { return nil }
        return text
    }
}

public struct FollowError: Error, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
