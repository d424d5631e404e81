import Platform
import WorkoutValues

/// Reading a routine (or a module it requires) from disk, through `BoundedFile`: a
/// regular file of at most `maximumSize` bytes, checked before it is read.
public enum RoutineFile {
    /// 4 MiB: hundreds of times a long routine.
    package static let maximumSize = 4 * 1024 * 1024

    public enum Problem: Error {
        case missing
        case directory
        case notRegular
        case tooBig(Int)
        case unreadable(String)

        /// Finishes "<path>: …".
        public var explanation: String {
            switch self {
            case .missing: "no such routine file"
            case .directory: "cannot read the routine (it is a directory)"
            case .notRegular: "not a regular file (a routine is a .lua file)"
            case .tooBig(let size):
                "the file is \(Number.format(Number.rounded(Double(size) / 1_048_576, places: 1))) MiB; "
                    + "a routine file may be at most \(maximumSize / 1_048_576) MiB"
            case .unreadable(let reason): "cannot read the routine: \(reason)"
            }
        }
    }

    public static func read(_ path: String) throws(Problem) -> [UInt8] {
        do {
            return try BoundedFile.read(path, maximumSize: maximumSize)
        } catch {
            switch error {
            case .missing: throw .missing
            case .directory: throw .directory
            case .notRegular: throw .notRegular
            case let .tooBig(size, _): throw .tooBig(size)
            case .unreadable(let reason): throw .unreadable(reason)
            }
        }
    }
}
