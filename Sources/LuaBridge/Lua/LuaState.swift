import CLua
import IntervalEngine
import PastSessions
import Platform
import SoundFiles

/// One Lua state per loaded routine. It owns the `lua_State`, the registry references
/// (through `refs`) and the bridge back to Swift: the routine builder while the file is
/// loading, the running session's actions while hooks run.
///
/// Everything here runs on one thread (the main run loop); the state is never shared.
final class LuaState {
    let L: OpaquePointer
    let refs: LuaRefs
    /// Collects the steps that constructors create while the routine file runs.
    var builder = RoutineBuilder()
    /// What the builder holds, in bytes charged to the memory cap.
    private var builderBytes = 0
    /// The routine's past sessions, as `history` reads them (empty unless the loader
    /// gives one).
    var history = RoutineHistory.none
    /// The sound files the routine names, decoded while it loads; what `sound()` plays.
    var routineSoundFiles = RoutineSoundFiles.skipped
    /// What `sounds = { … }` is laid over: the standard sounds under the user's defaults.
    var defaultSounds = SoundScheme.standard
    /// The files hooks asked to play that the routine does not name, for `workout check`.
    var undeclared = UndeclaredSounds()
    /// The running session, reached by `skip()`, `bell()` and the other actions.
    weak var actions: (any RoutineActions)?
    /// What the running call has asked to be heard, for `HeardLimits.perCall`: each call,
    /// an inner one too, counts its own.
    var heardThisCall = (sounds: 0, texts: 0)
    /// The file name (without directories) used as the chunk name: `hiit.lua:12: …`.
    let chunkName: String
    /// Where `require "name"` looks for `name.lua`: the routine's own directory (nil for
    /// a routine given as text, which can require nothing).
    let directory: String?

    let limits: LuaLimits
    /// Shared with C: the owner pointer, the instruction budget and the memory count.
    private let context: UnsafeMutablePointer<workout_context>
    /// What the watchdog says if a call of this state never comes back, by the call's
    /// name and time limit (`on_segment_start`, 5): built once each, kept in C memory.
    private var runaways: [String: (message: UnsafeMutablePointer<CChar>, length: Int)] = [:]
    /// The name of the call running now (`loading`, a hook's name, `generate`), for the
    /// watchdog's message once an inner call gives the outer one back.
    private var running = ""
    /// The limit that stopped the latest call (a `workout_limit`), read once it is back.
    private(set) var lastTripped: Int32 = 0
    /// The state whose call runs now, for `LuaTime.excluding`: set and read on the thread
    /// that runs Lua (the main thread in a run; Lua states are not an actor's, so the
    /// compiler cannot check it: hence `nonisolated(unsafe)`).
    nonisolated(unsafe) private(set) static weak var current: LuaState?

    init(chunkName: String, directory: String? = nil, limits: LuaLimits = LuaLimits()) {
        context = .allocate(capacity: 1)
        context.initialize(to: workout_context(owner: nil, budget: 0, deadline: 0, seconds: 0, used: 0,
                                               limit: limits.memory, enforce: 0, tripped: 0,
                                               interrupt: LuaInterrupt.flag))
        guard let state = workout_newstate(context) else {
            fatalError("workout: Lua could not allocate its state")
        }
        L = state
        refs = LuaRefs(state)
        self.chunkName = chunkName
        self.directory = directory
        Watchdog.prepare()
        self.limits = limits
        workout_setpanic(L)
        context.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        Sandbox.open(self)
        RoutineAPI.register(in: self)
        HistoryAPI.open(self)
    }

    deinit {
        lua_close(L)
        context.deallocate()
        for runaway in runaways.values { runaway.message.deallocate() }
    }

    /// The Swift object behind a `lua_State` (a coroutine shares its main state's context).
    static func from(_ L: OpaquePointer?) -> LuaState {
        let raw = workout_getcontext(L).pointee.owner!
        return Unmanaged<LuaState>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Counts Swift memory that Lua code makes the engine hold (steps, printed lines)
    /// against the memory cap: Lua collects the userdata it sees, but the builder keeps
    /// every step until loading ends, so a loop of `work(1)` would otherwise grow
    /// without limit. The count hook then stops the loop at its line.
    func charge(_ bytes: Int) {
        builderBytes += bytes
        context.pointee.used += bytes
    }

    /// Drops the builder once the routine is built, and its charge with it.
    func resetBuilder() {
        builder = RoutineBuilder()
        context.pointee.used -= Swift.min(builderBytes, Int(context.pointee.used))
        builderBytes = 0
    }

    var top: Int32 { lua_gettop(L) }

    /// The main thread's stack (hooks and loading run there).
    var stack: LuaStack { LuaStack(L) }

    /// Sets a global to a Swift function, called through the C trampoline.
    func setGlobal(_ name: String, _ function: workout_SwiftFunction) {
        workout_pushswiftfunction(L, function)
        lua_setglobal(L, name)
    }

    /// Loads text as a chunk named `@chunkName` and calls it with a traceback handler,
    /// leaving `results` values on the stack on success.
    func run(source: [UInt8], results: Int32) throws(LuaError) {
        let guarded = StackGuard(L, "loading a chunk")
        let base = top
        workout_pushmsgh(L)
        let status = source.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                workout_loadtext(L, $0, buffer.count, "@" + chunkName)
            }
        }
        guard status == LUA_OK else {
            let message = stack.string(at: -1) ?? "could not load \(chunkName)"
            lua_settop(L, base)
            throw LuaError(message: message, traceback: nil)
        }
        try call(arguments: 0, results: results, handler: base + 1, budget: limits.loadInstructions,
                 seconds: limits.loadSeconds, what: "loading")
        workout_remove(L, base + 1)
        guarded.check(results: results)
    }

    /// Calls the function below `arguments` values under `lua_pcall`, with `budget`
    /// instructions, `seconds` of time (0: none) and the memory cap enforced. On failure
    /// the stack is back to where the handler was pushed, minus the handler. `what` names
    /// the call for the watchdog.
    func call(arguments: Int32, results: Int32, handler: Int32, budget: Int, seconds: Double = 0,
              what: String = "a call") throws(LuaError) {
        let status = limited(budget: budget, seconds: seconds, what: what) { workout_pcall(L, arguments, results, handler) }
        guard status == LUA_OK else {
            var error = status == LUA_ERRMEM ? memoryError
                : LuaError(tracebackMessage: stack.string(at: -1) ?? "error object is not a string")
            error.interrupted = wasInterrupted
            lua_settop(L, handler - 1)
            throw error
        }
    }

    /// Runs Lua code with `budget` instructions, `seconds` of time (0: none) and the
    /// memory cap enforced. A call made from inside another (a hook that pauses runs
    /// `on_pause`) gets its own budget and gives the outer one back. A limit reached stays
    /// reached until the call is back here (see `workout_raise_limit` in shim.h).
    private func limited(budget: Int, seconds: Double, what: String, _ body: () -> Int32) -> Int32 {
        let outer = context.pointee
        let outerName = running
        let outerState = LuaState.current
        let outerHeard = heardThisCall
        heardThisCall = (0, 0)
        running = what
        LuaState.current = self
        context.pointee.budget = Int64(budget)
        context.pointee.enforce = 1
        if seconds > 0 {
            context.pointee.deadline = Int64(clamping: Clocks.system.monotonic() &+ nanoseconds(min(seconds, 1e9)))
            context.pointee.seconds = seconds
        } else {
            context.pointee.deadline = 0
        }
        armWatchdog(deadline: context.pointee.deadline, seconds: seconds, what: what)
        let status = body()
        lastTripped = context.pointee.tripped
        if context.pointee.tripped != 0 { workout_resethook(L) }
        context.pointee.budget = outer.budget
        context.pointee.enforce = outer.enforce
        context.pointee.deadline = outer.deadline
        context.pointee.seconds = outer.seconds
        context.pointee.tripped = outer.tripped
        running = outerName
        LuaState.current = outerState
        heardThisCall = outerHeard
        armWatchdog(deadline: outer.deadline, seconds: outer.seconds, what: outerName)
        return status
    }

    /// Runs `body` (a wait for something outside Lua: a reader taking output) with the
    /// running call's clock stopped: its deadline and the watchdog move on by the time
    /// `body` took, so a stalled reader never counts as a slow hook.
    func excludingTime<T>(_ body: () -> T) -> T {
        guard context.pointee.deadline > 0 else { return body() }
        let started = Clocks.system.monotonic()
        Watchdog.disarm()
        let result = body()
        context.pointee.deadline &+= Int64(clamping: Clocks.system.monotonic() &- started)
        armWatchdog(deadline: context.pointee.deadline, seconds: context.pointee.seconds, what: running)
        return result
    }

    /// Whether the latest call ended because the user interrupted it.
    var wasInterrupted: Bool { lastTripped == Int32(WORKOUT_LIMIT_INTERRUPTED.rawValue) }

    private var memoryError: LuaError {
        LuaError(message: "\(chunkName): memory limit of \(limits.memory / (1024 * 1024)) MiB reached", traceback: nil)
    }

    enum Resumed {
        /// How many values the coroutine yielded, or returned when its function ended;
        /// they are on its stack.
        case yielded(Int32)
        case returned(Int32)
    }

    /// Resumes a coroutine with `arguments` values on its stack, with a hook call's
    /// instruction budget, time limit and the memory cap. `lua_resume` is protected: an
    /// error leaves the coroutine dead, and its message, with the coroutine's traceback,
    /// is thrown.
    func resume(_ thread: OpaquePointer, arguments: Int32) throws(LuaError) -> Resumed {
        var results: Int32 = 0
        let status = limited(budget: limits.hookInstructions, seconds: limits.hookSeconds, what: "generate") {
            lua_resume(thread, L, arguments, &results)
        }
        switch status {
        case LUA_YIELD: return .yielded(results)
        case LUA_OK: return .returned(results)
        case LUA_ERRMEM: throw memoryError
        default:
            var message = LuaStack(thread).string(at: -1)
                ?? "(error object is a \(LuaStack(thread).typeName(at: -1)) value)"
            if workout_has_position(message) == 0 {
                // The coroutine's stack is still there: name the line it stopped on.
                workout_where(thread)
                message = (LuaStack(thread).string(at: -1) ?? "") + message
                LuaStack(thread).pop()
            }
            luaL_traceback(L, thread, message, 0)
            defer { stack.pop() }
            throw LuaError(tracebackMessage: stack.string(at: -1) ?? message)
        }
    }

    /// The watchdog goes off one second plus the limit after the limit: the count hook
    /// has long had its chance by then (0: disarmed).
    private func armWatchdog(deadline: Int64, seconds: Double, what: String) {
        guard deadline > 0 else {
            Watchdog.disarm()
            return
        }
        let key = "\(what) \(seconds)"
        let runaway = runaways[key] ?? Watchdog.message(file: chunkName, call: what, seconds: seconds)
        runaways[key] = runaway
        Watchdog.arm(at: deadline &+ Int64(clamping: nanoseconds(min(seconds, 1e9) + 1)),
                     message: runaway.message, length: runaway.length)
    }

    /// Calls a function held in the registry with arguments pushed by `pushArguments`.
    /// The stack is left exactly as it was, whatever happens. `what` is the hook's name.
    func call(_ ref: LuaRef, what: String = "a hook", pushArguments: (LuaState) -> Int32) throws(LuaError) {
        let guarded = StackGuard(L, "a hook call")
        let base = top
        workout_pushmsgh(L)
        refs.push(ref)
        // The arguments must be just what `pushArguments` says it pushed.
        let arguments = StackGuard(L, "pushing a hook's arguments")
        let count = pushArguments(self)
        arguments.check(results: count)
        defer {
            lua_settop(L, base)
            guarded.check()
        }
        try call(arguments: count, results: 0, handler: base + 1, budget: limits.hookInstructions,
                 seconds: limits.hookSeconds, what: what)
        // A hook returns no results: only the message handler is left.
        guarded.check(results: 1)
    }
}
