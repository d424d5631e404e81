import Foundation
import IntervalEngine
import WorkoutValues

/// The history as a routine reads it (`history` in Lua): the sessions of this routine
/// only — matched by its name, as `workout history stats` groups them — newest first,
/// read from the end of the file as far as the routine asks. It holds no path the
/// routine can see and cannot write.
///
/// The queries over the whole history (`history.count`, `#history`, `history.best`, and
/// `history.last`, `latest` and `days_since` when the newest 1,000 sessions do not answer
/// them) are answered from a `Summary` made in one pass and kept: a hook that counts a
/// million sessions at every segment reads the file once, not at every call. A routine
/// whose source asks for a count or a best has it made while it loads (`prime`), before
/// the workout starts, so no timer waits for it.
///
/// While a routine loads its name is not known yet: a first load sees an empty history
/// and notes that it asked (`asked`); the loader then loads it again with the name
/// (`RoutineLoader`).
public final class RoutineHistory {
    /// Where the history is read from (the history file); nil for `--no-history` (an
    /// empty history).
    public let file: (any HistorySource)?
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

    public init(file: (any HistorySource)?, name: String? = nil) {
        self.file = file
        self.name = name
    }

    /// An empty history (`--no-history`, the fuzzer).
    public static var none: RoutineHistory { RoutineHistory(file: nil) }

    /// What the whole-history queries need, from one pass over every entry of the routine.
    public struct Summary: Sendable, Equatable {
        public var count = 0
        public var completed = 0
        /// The newest entry's position (from 1) and start, for each filter: any session
        /// (nil), finished ones (true), stopped ones (false).
        public var newest: [Bool?: Newest] = [:]
        /// Each score's newest value, and its best by its direction (ties: the newer).
        public var latest: [String: Score] = [:]
        public var best: [String: Score] = [:]

        public struct Newest: Sendable, Equatable {
            public var index: Int
            public var started: Date

            package init(index: Int, started: Date) {
                self.index = index
                self.started = started
            }
        }

        /// The sessions that match `completed` (nil: all).
        public func count(completed filter: Bool?) -> Int {
            switch filter {
            case nil: count
            case true?: completed
            case false?: count - completed
            }
        }

        mutating func add(_ entry: HistoryEntry) {
            count += 1
            if entry.completed { completed += 1 }
            for filter in [nil, entry.completed] as [Bool?] where newest[filter] == nil {
                newest[filter] = Newest(index: count, started: entry.started)
            }
            for score in entry.scores {
                if latest[score.name] == nil { latest[score.name] = score }
                if best[score.name].map({ score.beats($0.value) }) ?? true { best[score.name] = score }
            }
        }
    }

    private var made: Summary?

    /// The summary of every entry of this routine, made once (an empty one, not kept,
    /// while the name is not known).
    public func summary() -> Summary {
        if let made { return made }
        var summary = Summary()
        forEach { entry in
            summary.add(entry)
            return true
        }
        if name != nil && file != nil { made = summary }
        return summary
    }

    /// The words of a source that query the whole history whatever it holds.
    static let wholeQueries = ["history.count", "history.best", "#history"]

    /// Makes the summary now, while the routine loads, when its source asks for a count or
    /// a best: the one pass over the file is then never a hook's.
    package func prime(for source: [UInt8]) {
        guard name != nil, file != nil, made == nil else { return }
        let text = String(decoding: source, as: UTF8.self)
        guard Self.wholeQueries.contains(where: text.contains) else { return }
        _ = summary()
    }

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
        bytesRead += file.forEachSession(named: name) { entry in
            guard entry.program == name else { return true }
            if kept.count < Self.cached { kept.append(entry) }
            if body(entry) { return true }
            stopped = true
            return false
        }
        if kept.count > newest.count { newest = kept }
        if !stopped && kept.count < Self.cached { complete = true }
    }

    /// Each of the newest `cached` entries, newest first, until `body` returns false: from
    /// memory once they are read, else a few blocks from the end of the file.
    package func forEachKept(_ body: (HistoryEntry) -> Bool) {
        if complete || newest.count >= Self.cached {
            for entry in newest where !body(entry) { return }
            return
        }
        var seen = 0
        forEach { entry in
            seen += 1
            guard seen <= Self.cached else { return false }
            return body(entry)
        }
    }

    /// Whether the entries `forEachKept` walks are all there are.
    package var keptAll: Bool { complete }

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
