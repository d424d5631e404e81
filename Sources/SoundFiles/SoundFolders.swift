import Foundation
import IntervalEngine
import Platform

/// The two folders a routine's sound files are read from: the routine's own, then the
/// user's `$XDG_CONFIG_HOME/workout/sounds/`. Nothing outside them is read: a name with a
/// `..` in it, an absolute path elsewhere and a symbolic link that leads out are refused,
/// so a routine someone shares cannot make workout read (and report on) any other file.
public struct SoundFolders: Sendable, Equatable {
    /// Searched in order; a folder that does not exist is passed over.
    public var folders: [String]

    public init(folders: [String]) {
        self.folders = folders
    }

    /// Beside the routine at `routinePath`, then the user's sounds folder.
    public init(routinePath: String, directories: UserDirectories) {
        let routineFolder = (routinePath as NSString).deletingLastPathComponent
        folders = [routineFolder.isEmpty ? "." : routineFolder, directories.sounds]
    }

    /// The file's real path (every symbolic link resolved), inside one of the folders.
    public func find(_ name: String) throws(SoundFileError) -> String {
        let quoted = SoundFile.quoted(name)
        guard !name.isEmpty, !name.contains("\0") else { throw SoundFileError("a sound file's name is empty") }
        guard !name.split(separator: "/").contains("..") else {
            throw SoundFileError("sound file \(quoted) names a parent folder (..); sound files are read only "
                                 + "beside the routine or in \(folders.last ?? "")")
        }
        let roots = folders.compactMap(Self.realPath)
        let candidates = name.hasPrefix("/") ? [name] : roots.map { ($0 as NSString).appendingPathComponent(name) }
        for candidate in candidates {
            guard let real = Self.realPath(candidate) else { continue }
            guard roots.contains(where: { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
                throw SoundFileError("sound file \(quoted) is outside the routine's folder and \(folders.last ?? ""); "
                                     + "sound files are read only there")
            }
            return real
        }
        guard folders.count > 1 else { throw SoundFileError("sound file \(quoted) is not in \(folders.last ?? "")") }
        throw SoundFileError("sound file \(quoted) is neither beside the routine nor in \(folders.last ?? "")")
    }

    /// The path with every symbolic link and `.` resolved, or nil where nothing is there.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension UserDirectories {
    /// The user's own sound files: `$XDG_CONFIG_HOME/workout/sounds`.
    public var sounds: String { config("sounds") }
}
