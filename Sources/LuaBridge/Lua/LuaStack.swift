import CLua
import IntervalEngine
import WorkoutValues

/// Reading and pushing values on one Lua stack without ever raising: only raw accesses,
/// and strings are read only when they already are strings (`lua_tolstring` on a number
/// would convert it in place and could allocate). A Swift function called from a
/// coroutine works on that coroutine's stack, so this wraps whichever `lua_State` it gets.
struct LuaStack {
    let L: OpaquePointer

    init(_ L: OpaquePointer?) {
        self.L = L!
    }

    var top: Int32 { lua_gettop(L) }

    func type(at index: Int32) -> Int32 { lua_type(L, index) }

    func string(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let bytes = lua_tolstring(L, index, &length) else { return nil }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
        return String(decoding: buffer, as: UTF8.self)
    }

    func number(at index: Int32) -> Double? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(L, index, nil)
    }

    func integer(at index: Int32) -> Int? {
        guard lua_type(L, index) == LUA_TNUMBER else { return nil }
        var isInteger: Int32 = 0
        let value = lua_tointegerx(L, index, &isInteger)
        if isInteger != 0 { return Int(value) }
        let double = lua_tonumberx(L, index, nil)
        guard double.rounded() == double, abs(double) < 1e15 else { return nil }
        return Int(double)
    }

    func isInteger(at index: Int32) -> Bool { lua_isinteger(L, index) != 0 }

    func boolean(at index: Int32) -> Bool? {
        guard lua_type(L, index) == LUA_TBOOLEAN else { return nil }
        return lua_toboolean(L, index) != 0
    }

    func typeName(at index: Int32) -> String {
        String(cString: lua_typename(L, lua_type(L, index)))
    }

    /// How a value reads in an error message: `0`, `"abc"`, `nil`, `table`.
    func describe(at index: Int32) -> String {
        switch lua_type(L, index) {
        case LUA_TNUMBER:
            if isInteger(at: index) { return String(lua_tointegerx(L, index, nil)) }
            return Number.format(lua_tonumberx(L, index, nil))
        case LUA_TSTRING:
            let text = string(at: index) ?? ""
            return "\"" + VisibleText.escape(text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        case LUA_TBOOLEAN:
            return lua_toboolean(L, index) != 0 ? "true" : "false"
        case LUA_TUSERDATA where luaL_testudata(L, index, RoutineAPI.stepMetatable) != nil:
            return "a step"
        default:
            return typeName(at: index)
        }
    }

    /// Pushes `table[key]` without metamethods and returns its Lua type.
    @discardableResult
    func rawField(_ table: Int32, _ key: String) -> Int32 {
        let table = lua_absindex(L, table)
        lua_pushstring(L, key)
        return lua_rawget(L, table)
    }

    /// Calls `body` with each key at -2 and value at -1 (raw `next`). `body` must leave
    /// the stack as it found it. Keys are visited in Lua's order.
    func forEachPair(_ table: Int32, _ body: () -> Void) {
        let table = lua_absindex(L, table)
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            body()
            workout_pop(L, 1)
        }
    }

    func pop(_ count: Int32 = 1) { workout_pop(L, count) }

    func push(_ text: String) { lua_pushstring(L, text) }
    /// Whole numbers go to Lua as integers, so `seg.duration` prints `20`, not `20.0`.
    func push(_ number: Double) {
        if number.rounded() == number, abs(number) < 1e15 {
            lua_pushinteger(L, lua_Integer(number))
        } else {
            lua_pushnumber(L, number)
        }
    }
    func push(_ integer: Int) { lua_pushinteger(L, lua_Integer(integer)) }
    func push(_ boolean: Bool) { lua_pushboolean(L, boolean ? 1 : 0) }
    func pushNil() { lua_pushnil(L) }

    /// Sets `t[key] = value` for the table at -2 and the value at -1 (pops the value).
    func setField(_ key: String) { lua_setfield(L, -2, key) }

    /// Pushes an error message prefixed with the calling Lua line; the trampoline raises it.
    func raise(_ message: String) -> Int32 {
        luaL_where(L, 1)
        lua_pushstring(L, message)
        lua_concat(L, 2)
        return -1
    }

    /// The line of Lua code that called the running Swift function (0 when unknown).
    func callerLine() -> Int {
        var record = lua_Debug()
        guard lua_getstack(L, 1, &record) != 0, lua_getinfo(L, "l", &record) != 0 else { return 0 }
        return Int(record.currentline)
    }
}
