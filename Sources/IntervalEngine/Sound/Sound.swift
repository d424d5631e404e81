/// A sound the player makes in the process: a name (as the `alert` event shows it) and
/// the notes it is made of, played one after another, or a sound file the routine named.
/// Sounds are told apart by pitch, length and number of notes, so each is known without
/// looking at the screen.
public struct Sound: Sendable, Hashable {
    /// `pip`, `go`, …, `tone` for a routine's own notes, or a file's name as the routine
    /// gave it (`gong.ogg`).
    public var name: String
    public var notes: [Note]
    /// A sound file decoded when the routine was loaded, heard from the sound's start.
    public var file: SoundFile?
    /// 0…1 of the player's volume, for the file (`{ file = "gong.ogg", volume = 0.8 }`).
    public var fileVolume: Double
    /// Words rendered ahead (`--voice` with espeak-ng), heard with the notes.
    public var speech: Speech?

    public init(name: String, notes: [Note], speech: Speech? = nil) {
        self.name = name
        self.notes = notes
        self.file = nil
        self.fileVolume = 1
        self.speech = speech
    }

    /// A sound file, played at `volume` of the player's volume.
    public init(file: SoundFile, volume: Double = 1) {
        name = file.name
        notes = []
        self.file = file
        fileVolume = volume
        speech = nil
    }

    /// How long it plays, in seconds.
    public var seconds: Double {
        let notes = max(notes.reduce(0) { $0 + $1.seconds }, file?.seconds ?? 0)
        guard let speech else { return notes }
        return max(notes, speech.offset + speech.seconds)
    }

    /// A routine's notes may last this long in all: an alert, not a song (and the sound
    /// server's buffer holds it whole).
    public static let maximumSeconds = 10.0
}

/// One note: a sine at `hz` for `seconds`, at `volume` (0…1) of the player's volume. A
/// note of 0 Hz is a rest between notes. Each note fades in and out, so none clicks.
public struct Note: Sendable, Hashable {
    public var hz: Double
    public var seconds: Double
    public var volume: Double
    /// A chime's note rings out (its loudness falls away) instead of holding steady.
    public var ringing: Bool

    public init(hz: Double, seconds: Double, volume: Double = 1, ringing: Bool = false) {
        self.hz = hz
        self.seconds = seconds
        self.volume = volume
        self.ringing = ringing
    }

    static func rest(_ seconds: Double) -> Note { Note(hz: 0, seconds: seconds, volume: 0) }

    /// What `tone{}` accepts: audible pitches, lengths a person hears as one note up to
    /// a long call, and a volume that cannot clip.
    public static let hzRange: ClosedRange<Double> = 20...20_000
    public static let millisecondsRange: ClosedRange<Double> = 10...5_000
    public static let volumeRange: ClosedRange<Double> = 0...1
    /// A list of notes longer than this is a mistake (or a song), not an alert.
    public static let maximumNotes = 32
}

extension Sound {
    /// The sounds a routine names with `sound("…")` and in `workout{ sounds = … }`.
    /// Countdown pips are short and mid-high; `go` is the long high call of a gym timer;
    /// `rest` steps down; `start` is a plain mid note for other kinds; `finish` is a
    /// rising chime that rings out; `pause` and `resume` are short pairs going down and up.
    public static let builtIn: [Sound] = [
        Sound(name: "pip", notes: [Note(hz: 1000, seconds: 0.1)]),
        Sound(name: "go", notes: [Note(hz: 1500, seconds: 0.45)]),
        Sound(name: "rest", notes: [Note(hz: 880, seconds: 0.18), .rest(0.04), Note(hz: 587, seconds: 0.3)]),
        Sound(name: "start", notes: [Note(hz: 660, seconds: 0.3)]),
        Sound(name: "finish", notes: [Note(hz: 1047, seconds: 0.16, ringing: true), Note(hz: 1319, seconds: 0.16, ringing: true),
                                      Note(hz: 1568, seconds: 0.16, ringing: true), Note(hz: 2093, seconds: 0.7, ringing: true)]),
        Sound(name: "pause", notes: [Note(hz: 523, seconds: 0.09), .rest(0.03), Note(hz: 392, seconds: 0.12)]),
        Sound(name: "resume", notes: [Note(hz: 392, seconds: 0.09), .rest(0.03), Note(hz: 523, seconds: 0.12)]),
    ]

    /// What each built-in sound is for, as `sound-check` and the docs say it.
    public static let purposes: [String: String] = [
        "pip": "each of the last countdown seconds",
        "go": "a work segment starts",
        "rest": "a rest starts",
        "start": "any other segment starts",
        "finish": "the workout is done",
        "pause": "the workout pauses",
        "resume": "the workout goes on",
    ]

    public static var names: [String] { builtIn.map(\.name) }

    /// Whether a name that is not a built-in sound's names a file: it has an extension
    /// (`gong.ogg`), so a misspelt built-in (`"boop"`) is an error, not a missing file.
    public static func isFileName(_ name: String) -> Bool {
        let last = name.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return false }
        return last.index(after: dot) != last.endIndex
    }

    public static func named(_ name: String) -> Sound? {
        builtIn.first { $0.name == name }
    }
}
