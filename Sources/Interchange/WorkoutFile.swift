import IntervalEngine
import WorkoutValues

/// A workout as other tools keep it — a Zwift `.zwo` file or intervals.icu workout text —
/// between reading and writing: steps with a kind, a name, a duration, targets and timed
/// text, some repeated. Both formats read into it and are written from it, and a routine's
/// timeline becomes one for `workout export`, so each format needs one reader and one
/// writer rather than one per pair.
public struct WorkoutFile: Equatable {
    public var name: String?
    public var description: String?
    public var author: String?
    public var tags: [String] = []
    public var parts: [Part] = []

    public init() {}

    public enum Part: Equatable {
        case step(Step)
        /// `count` times the steps in order: a Zwift `IntervalsT`, an intervals.icu `Nx`
        /// section, a `rounds()` in Lua.
        case repeats(count: Int, name: String?, steps: [Step])
    }

    public struct Step: Equatable {
        public var kind: String
        public var name: String
        public var duration: Double
        public var targets: Targets
        /// Text shown at seconds from the step's start (Zwift text events, intervals.icu
        /// timed prompts, a routine's text cues).
        public var prompts: [Prompt]
        /// Ended by the athlete (a FIT step of duration `open`: the device's lap button);
        /// `duration` is then its expected length.
        public var open: Bool
        /// Text the device shows with the step (a FIT step's `notes`, a segment's `info.notes`).
        public var notes: String?
        /// Where the step was read from, for messages (0 when it was not read from a file).
        public var line: Int
        /// A distance step's metres (`- 400mtr`, a FIT step of duration distance): it
        /// ends when they are covered, `duration` is what it is expected to take.
        public var distance: Double?

        public init(kind: String, name: String, duration: Double, targets: Targets = Targets(),
                    prompts: [Prompt] = [], open: Bool = false, notes: String? = nil, line: Int = 0) {
            self.kind = kind
            self.open = open
            self.notes = notes
            self.name = name
            self.duration = duration
            self.targets = targets
            self.prompts = prompts
            self.line = line
        }
    }

    public struct Prompt: Hashable {
        public var offset: Double
        public var text: String

        public init(offset: Double, text: String) {
            self.offset = offset
            self.text = text
        }
    }

    /// Where the workout grows past the segments a routine may hold (it would not load):
    /// the line of the step or repeat that crosses the limit.
    func lineOverSegmentLimit() -> Int? {
        var total = 0
        for part in parts {
            switch part {
            case .step(let step):
                total += 1
                if total > Routine.maximumSegments { return step.line }
            case let .repeats(count, _, steps):
                total += count * steps.count
                if total > Routine.maximumSegments { return steps.first?.line ?? 1 }
            }
        }
        return nil
    }

    static let tooManySegments = "the workout unrolls to more than \(Routine.maximumSegments) segments, more than a routine may hold"

    /// Every step in order, repeats unrolled: what the workout will run.
    public var unrolled: [Step] {
        parts.flatMap { part -> [Step] in
            switch part {
            case .step(let step): [step]
            case let .repeats(count, _, steps): (0..<count).flatMap { _ in steps }
            }
        }
    }
}

/// The formats `workout import` reads and `workout export` writes.
public enum WorkoutFormat: String, CaseIterable, Sendable {
    /// Zwift's XML workout file.
    case zwo
    /// intervals.icu's workout text (what it sends on to Garmin and other devices).
    case icu
    /// Garmin's FIT workout file (file type 5), what a Garmin device runs.
    case fit
    /// The trainer course in minutes and watts (GoldenCheetah, TrainerRoad, Wahoo).
    case erg
    /// The trainer course in minutes and percent of FTP.
    case mrc

    /// Its reader and writer: the one place a format is mapped to its code.
    public var codec: any WorkoutCodec {
        switch self {
        case .zwo: ZwiftCodec()
        case .icu: IntervalsCodec()
        case .fit: FITWorkoutCodec()
        case .erg: CourseCodec(course: .erg)
        case .mrc: CourseCodec(course: .mrc)
        }
    }

    /// `.zwo`, `.txt`, `.fit`, `.erg` and `.mrc` name their format; anything else needs `--format`.
    public init?(pathExtension: String) {
        let named = pathExtension.lowercased()
        guard let format = Self.allCases.first(where: { $0.codec.pathExtensions.contains(named) }) else { return nil }
        self = format
    }
}
