import ClassPublishing
import IntervalEngine
import WorkoutValues

/// The coach's retained `PREFIX/timeline` (`workout plan --json`'s object) made into a
/// routine: data only, read with bounds, never code. A segment keeps its kind, name,
/// duration, text cues, its `info` as data (the text and targets the display shows), its
/// round x of n and whether it is open; hooks and functions never cross the broker. A
/// field out of its bounds is left out, as a routine without it.
public enum FollowedTimeline {
    /// The coach publishes at most this much (`SessionPublisher.largestTimeline`); a
    /// little more is room for the object around the segments.
    public static let largest = SessionPublisher.largestTimeline + 64 * 1024
    public static let mostSegments = 100_000
    static let longestText = 1000

    /// `source`: where it came from, for messages (`PREFIX/timeline`).
    public static func routine(_ bytes: [UInt8], source: String) throws(FollowError) -> Routine {
        try read(bytes, source: source).routine
    }

    /// What a follower builds from the coach's timeline.
    public struct Read {
        public var routine: Routine
        /// What the follower says once of the coach's own sounds (nil: it has none):
        /// `ownSoundsNote`.
        public var note: String?
        /// For a coach whose routine makes segments as it goes: what the follower has of
        /// them, to which each republished timeline appends. Nil for a fixed routine.
        public var generated: GeneratedSegments?
    }

    public static func read(_ bytes: [UInt8], source: String) throws(FollowError) -> Read {
        guard bytes.count <= largest else {
            throw FollowError("\(source): the timeline is \(bytes.count) bytes, more than a follower reads (\(largest))")
        }
        guard let value = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }), case .object = value else {
            throw FollowError("\(source): the timeline is not a workout plan as data (a JSON object from `workout plan --json`)")
        }
        if value["too_large"] == .bool(true) {
            throw FollowError("\(source): the coach's timeline was too large to publish")
        }
        // The coach publishes the segments its routine has made so far, and again as it
        // makes more, saying whether more may come (`more`). A coach that does not say it
        // (an older workout) publishes only those before the first generator: following
        // them would end the class at the warm-up with "completed", so it is refused.
        let openEnded = value["open_ended"] == .bool(true)
        var more = false
        if openEnded {
            guard case .bool(let said)? = value["more"] else {
                throw FollowError("\(source): the coach's routine makes its segments as it goes (generate), and the "
                                  + "coach's workout does not publish them as it makes them (an older version of workout): "
                                  + "a follower cannot follow this class")
            }
            more = said
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
        let generated = openEnded ? GeneratedSegments(segments, more: more) : nil
        let routine = Routine.fromData(name: name, fileName: source, countdown: countdown, sounds: sounds(value["sounds"]),
                                       segments: segments, more: generated?.feed)
        return Read(routine: routine, note: ownSoundsNote(value["sounds"]?["own"]), generated: generated)
    }

    /// The coach's routine plays sounds of its own (`sounds = { work = "gong.ogg" }`, or
    /// notes): a follower has neither the files nor the code, and never fetches either, so
    /// it hears its built-in sounds there and says so once. At most `namesShown` names,
    /// each cut to 60 characters and escaped.
    static func ownSoundsNote(_ value: JSONValue?) -> String? {
        var names: [String] = []
        var count = 0
        if case .array(let files)? = value?["files"] {
            for case .string(let name) in files.prefix(1000) {
                count += 1
                if names.count < namesShown {
                    names.append(VisibleText.escape(name.count > 60 ? String(name.prefix(60)) + "…" : name))
                }
            }
        }
        if count > names.count { names.append("\(count - names.count) more") }
        if value?["notes"] == .bool(true) { names.append("its own notes") }
        guard !names.isEmpty else { return nil }
        return "the coach's routine plays sounds of its own (\(names.joined(separator: ", "))): "
            + "a follower never receives sound files, and plays its built-in sounds in their place"
    }

    static let namesShown = 5

    /// One entry of the `segments` list; one without a kind, a name and a duration in
    /// seconds is not a segment.
    static func segment(_ entry: JSONValue, number: Int, source: String) throws(FollowError) -> DataSegment {
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
        return DataSegment(kind: kind, name: name, duration: duration, cues: cues, info: info(entry["info"]),
                           place: place(entry), open: open(entry["open"]))
    }

    /// A segment's info as the display and the targets read it: an object, a text, a number
    /// or a list, at most `largestInfo` bytes written and `deepestInfo` levels deep; else none.
    static func info(_ value: JSONValue?) -> JSONValue {
        guard let value, value != .null, value.text.utf8.count <= largestInfo, depth(value) <= deepestInfo else { return .null }
        return value
    }

    public static let largestInfo = 4096
    public static let deepestInfo = 4

    private static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): 1 + (items.map(depth).max() ?? 0)
        case .object(let fields): 1 + (fields.map { depth($0.1) }.max() ?? 0)
        default: 0
        }
    }

    /// Round x of n (whole numbers, 1 ≤ x ≤ n ≤ `mostSegments`) and the block's name.
    static func place(_ entry: JSONValue) -> SegmentPlace? {
        guard let round = whole(entry["round"]), let rounds = whole(entry["rounds"]), round <= rounds else { return nil }
        return SegmentPlace(round: round, rounds: rounds, block: text(entry["block"]))
    }

    private static func whole(_ value: JSONValue?) -> Int? {
        guard let number = value?.double, number.isFinite, number >= 1, number <= Double(mostSegments),
              number == number.rounded() else { return nil }
        return Int(number)
    }

    /// `{"cap": seconds or null, "expect": seconds}`: an open segment, ended by the coach's
    /// DONE or at its cap; anything else is a timed one.
    static func open(_ value: JSONValue?) -> OpenEnd? {
        guard let value, case .object = value else { return nil }
        func seconds(_ field: JSONValue?) -> Double? {
            guard let number = field?.double, number.isFinite, number >= 0, number <= Duration.maximum else { return nil }
            return number
        }
        let cap = seconds(value["cap"])
        if value["cap"] != nil, value["cap"] != .null, cap == nil { return nil }
        return OpenEnd(cap: cap, expect: seconds(value["expect"]))
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
