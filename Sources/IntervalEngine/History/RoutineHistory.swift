import Foundation

/// The history as a routine reads it (`history` in Lua): the sessions of this routine
/// only — matched by its name, as `workout history stats` groups them — newest first,
/// read from the end of the file as far as the routine asks. It holds no path the
/// routine can see and cannot write.
///
/// While a routine loads its name is not known yet: a first load sees an empty history
/// and notes that it asked (`asked`); the loader then loads it again with the name
/// (`RoutineLoader`).
public final class RoutineHistory {
    /// Where the history is read from; nil for `--no-history` (an empty history).
    public let file: HistoryFile?
    /// The routine's name; nil while it is not known (a first load).
    public var name: String?
    /// The routine read its history while its name was not known.
    public private(set) var asked = false
    /// Bytes read from the file so far (tests and benchmarks).
    public private(set) var bytesRead = 0
    /// The newest entries of this routine read so far, newest first, up to `cached`.
    private var newest: [HistoryEntry] = []
    /// `newest` holds every entry of the routine.
    private var complete = false
    /// How many entries are kept for `history[i]` without reading again.
    static let cached = 1_000

    public init(file: HistoryFile?, name: String? = nil) {
        self.file = file
        self.name = name
    }

    /// An empty history (`--no-history`, the fuzzer).
    public static var none: RoutineHistory { RoutineHistory(file: nil) }

    /// Each entry of this routine, newest first, until `body` returns false.
    public func forEach(_ body: (HistoryEntry) -> Bool) {
        guard let file else { return }
        guard let name else {
            asked = true
            return
        }
        if complete {
            for entry in newest where !body(entry) { return }
            return
        }
        var kept: [HistoryEntry] = []
        var stopped = false
        bytesRead += file.forEachEntryNewestFirst(program: name) { entry in
            guard entry.program == name else { return true }
            if kept.count < Self.cached { kept.append(entry) }
            if body(entry) { return true }
            stopped = true
            return false
        }
        if kept.count > newest.count { newest = kept }
        if !stopped && kept.count < Self.cached { complete = true }
    }

    /// The `index`th newest entry (from 1), or nil.
    public func entry(_ index: Int) -> HistoryEntry? {
        guard index >= 1 else { return nil }
        if index <= newest.count { return newest[index - 1] }
        if complete { return nil }
        var seen = 0
        var found: HistoryEntry?
        forEach { entry in
            seen += 1
            if seen == index { found = entry }
            return seen < index
        }
        return found
    }
}
