import CLua
import IntervalEngine
import Synchronization

/// A debug-build check that a call into Lua, or a Swift function Lua calls, leaves the
/// Lua stack as high as it should (Hammerspoon's `_lua_stackguard_entry`/`_exit`): a
/// value pushed and never popped is a leak that grows with every hook until Lua's stack
/// overflows hours into a workout. In a debug build (every test run) a leak stops the
/// process at once, naming the place; a release build does no check.
struct StackGuard {
    /// What a leak does: stops the process (a test swaps in a recorder). Read on whichever
    /// thread runs Lua, so it is behind a `Mutex`.
    static let violated = Mutex<@Sendable (String) -> Void>({ preconditionFailure($0) })

    #if DEBUG
    private let L: OpaquePointer?
    private let entry: Int32
    private let place: StaticString
    #endif

    init(_ L: OpaquePointer?, _ place: StaticString) {
        #if DEBUG
        self.L = L
        entry = lua_gettop(L)
        self.place = place
        #endif
    }

    /// The stack must be `results` values above where it was at entry.
    func check(results: Int32 = 0) {
        #if DEBUG
        let top = lua_gettop(L)
        if top != entry + results {
            let violated = StackGuard.violated.withLock { $0 }
            violated("Lua stack leak in \(place): \(top) values at exit, expected \(entry + results)")
        }
        #endif
    }
}
