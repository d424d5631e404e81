import CLua
import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

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
        var fields = LuaFields([
            "date": Timestamp.local(entry.started),
            "ended": Timestamp.local(entry.ended),
            "days_ago": daysAgo(entry.started),
            "completed": entry.completed,
            "elapsed": entry.elapsed,
            "active": entry.active,
            "work_seconds": entry.workSeconds,
            "segments_done": entry.segmentsDone,
            "segments": entry.segments,
            "speed": entry.speed,
            "rpe": entry.rpe,
            "feel": entry.feel,
            "params": LuaFields(entry.params.map { ($0.name, parameter($0.value)) }),
            "scores": LuaFields(entry.scores.map { ($0.name, $0.value) }),
            "better": LuaFields(entry.scores.map { ($0.name, $0.better) }),
            "open": LuaList(entry.open.map { record in
                var fields = LuaFields([
                    "index": record.index,
                    "name": record.name,
                    "seconds": record.seconds,
                    "by": record.by.rawValue,
                    "laps": LuaList(record.laps),
                ])
                addFigures(record.sensors, to: &fields)
                return fields
            }),
        ])
        addFigures(entry.sensors, to: &fields)
        fields.push(onto: stack)
    }

    /// A parameter's value as Lua sees it; nil (no field) for what Lua has no plain value for.
    private static func parameter(_ value: JSONValue) -> (any LuaPushable)? {
        switch value {
        case .integer(let number): number
        case .number(let number): number
        case .string(let text): text
        case .bool(let flag): flag
        default: nil
        }
    }

    /// The figures of each quantity the history keeps (`SensorQuantity.history`), as the
    /// line has them: `hr = { avg, max, zones = {…} }`, `power = { avg }`, each when the
    /// sensors gave it.
    private static func addFigures(_ sensors: SensorSummary?, to fields: inout LuaFields) {
        guard let sensors else { return }
        for quantity in SensorQuantity.allCases {
            guard let required = quantity.requiredFigure, sensors[quantity, required] != nil else { continue }
            var figures = LuaFields(quantity.history.map { (key: $0.rawValue, value: sensors[quantity, $0]) })
            // Heart rate's own: the seconds in each zone.
            if quantity == .hr { figures.append("zones", LuaList(sensors.zoneSeconds ?? [0, 0, 0, 0, 0])) }
            fields.append(quantity.key, figures)
        }
    }
}
