import CLua

/// A value kept alive in the Lua registry for Swift: a hook, a cue function, a payload.
struct LuaRef: Hashable, Sendable {
    let id: Int32
}

/// The one owner of every registry reference the engine holds. The session releases
/// them all when it stops, and `liveCount` lets tests prove none is left behind.
final class LuaRefs {
    private let L: OpaquePointer
    private var live: Set<Int32> = []

    init(_ L: OpaquePointer) {
        self.L = L
    }

    var liveCount: Int { live.count }

    /// References the value at `index` (the stack is unchanged).
    func make(at index: Int32) -> LuaRef {
        lua_pushvalue(L, index)
        let id = luaL_ref(L, workout_registryindex())
        live.insert(id)
        return LuaRef(id: id)
    }

    func push(_ ref: LuaRef) {
        if live.contains(ref.id) {
            lua_rawgeti(L, workout_registryindex(), lua_Integer(ref.id))
        } else {
            lua_pushnil(L)
        }
    }

    func releaseAll() {
        for id in live {
            luaL_unref(L, workout_registryindex(), id)
        }
        live.removeAll()
    }
}
