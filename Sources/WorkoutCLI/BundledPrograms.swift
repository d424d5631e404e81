import Foundation

/// Where the routines shipped with workout are. Installed (`make install`, the .deb) they
/// are in `../share/workout/programs` beside the executable; in a build tree, in the
/// resource bundle SwiftPM puts next to the binary. Looked up by hand rather than through
/// `Bundle.module`, which would crash a binary copied without its bundle: here a missing
/// folder is an error that says where it looked.
enum BundledPrograms {
    /// The places looked in, in order, beside the executable with its links resolved (so
    /// a link in `~/bin` to an installed binary still finds the installation's programs).
    static let candidates: [String] = {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return [] }
        let directory = executable.deletingLastPathComponent()
        return [
            directory.appendingPathComponent("../share/workout/programs").standardizedFileURL.path,
            directory.appendingPathComponent("workout_workout.resources/programs").path,
        ]
    }()

    /// The first candidate that is a directory; nil when none is.
    static let directory: String? = candidates.first { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// What to say when there is no directory: where it looked, and how to get one.
    static var missing: String {
        let places = candidates.isEmpty ? "the executable's own path is unknown"
            : "neither " + candidates.joined(separator: " nor ") + " exists"
        return "the bundled programs are missing: \(places) (install workout with `make install` or its "
            + ".deb, or keep the build's workout_workout.resources beside the binary)"
    }
}
