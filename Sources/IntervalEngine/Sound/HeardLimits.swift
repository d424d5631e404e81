/// How much a routine's hooks may ask to be heard. Each sound a hook plays is rendered
/// into samples (about 190 KB a second at 48 kHz) and each text it says is rendered or
/// spoken by a program, so what a hook may queue is bounded where the hook asks, with an
/// error naming its line, rather than found out by the memory it takes: an alert is a
/// few sounds or words, not a song.
///
/// - One call of a hook or cue may play at most `perCall` sounds (`sound()`, `tone{}`)
///   and say at most `perCall` texts.
/// - In all, at most `waitingSeconds` of the hooks' sounds, and as much of their speech,
///   may be waiting or playing at once: a sound counts for its length from the call, a
///   text for its estimated speaking time (`speakingSeconds`).
/// - A text to say is at most `longestText` bytes.
public enum HeardLimits {
    package static let perCall = 16
    static let waitingSeconds = 60.0
    /// About half a minute of speech, far beyond any spoken alert, and far below the
    /// kernel's limit on one argument (128 KiB) for a synthesizer that takes it there.
    package static let longestText = 500

    /// How long a text takes to say, roughly: espeak-ng's default voice says about 175
    /// words (some 15 bytes of English) a second; at least a second each.
    public static func speakingSeconds(_ text: String) -> Double {
        max(1, Double(text.utf8.count) / 15)
    }

    /// The text cut to `longestText` bytes at a character's end: what the session says
    /// by itself (a segment's name, a cue's text) has no bound of its own.
    package static func cut(_ text: String) -> String {
        guard text.utf8.count > longestText else { return text }
        var bytes = 0
        let kept = text.prefix { character in
            bytes += character.utf8.count
            return bytes <= longestText
        }
        return String(kept)
    }
}

/// The hooks' sounds or texts still waiting or playing, on the scheduler's clock (workout
/// seconds), for the bound in all. Each is forgotten once its time has passed.
struct WaitingToBeHeard {
    private var queued: [(ends: Double, seconds: Double)] = []

    /// Seconds waiting or playing at `now`.
    mutating func seconds(at now: Double) -> Double {
        queued.removeAll { $0.ends <= now }
        return queued.reduce(0) { $0 + $1.seconds }
    }

    /// Adds something heard for `seconds` of real time from `now`, at `speed` workout
    /// seconds a real second; nil once added, or the seconds already waiting when it
    /// would go past `HeardLimits.waitingSeconds`.
    mutating func add(_ seconds: Double, at now: Double, speed: Double) -> Double? {
        let waiting = self.seconds(at: now)
        guard waiting + seconds <= HeardLimits.waitingSeconds else { return waiting }
        queued.append((now + seconds * speed, seconds))
        return nil
    }
}
