import CLua
import IntervalEngine

extension LuaState {
    /// Calls a function held in the registry, as a hook is called (same limits, same
    /// message handler), and says whether its first result is true in Lua's sense (neither
    /// nil nor false): an open segment's `until`. The stack is left as it was.
    func test(_ ref: LuaRef, what: String, pushArguments: (LuaState) -> Int32) throws(LuaError) -> Bool {
        let guarded = StackGuard(L, "a condition call")
        let base = top
        workout_pushmsgh(L)
        refs.push(ref)
        let count = pushArguments(self)
        defer {
            lua_settop(L, base)
            guarded.check()
        }
        try call(arguments: count, results: 1, handler: base + 1, budget: limits.hookInstructions,
                 seconds: limits.hookSeconds, what: what)
        return lua_toboolean(L, -1) != 0
    }
}
