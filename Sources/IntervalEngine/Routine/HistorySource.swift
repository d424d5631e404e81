/// Where a routine's past sessions come from (`HistoryFile`), as the loader sees it: the
/// loader knows the routine's name only once the file has run, and asks for the history
/// of that name then (`RoutineLoader`). The loader takes this, not the file, so that the
/// routine does not depend on how the history is stored.
public protocol HistorySource {
    /// The sessions of the routine called `name`, as its `history` reads them (nil: the
    /// name is not known yet).
    func sessions(named name: String?) -> RoutineHistory
}
