import WorkoutValues

/// A hook's `sound("knock.ogg")` of a file the routine names neither in `sounds` nor in
/// `sound_files`. Files are decoded only while the routine loads, so it plays nothing:
/// its alert says so at run time, and `workout check` warns of it before anyone trains.
public struct UndeclaredSound: Sendable, Hashable {
    /// The name as the hook gave it.
    public var name: String
    /// The routine's file name and the line of the `sound()` call.
    public var file: String
    public var line: Int

    /// The alert's text while the workout runs.
    package var alertText: String {
        "\(name): not heard, \(file):\(line) plays a file the routine does not name in sounds or sound_files"
    }

    /// `workout check`'s warning, escaped for a terminal.
    public var warning: String {
        VisibleText.escape("\(file):\(line): sound(\"\(name)\") plays a file the routine does not name in sounds "
                           + "or sound_files, so it is not heard; add it to sound_files = { \"\(name)\" }")
    }

    package init(name: String, file: String, line: Int) {
        self.name = name
        self.file = file
        self.line = line
    }
}

/// The undeclared sounds a run met, each place and name once, in the order met; a hook
/// that makes up names is kept to the first `most`.
package struct UndeclaredSounds {
    package static let most = 100
    package private(set) var all: [UndeclaredSound] = []
    private var seen: Set<UndeclaredSound> = []

    package mutating func insert(_ sound: UndeclaredSound) {
        guard all.count < Self.most, seen.insert(sound).inserted else { return }
        all.append(sound)
    }

    package init() {}
}
