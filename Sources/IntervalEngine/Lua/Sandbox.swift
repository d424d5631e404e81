import CLua

/// What a routine sees (SPEC §3): the base library without `dofile`, `loadfile` and
/// binary chunks, `string`, `table`, `math`, `utf8`, `coroutine`, and the harmless part of
/// `os`. Routines come from other people; running one must be as safe as reading it.
enum Sandbox {
    static let libraries: [(String, lua_CFunction)] = [
        ("_G", luaopen_base),
        ("string", luaopen_string),
        ("table", luaopen_table),
        ("math", luaopen_math),
        ("utf8", luaopen_utf8),
        ("coroutine", luaopen_coroutine),
        ("os", luaopen_os),
    ]

    static let allowedOS = ["time", "clock", "date", "difftime"]

    /// Glue that is simpler in Lua than in Swift: `print` turns its arguments into text
    /// with the real `tostring` (metamethods may raise, so that happens in Lua, never in a
    /// Swift frame), and `load` is forced to text mode.
    static let prelude = """
        local log, select, tostring, concat, rawload = ...
        print = function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          log(concat(parts, "\\t"))
        end
        load = function(chunk, name, mode, ...)
          if select("#", ...) > 0 then return rawload(chunk, name, "t", ...) end
          return rawload(chunk, name, "t")
        end
        """

    static func open(_ lua: LuaState) {
        let L = lua.L
        for (name, opener) in libraries {
            luaL_requiref(L, name, opener, 1)
            lua.stack.pop()
        }
        lua_getglobal(L, "os")
        workout_newtable(L)
        for name in allowedOS {
            lua_getfield(L, -2, name)
            lua_setfield(L, -2, name)
        }
        lua_setglobal(L, "os")
        lua.stack.pop()
        for name in ["dofile", "loadfile"] {
            lua_pushnil(L)
            lua_setglobal(L, name)
        }
        runPrelude(lua)
    }

    private static func runPrelude(_ lua: LuaState) {
        let L = lua.L
        let base = lua.top
        guard luaL_loadstring(L, prelude) == LUA_OK else {
            fatalError("workout: prelude does not compile: \(lua.stack.string(at: -1) ?? "")")
        }
        workout_pushswiftfunction(L, Actions.log)
        lua_getglobal(L, "select")
        lua_getglobal(L, "tostring")
        lua_getglobal(L, "table")
        lua_getfield(L, -1, "concat")
        workout_remove(L, -2)
        lua_getglobal(L, "load")
        do {
            try lua.call(arguments: 5, results: 0, handler: 0, budget: 100_000)
        } catch {
            fatalError("workout: prelude failed: \(error.message)")
        }
        lua_settop(L, base)
    }
}
