import CLua
import IntervalEngine

/// What a routine sees: the base library without `dofile`, `loadfile` and
/// binary chunks, `string`, `table`, `math`, `utf8`, `coroutine`, and the harmless part of
/// `os`; `require` reads only `name.lua` beside the routine. Routines come from other
/// people; running one must be as safe as reading it.
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
    /// Swift frame), `load` is forced to text mode, and `xpcall` calls its handler after
    /// the call (so the handler runs under the limits too). `setmetatable` refuses `__gc`:
    /// Lua runs finalizers with hooks switched off, so a finalizer's endless loop would
    /// escape the instruction limit (and hang even `lua_close`). `require` runs the chunk
    /// that `Modules.find` compiled from the routine's own directory, once per name.
    static let prelude = """
        local log, select, tostring, concat, rawload, rawsetmetatable, rawget, type, error, findmodule, where = ...
        -- Called as fields, so that Lua's own messages name them as the routine does:
        -- "bad argument #1 to 'setmetatable'".
        local raw = { load = rawload, setmetatable = rawsetmetatable }
        print = function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          log(concat(parts, "\\t"))
        end
        load = function(chunk, name, mode, ...)
          if select("#", ...) > 0 then return raw.load(chunk, name, "t", ...) end
          return raw.load(chunk, name, "t")
        end
        setmetatable = function(t, mt)
          if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
            error(where() .. "setmetatable: __gc is not available to routines (finalizers run outside the instruction limit)", 0)
          end
          return raw.setmetatable(t, mt)
        end
        -- xpcall's handler runs after the call has unwound, as an ordinary call: Lua runs a
        -- message handler with hooks off when the error came from a hook (a reached limit),
        -- so a handler that loops would escape every limit. Without `debug` a handler
        -- cannot tell the difference.
        local pcall, pack, unpack = pcall, table.pack, table.unpack
        xpcall = function(f, handler, ...)
          if type(handler) ~= "function" then
            error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
          end
          local results = pack(pcall(f, ...))
          if results[1] then return unpack(results, 1, results.n) end
          local _, message = pcall(handler, results[2])
          return false, message
        end
        local loaded, loading = {}, {}
        require = function(name)
          if type(name) == "string" then
            if loaded[name] ~= nil then return loaded[name] end
            if loading[name] then error(where() .. 'require: "' .. name .. '" requires itself (a cycle of modules)', 0) end
          end
          local chunk, message = findmodule(name)
          if not chunk then error(where() .. message, 0) end
          loading[name] = true
          local done <close> = rawsetmetatable({}, { __close = function() loading[name] = nil end })
          local result = chunk(name)
          if result == nil then result = true end
          loaded[name] = result
          return result
        end
        """

    /// The prelude's chunk name, which `workout_where` (shim.h) skips when it looks for
    /// the routine's line.
    static let preludeName = WORKOUT_PRELUDE_NAME

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
        guard workout_loadtext(L, prelude, prelude.utf8.count, preludeName) == LUA_OK else {
            fatalError("workout: prelude does not compile: \(lua.stack.string(at: -1) ?? "")")
        }
        workout_pushswiftfunction(L, Actions.log)
        lua_getglobal(L, "select")
        lua_getglobal(L, "tostring")
        lua_getglobal(L, "table")
        lua_getfield(L, -1, "concat")
        workout_remove(L, -2)
        for name in ["load", "setmetatable", "rawget", "type", "error"] {
            lua_getglobal(L, name)
        }
        workout_pushswiftfunction(L, Modules.find)
        workout_pushswiftfunction(L, Modules.callerPosition)
        do {
            try lua.call(arguments: 11, results: 0, handler: 0, budget: 100_000)
        } catch {
            fatalError("workout: prelude failed: \(error.message)")
        }
        lua_settop(L, base)
    }
}
