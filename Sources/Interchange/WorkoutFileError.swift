import IntervalEngine
import WorkoutValues

/// A file `workout import` cannot read: names the file and line, and says what was
/// expected there. Nothing is written when one is thrown.
public struct WorkoutFileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `sweet-spot.zwo:12: …`, escaped for the terminal: the text quoted in a message comes
    /// from the file. Line 0 is a file without lines (FIT): `hiit.fit: step 3 …`.
    public var description: String { VisibleText.escape("\(WorkoutFileError.place(file, line)): \(message)") }

    static func place(_ file: String, _ line: Int) -> String { line > 0 ? "\(file):\(line)" : file }
}

/// What a reader skipped or could not carry over, to tell the user (`file:line: …`).
public struct WorkoutFileWarnings {
    public private(set) var lines: [String] = []
    let file: String

    init(file: String) {
        self.file = file
    }

    mutating func add(_ message: String, line: Int) {
        lines.append(VisibleText.escape("\(WorkoutFileError.place(file, line)): \(message)"))
    }
}
