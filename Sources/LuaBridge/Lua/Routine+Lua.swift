import IntervalEngine

/// The routine a Lua state built, and the state as a routine's code.
extension LuaState {
    /// The `Routine` of `spec`, built in this state: its code is this state, with what the
    /// builder gathered while the file ran (the lines printed, the parameters declared).
    /// The step tree is no longer needed once the timeline is flat, unless a generator may
    /// still yield steps the file built while loading.
    func routine(_ spec: WorkoutSpec) -> Routine {
        let routine = Routine(spec: spec, code: self, fileName: chunkName, loadLog: builder.log,
                              parameters: builder.parameters ?? [])
        let steps = builder.steps
        resetBuilder()
        if routine.timeline.isOpenEnded { builder.steps = steps }
        return routine
    }
}

extension Routine {
    /// The Lua state its code runs in: every routine's code is one (a routine from data
    /// gets an empty sandbox). For tests that look inside the state.
    var lua: LuaState {
        guard let lua = code as? LuaState else { preconditionFailure("a routine's code is a Lua state") }
        return lua
    }

    /// The Lua stack height, for checking that calls leave it as they found it.
    public var luaStackHeight: Int { Int(lua.top) }
}
