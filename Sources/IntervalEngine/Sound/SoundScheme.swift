/// Which sound plays for what, by default and as a routine changes it with
/// `workout{ sounds = { … } }`: a pip for each countdown second, the start sound of the
/// new segment's kind at each boundary, the chime at the end. A moment set to `false`
/// plays nothing.
public struct SoundScheme: Sendable, Equatable {
    /// Each of the last `countdown` seconds.
    public var countdown: Sound?
    /// The workout's end (completed).
    public var finish: Sound?
    public var pause: Sound?
    public var resume: Sound?
    /// A segment of a kind not in `kinds` starts.
    public var start: Sound?
    /// A segment of this kind starts; an entry of nil is silence for that kind.
    public var kinds: [String: Sound?]

    public init(countdown: Sound?, finish: Sound?, pause: Sound?, resume: Sound?, start: Sound?,
                kinds: [String: Sound?]) {
        self.countdown = countdown
        self.finish = finish
        self.pause = pause
        self.resume = resume
        self.start = start
        self.kinds = kinds
    }

    /// The defaults. Pausing and resuming are silent unless a routine asks: the person who
    /// pressed the key knows already.
    public static let standard = SoundScheme(
        countdown: Sound.named("pip"), finish: Sound.named("finish"), pause: nil, resume: nil,
        start: Sound.named("start"), kinds: ["work": Sound.named("go"), "rest": Sound.named("rest")])

    /// The keys of `sounds = { … }` that are moments rather than kinds.
    public static let momentKeys = ["countdown", "finish", "pause", "resume", "start"]

    /// What plays when a segment of `kind` starts.
    public func start(of kind: String) -> Sound? {
        if let chosen = kinds[kind] { return chosen }
        return start
    }

    /// Sets what plays for a key of `sounds = { … }`: a moment, else a kind.
    package mutating func set(_ key: String, _ sound: Sound?) {
        switch key {
        case "countdown": countdown = sound
        case "finish": finish = sound
        case "pause": pause = sound
        case "resume": resume = sound
        case "start": start = sound
        default: kinds[key] = .some(sound)
        }
    }
}
