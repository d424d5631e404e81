import IntervalEngine

/// The user's "stop" reaching running Lua code. A signal handler (Ctrl-C, SIGTERM, a
/// closed terminal) cannot wait for the main queue while a hook runs, and the main queue
/// is where that hook runs: so the handler also raises this flag, which every Lua
/// state's count hook reads within a thousand instructions, whatever the limits. The
/// hook then raises `interrupted` at the routine's line, and keeps raising it until the
/// call is back in the engine; the main queue then ends the workout as asked.
public enum LuaInterrupt {
    /// Shared with C (`workout_context.interrupt`, read by the count hook), so a raw
    /// pointer, not an `Atomic` (whose address Swift does not hand out). Allocated when
    /// the first Lua state is made, before any handler can run, so the handler only
    /// stores to it: hence `nonisolated(unsafe)`.
    nonisolated(unsafe) static let flag: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Async-signal-safe: one store.
    public static func request() {
        flag.pointee = 1
    }

    /// Once the main queue has taken the request: the hooks that run while the workout
    /// ends (`on_finish`) run normally again.
    public static func clear() {
        flag.pointee = 0
    }

    /// Makes sure the flag exists before a signal handler may touch it.
    public static func prepare() {
        _ = flag
    }

    public static var isRequested: Bool { flag.pointee != 0 }
}

/// Time outside Lua that a running Lua call must not be charged for.
public enum LuaTime {
    /// Runs `body` (writing output a reader may be slow to take) with the running Lua
    /// call's time limit and watchdog stopped; outside a call it just runs `body`.
    public static func excluding<T>(_ body: () -> T) -> T {
        guard let state = LuaState.current else { return body() }
        return state.excludingTime(body)
    }
}
