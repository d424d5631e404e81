import IntervalEngine
import Platform
import WorkoutValues

/// Whether loading a routine reads the sound files it names. A run, `check` and
/// `sound-check` decode them (`decoded`), so a bad file is an error before anything
/// plays; `list`, `plan`, `export` and completion only need the timeline, and read none.
public enum SoundFileReading: Sendable {
    /// Names are kept, nothing is read; the sounds play nothing.
    case skipped
    /// Found beside the routine, then in the user's sounds folder, and decoded; the
    /// user's default sounds (`UserSounds`) apply under the routine's own.
    case decoded(UserDirectories)
}

/// The sound files one routine names, each decoded once while it loads however often it
/// is named (`sounds`, `sound_files`), so a hook's `sound("knock.ogg")` plays samples
/// already in memory. At most `mostFiles` files and `mostSeconds` of sound in all: each
/// second of a file is held as samples (about 190 KB at 48 kHz) for the whole run.
package struct RoutineSoundFiles {
    package let reading: SoundFileReading
    package let folders: SoundFolders
    private(set) var files: [String: SoundFile] = [:]
    /// In the order they were first named, for `sound-check`.
    package private(set) var names: [String] = []
    private var seconds = 0.0

    package static let mostFiles = 32
    package static let mostSeconds = 120.0

    package init(reading: SoundFileReading, folders: SoundFolders) {
        self.reading = reading
        self.folders = folders
    }

    /// Nothing read: a routine given as text, the fuzzer, a dry check of the timeline.
    package static let skipped = RoutineSoundFiles(reading: .skipped, folders: SoundFolders(folders: []))

    /// The file `name`, decoded now if it was not before.
    package mutating func file(_ name: String) throws(SoundFileError) -> SoundFile {
        if let known = files[name] { return known }
        let file: SoundFile
        switch reading {
        case .skipped:
            guard !name.isEmpty else { throw SoundFileError("a sound file's name is empty") }
            file = SoundFile(name: name, samples: [], rate: 48_000)
        case .decoded:
            guard files.count < Self.mostFiles else {
                throw SoundFileError("sound file \(SoundFile.quoted(name)): a routine may name at most "
                                     + "\(Self.mostFiles) sound files")
            }
            file = try SoundFile.load(name, folders: folders)
            guard seconds + file.seconds <= Self.mostSeconds else {
                throw SoundFileError("sound file \(SoundFile.quoted(name)) lasts \(Number.format(Number.rounded(file.seconds, places: 1))) s "
                                     + "and the files named before it \(Number.format(Number.rounded(seconds, places: 1))) s; "
                                     + "a routine's sound files may last \(Number.format(Self.mostSeconds)) s in all")
            }
        }
        seconds += file.seconds
        files[name] = file
        names.append(name)
        return file
    }

    /// The file `name` if it was named while the routine loaded; nothing is read now.
    package func decoded(_ name: String) -> SoundFile? { files[name] }
}
