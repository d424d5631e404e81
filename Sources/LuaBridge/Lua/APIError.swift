import CLua
import IntervalEngine

/// `APIError` (the session's, `Session/RoutineActions.swift`) raised in Lua: `entry` turns
/// it into a Lua error raised by the C trampoline, prefixed with the routine's file:line.
extension APIError {
    /// Runs the body of a Swift function exposed to Lua and maps a thrown error to the
    /// trampoline's error return.
    static func entry(_ L: OpaquePointer?, _ body: (LuaStack, LuaState) throws(APIError) -> Int32) -> Int32 {
        let stack = LuaStack(L)
        let guarded = StackGuard(L, "a Swift function called from Lua")
        do {
            let results = try body(stack, LuaState.from(L))
            guarded.check(results: results)
            return results
        } catch {
            return stack.raise(error.message)
        }
    }
}
