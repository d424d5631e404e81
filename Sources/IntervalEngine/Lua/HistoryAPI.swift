import CLua
import Foundation

/// `history`: what a routine can read of its own past sessions, while it loads (so a
/// parameter can follow on: `from_history`) and in its hooks. The data comes from
/// `RoutineHistory`, read lazily from the end of the file; the Lua side (`prelude`)
/// makes each entry a read-only table and keeps the ones it has built.
enum HistoryAPI {
    /// The global `history` and the `from_history` of `params{}`, in Lua: entries are
    /// frozen (a write raises at the routine's line), `history[i]` is the i-th newest,
    /// `#history` counts, and `params` calls each parameter's `from_history(history)`
    /// (unless `--set` gave the value) before the engine checks what it returned.
    static let prelude = """
        local entryAt, countOf, indexOf, bestOf, latestOf, daysOf, isSet, where,
              rawsetmetatable, next, type, error, swiftParams, mathType, pcall = ...
        local function readOnly()
          error(where() .. "history is read-only: its sessions are what they were", 0)
        end
        local function freeze(t)
          for k, v in next, t do
            if type(v) == "table" then t[k] = freeze(v) end
          end
          return rawsetmetatable({}, { __index = t, __newindex = readOnly, __len = function() return #t end,
                                       __pairs = function() return next, t, nil end, __metatable = "read-only" })
        end
        local built = {}
        local function get(i)
          if mathType(i) ~= "integer" then return nil end
          local entry = built[i]
          if entry == nil then
            local raw = entryAt(i)
            if raw == nil then return nil end
            entry = freeze(raw)
            built[i] = entry
          end
          return entry
        end
        -- A filter is a table of fields to match ({ completed = true }), read by the
        -- engine, or a function of an entry, run here.
        local function first(filter)
          if type(filter) ~= "function" then return get(indexOf(filter)) end
          local i = 1
          while true do
            local entry = get(i)
            if entry == nil or filter(entry) then return entry end
            i = i + 1
          end
        end
        local api = {
          count = function(filter)
            if type(filter) ~= "function" then return countOf(filter) end
            local n, i = 0, 1
            while true do
              local entry = get(i)
              if entry == nil then return n end
              if filter(entry) then n = n + 1 end
              i = i + 1
            end
          end,
          last = first,
          best = bestOf,
          latest = latestOf,
          days_since = function(filter)
            if type(filter) ~= "function" then return daysOf(filter) end
            local entry = first(filter)
            return entry and entry.days_ago
          end,
        }
        history = rawsetmetatable({}, {
          __index = function(_, key)
            if api[key] ~= nil then return api[key] end
            return get(key)
          end,
          __newindex = readOnly,
          __len = function() return countOf(nil) end,
          __metatable = "read-only",
        })
        params = function(spec, ...)
          if type(spec) == "table" then
            local given = spec
            spec = {}
            for name, value in next, given do
              if type(value) == "table" and type(value.from_history) == "function" then
                local copy = {}
                for k, v in next, value do copy[k] = v end
                if isSet(name) then
                  copy.from_history = nil
                else
                  local result, why = value.from_history(history)
                  copy.from_history = { value = result, why = why }
                end
                value = copy
              end
              spec[name] = value
            end
          end
          return swiftParams(spec, ...)
        end
        """

    static func open(_ lua: LuaState) {
        let L = lua.L
        let base = lua.top
        guard workout_loadtext(L, prelude, prelude.utf8.count, Sandbox.preludeName) == LUA_OK else {
            fatalError("workout: the history prelude does not compile: \(lua.stack.string(at: -1) ?? "")")
        }
        for function in [entryAt, countOf, indexOf, bestOf, latestOf, daysOf, isSet, Modules.callerPosition] {
            workout_pushswiftfunction(L, function)
        }
        for name in ["setmetatable", "next", "type", "error", "params"] {
            lua_getglobal(L, name)
        }
        lua_getglobal(L, "math")
        lua_getfield(L, -1, "type")
        workout_remove(L, -2)
        lua_getglobal(L, "pcall")
        do {
            try lua.call(arguments: 15, results: 0, handler: 0, budget: 100_000)
        } catch {
            fatalError("workout: the history prelude failed: \(error.message)")
        }
        lua_settop(L, base)
    }

    private static func history(_ state: LuaState) -> RoutineHistory { state.history }

    /// `entryAt(i)`: the i-th newest entry as a plain table, or nil.
    static let entryAt: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            guard let index = stack.integer(at: 1), let entry = history(state).entry(index) else {
                stack.pushNil()
                return 1
            }
            push(entry, on: stack)
            return 1
        }
    }

    /// Reads a filter table: the fields an entry must have. Only `completed` is known:
    /// nil matches every entry.
    private static func completedFilter(_ args: Arguments, at index: Int32) throws(APIError) -> Bool? {
        guard !args.isAbsent(index) else { return nil }
        try args.table(at: index, what: "filter")
        var completed: Bool?
        try args.fields(of: index, known: ["completed"]) { _, value throws(APIError) in
            guard let flag = args.stack.boolean(at: value) else { throw args.fail("completed", "true or false", at: value) }
            completed = flag
        }
        return completed
    }

    /// `history.count(filter?)` and `#history`: from the summary, made once.
    static let countOf: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let completed = try completedFilter(Arguments(stack: stack, state: state, function: "history.count"), at: 1)
            stack.push(history(state).summary().count(completed: completed))
            return 1
        }
    }

    /// The newest entry that matches, from the newest sessions kept if one of them does,
    /// else from the summary: its index (from 1) and start.
    private static func newest(_ history: RoutineHistory, completed: Bool?) -> RoutineHistory.Summary.Newest? {
        var index = 0
        var found: RoutineHistory.Summary.Newest?
        history.forEachKept { entry in
            index += 1
            if completed.map({ entry.completed == $0 }) ?? true {
                found = .init(index: index, started: entry.started)
            }
            return found == nil
        }
        if let found { return found }
        return history.keptAll ? nil : history.summary().newest[completed]
    }

    /// The index (from 1) of the newest entry that matches, or nil.
    static let indexOf: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let completed = try completedFilter(Arguments(stack: stack, state: state, function: "history.last"), at: 1)
            if let found = newest(history(state), completed: completed) { stack.push(found.index) } else { stack.pushNil() }
            return 1
        }
    }

    /// `history.best(name)`: the best value a score has had, by its direction.
    static let bestOf: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let name = try Arguments(stack: stack, state: state, function: "history.best").text(at: 1, what: "name")
            if let best = history(state).summary().best[name] { stack.push(best.value) } else { stack.pushNil() }
            return 1
        }
    }

    /// `history.latest(name)`: the newest value of a score.
    static let latestOf: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let name = try Arguments(stack: stack, state: state, function: "history.latest").text(at: 1, what: "name")
            var latest: Score?
            history(state).forEachKept { entry in
                latest = entry.scores.first { $0.name == name }
                return latest == nil
            }
            if latest == nil, !history(state).keptAll { latest = history(state).summary().latest[name] }
            if let latest { stack.push(latest.value) } else { stack.pushNil() }
            return 1
        }
    }

    /// `history.days_since(filter?)`: whole local days since the newest matching session
    /// started (0: today), or nil.
    static let daysOf: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let completed = try completedFilter(Arguments(stack: stack, state: state, function: "history.days_since"), at: 1)
            if let found = newest(history(state), completed: completed) {
                stack.push(daysAgo(found.started))
            } else {
                stack.pushNil()
            }
            return 1
        }
    }

    /// Whether `--set NAME=…` gave the parameter named at 1: then `from_history` is not asked.
    static let isSet: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let name = stack.string(at: 1)
            stack.push(state.builder.settings.contains { $0.name == name })
            return 1
        }
    }

    /// Whole local days since `started` (0: today).
    static func daysAgo(_ started: Date) -> Int {
        LocalDay(Date()).number - LocalDay(started).number
    }

    /// An entry as a plain table; the prelude freezes it.
    private static func push(_ entry: HistoryEntry, on stack: LuaStack) {
        let L = stack.L
        lua_createtable(L, 0, 16)
        stack.push(Timestamp.local(entry.started)); stack.setField("date")
        stack.push(Timestamp.local(entry.ended)); stack.setField("ended")
        stack.push(daysAgo(entry.started)); stack.setField("days_ago")
        stack.push(entry.completed); stack.setField("completed")
        stack.push(entry.elapsed); stack.setField("elapsed")
        if let active = entry.active { stack.push(active); stack.setField("active") }
        stack.push(entry.workSeconds); stack.setField("work_seconds")
        stack.push(entry.segmentsDone); stack.setField("segments_done")
        stack.push(entry.segments); stack.setField("segments")
        stack.push(entry.speed); stack.setField("speed")
        lua_createtable(L, 0, Int32(entry.params.count))
        for (name, value) in entry.params {
            switch value {
            case .integer(let number): stack.push(number)
            case .number(let number): stack.push(number)
            case .string(let text): stack.push(text)
            case .bool(let flag): stack.push(flag)
            default: stack.pushNil()
            }
            stack.setField(name)
        }
        stack.setField("params")
        lua_createtable(L, 0, Int32(entry.scores.count))
        for score in entry.scores { stack.push(score.value); stack.setField(score.name) }
        stack.setField("scores")
        lua_createtable(L, 0, Int32(entry.scores.count))
        for score in entry.scores { stack.push(score.better); stack.setField(score.name) }
        stack.setField("better")
        lua_createtable(L, Int32(entry.open.count), 0)
        for (position, record) in entry.open.enumerated() {
            lua_createtable(L, 0, 5)
            stack.push(record.index); stack.setField("index")
            stack.push(record.name); stack.setField("name")
            stack.push(record.seconds); stack.setField("seconds")
            stack.push(record.by.rawValue); stack.setField("by")
            lua_createtable(L, Int32(record.laps.count), 0)
            for (lap, split) in record.laps.enumerated() {
                stack.push(split)
                lua_rawseti(L, -2, lua_Integer(lap + 1))
            }
            stack.setField("laps")
            pushSensors(record.sensors, on: stack)
            lua_rawseti(L, -2, lua_Integer(position + 1))
        }
        stack.setField("open")
        pushSensors(entry.sensors, on: stack)
    }

    /// `hr = { avg, max, zones = {…} }` and `power = { avg }` on the table on top of the
    /// stack, when the sensors gave them.
    private static func pushSensors(_ sensors: SensorSummary?, on stack: LuaStack) {
        let L = stack.L
        if let sensors, let max = sensors.maxHR {
            lua_createtable(L, 0, 3)
            if let average = sensors.averageHR { stack.push(average); stack.setField("avg") }
            stack.push(max); stack.setField("max")
            let zones = sensors.zoneSeconds ?? [0, 0, 0, 0, 0]
            lua_createtable(L, Int32(zones.count), 0)
            for (zone, seconds) in zones.enumerated() {
                stack.push(seconds)
                lua_rawseti(L, -2, lua_Integer(zone + 1))
            }
            stack.setField("zones")
            stack.setField("hr")
        }
        if let power = sensors?.averagePower {
            lua_createtable(L, 0, 1)
            stack.push(power); stack.setField("avg")
            stack.setField("power")
        }
    }
}
