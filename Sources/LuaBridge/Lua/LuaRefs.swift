import CLua
import IntervalEngine

/// A value kept alive in the Lua registry for Swift: a hook, a cue function, a payload;
/// its id is the registry's.
typealias LuaRef = RoutineReference

/// The one owner of every registry reference the engine holds. The session releases
/// them all when it stops, and `liveCount` lets tests prove none is left behind.
final class LuaRefs {
    private let L: OpaquePointer
    private var live: Set<Int32> = []

    init(_ L: OpaquePointer) {
        self.L = L
    }

    var liveCount: Int { live.count }

    /// References the value at `index` (the stack is unchanged). `stack` is the stack the
    /// index refers to: a constructor called inside a coroutine (a generator) works on the
    /// coroutine's stack, not the main one. The registry is the same for both.
    func make(at index: Int32, on stack: LuaStack? = nil) -> LuaRef {
        let L = stack?.L ?? self.L
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

    /// Lets one value go (a generator that has ended).
    func release(_ ref: LuaRef) {
        guard live.remove(ref.id) != nil else { return }
        luaL_unref(L, workout_registryindex(), ref.id)
    }

    func releaseAll() {
        for id in live {
            luaL_unref(L, workout_registryindex(), id)
        }
        live.removeAll()
    }
}
