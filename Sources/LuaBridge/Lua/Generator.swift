import CLua
import IntervalEngine
import WorkoutValues

/// A `generate(fn)` step while it runs: `fn` in a coroutine of its own, resumed each time
/// the timeline needs its next segment, so it runs only as far as the workout has got and
/// sees what the hooks changed until then. Each resume has a hook call's instruction
/// budget and the memory cap: an endless loop between two yields stops like one in a hook.
///
/// `fn` receives `run`, one table updated before every resume (and returned by
/// `coroutine.yield` too): `run.index`, the number the next segment will get, and
/// `run.elapsed`, workout seconds done so far, pauses not counted (in `plan`, the planned
/// seconds). What `fn` yields (or returns) are steps: segments or `rounds`; yielding
/// nothing, or `nil`, or returning, ends it.
final class Generator: SegmentGenerator {
    private let lua: LuaState
    private let spec: GeneratorSpec
    private let thread: OpaquePointer
    private let threadRef: LuaRef
    private let progress: LuaRef
    private var started = false
    /// `fn` has ended: it returned, failed or yielded nothing.
    private(set) var isFinished = false

    init(_ spec: GeneratorSpec, lua: LuaState) {
        self.lua = lua
        self.spec = spec
        thread = lua_newthread(lua.L)
        threadRef = lua.refs.make(at: -1)
        lua.stack.pop()
        lua_createtable(lua.L, 0, 2)
        progress = lua.refs.make(at: -1)
        lua.stack.pop()
    }

    /// Runs `fn` to its next yield and returns the steps it gave, in order (usually
    /// one); none once it has ended. A Lua error, or a value that is not a fixed step,
    /// is thrown naming the routine's line; the generator is finished then.
    func next(index: Int, elapsed: Double) throws(LuaError) -> [Step] {
        guard !isFinished else { return [] }
        // A routine that kept the coroutine (`coroutine.running()`) and resumed it
        // itself may have ended it.
        guard !started || lua_status(thread) == LUA_YIELD else {
            isFinished = true
            return []
        }
        let L = lua.L
        if !started { lua.refs.push(spec.function) }
        lua.refs.push(progress)
        let table = lua.top
        for (key, value) in [("index", Double(index)), ("elapsed", Number.rounded(elapsed, places: 6))] {
            lua.stack.push(key)
            lua.stack.push(value)
            lua_rawset(L, table)
        }
        lua_xmove(L, thread, started ? 1 : 2)
        started = true
        let resumed: LuaState.Resumed
        do {
            resumed = try lua.resume(thread, arguments: 1)
        } catch {
            isFinished = true
            throw error
        }
        let (count, returned): (Int32, Bool) = switch resumed {
        case .yielded(let count): (count, false)
        case .returned(let count): (count, true)
        }
        let stack = LuaStack(thread)
        defer { stack.pop(count) }
        let first = stack.top - count + 1
        guard count > 0, stack.type(at: first) != LUA_TNIL else {
            isFinished = true
            return []
        }
        var steps: [Step] = []
        for position in first...stack.top {
            guard let raw = luaL_testudata(thread, position, RoutineAPI.stepMetatable),
                  let step = lua.builder.step(raw.load(as: Int.self)) else {
                isFinished = true
                throw failure("\(returned ? "returned" : "yielded") \(stack.describe(at: position)), "
                              + "expected a step such as work(20) or rounds(…)", returned: returned)
            }
            guard !step.isOpenEnded else {
                isFinished = true
                throw failure("\(returned ? "returned" : "yielded") a step holding generate(…); "
                              + "a generator gives fixed steps (segments and rounds)", returned: returned)
            }
            steps.append(step)
        }
        if returned { isFinished = true }
        return steps
    }

    /// Lets the coroutine and the table go: the routine's memory does not grow with
    /// every generator a long workout has run.
    func close() {
        isFinished = true
        lua.refs.release(threadRef)
        lua.refs.release(progress)
    }

    /// `hiit.lua:12: generate: …`, at the line of the `coroutine.yield` (or, once `fn`
    /// has returned, of the `generate` call).
    private func failure(_ message: String, returned: Bool) -> LuaError {
        var line = spec.line
        var record = lua_Debug()
        if !returned {
            // Level 0 is `coroutine.yield` itself; level 1 the routine's code that called it.
            for level: Int32 in [1, 0] where lua_getstack(thread, level, &record) != 0 {
                if lua_getinfo(thread, "l", &record) != 0, record.currentline > 0 {
                    line = Int(record.currentline)
                    break
                }
            }
        }
        return LuaError(message: "\(lua.chunkName):\(line): generate: \(message)", traceback: nil)
    }
}
