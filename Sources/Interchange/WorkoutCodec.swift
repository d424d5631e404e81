import IntervalEngine

/// One workout file format: how `workout import` reads it and `workout export` writes it,
/// and what the commands say of it. The commands look the codec up (`WorkoutFormat.codec`)
/// and never switch over the formats themselves, so a new format is a codec here, its
/// case in `WorkoutFormat`, and its docs.
public protocol WorkoutCodec: Sendable {
    /// What `import` says it read, and the imported routine's header: "a Zwift workout".
    var title: String { get }
    /// What export's warnings say the routine is not in: "intervals.icu text".
    var exportedAs: String { get }
    /// The file name extensions that name the format, lower case.
    var pathExtensions: [String] { get }
    /// Bytes, not text: never written to a terminal.
    var isBinary: Bool { get }
    /// Whether a step can wait for the athlete: FIT's `open` duration and intervals.icu's
    /// `press lap` (the lap button ends it); the others write its expected length.
    var endsOpenSteps: Bool { get }
    /// Whether a step can end on a distance: intervals.icu's `400mtr`, FIT's distance
    /// duration, a Zwift run in distance; the others write its expected length.
    var takesDistances: Bool { get }

    func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String])
    /// The file's bytes, and what the format cannot hold (named in warnings).
    func write(_ workout: WorkoutFile, options: ExportOptions) throws(WorkoutExportProblem) -> (bytes: [UInt8], unwritten: [String])
}

extension WorkoutCodec {
    public var isBinary: Bool { false }
    public var endsOpenSteps: Bool { false }
    public var takesDistances: Bool { false }
}

/// What `workout export` hands every writer besides the workout; each takes what concerns it.
public struct ExportOptions: Sendable {
    /// A FIT workout's sport (nil: implied by its targets).
    public var sport: FITWorkoutWriter.Sport?
    /// The athlete's FTP, to convert a course's power between watts and percent.
    public var ftp: Double?

    public init(sport: FITWorkoutWriter.Sport? = nil, ftp: Double? = nil) {
        self.sport = sport
        self.ftp = ftp
    }
}

/// Zwift's XML workout file.
struct ZwiftCodec: WorkoutCodec {
    var title: String { "a Zwift workout" }
    var exportedAs: String { "a Zwift workout" }
    var pathExtensions: [String] { ["zwo"] }
    /// A run of distance steps only (`durationType` distance); a mix goes as time.
    var takesDistances: Bool { true }

    func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        try ZwiftReader.read(bytes, file: file)
    }

    func write(_ workout: WorkoutFile, options: ExportOptions) -> (bytes: [UInt8], unwritten: [String]) {
        let (text, unwritten) = ZwiftWriter.text(workout)
        return (Array(text.utf8), unwritten)
    }
}

/// intervals.icu's workout text.
struct IntervalsCodec: WorkoutCodec {
    var title: String { "intervals.icu workout text" }
    var exportedAs: String { "intervals.icu text" }
    var pathExtensions: [String] { ["txt"] }
    var endsOpenSteps: Bool { true }
    var takesDistances: Bool { true }

    func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        try IntervalsReader.read(bytes, file: file)
    }

    func write(_ workout: WorkoutFile, options: ExportOptions) -> (bytes: [UInt8], unwritten: [String]) {
        let (text, unwritten) = IntervalsWriter.text(workout)
        return (Array(text.utf8), unwritten)
    }
}

/// Garmin's FIT workout file (file type 5).
struct FITWorkoutCodec: WorkoutCodec {
    var title: String { "a FIT workout" }
    var exportedAs: String { "a FIT workout" }
    var pathExtensions: [String] { ["fit"] }
    var isBinary: Bool { true }
    var endsOpenSteps: Bool { true }
    var takesDistances: Bool { true }

    func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        try FITWorkoutReader.read(bytes, file: file)
    }

    func write(_ workout: WorkoutFile, options: ExportOptions) -> (bytes: [UInt8], unwritten: [String]) {
        let (bytes, unwritten) = FITWorkoutWriter.bytes(workout, sport: options.sport)
        return (bytes, unwritten)
    }
}

/// A trainer course, `.erg` (watts) or `.mrc` (percent of FTP): one reader reads both.
struct CourseCodec: WorkoutCodec {
    let course: CourseFormat

    var title: String { course == .erg ? "an .erg course" : "an .mrc course" }
    var exportedAs: String { title }
    var pathExtensions: [String] { [course == .erg ? "erg" : "mrc"] }

    func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        try CourseReader.read(bytes, file: file)
    }

    func write(_ workout: WorkoutFile, options: ExportOptions) throws(WorkoutExportProblem) -> (bytes: [UInt8], unwritten: [String]) {
        let (text, unwritten) = try CourseWriter.text(workout, format: course, ftp: options.ftp)
        return (Array(text.utf8), unwritten)
    }
}
