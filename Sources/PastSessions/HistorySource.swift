/// Where a routine's past sessions come from (the `History` module's `HistoryFile`), as
/// the engine sees it: a routine reads its sessions through `RoutineHistory`, which asks
/// this for them, so the engine does not depend on how the history is stored.
public protocol HistorySource: Sendable {
    /// Each session of the routine called `name`, newest first, to `session` until it
    /// returns false (others may be passed too: the caller matches the name). Returns how
    /// many bytes it read.
    func forEachSession(named name: String, _ session: (HistoryEntry) -> Bool) -> Int
}
