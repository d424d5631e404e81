import CLua
import Foundation
import IntervalEngine
import PastSessions
import WorkoutValues

/// A training plan written in Lua: weeks of days, each a routine with its parameters or
/// rest, decided by the plan's own rules from the sessions done since it started. The file
/// runs in the routines' sandbox, under their limits, and returns
///
///     return {
///       name = "Four weeks of sweet spot",
///       start = "2026-11-30",              -- week 1's Monday
///       weeks = 4,                         -- then the plan is over
///       week = function(n, past, today) ... return { tue = { "sweet-spot", sets = 2 }, ... } end,
///     }
///
/// `week(n, past, today)` is called for each week a day asked about falls in, with the
/// sessions done since `start`, newest first (`date`, `week`, `day`, `program`, `completed`,
/// `rpe`, `feel`), and the day asked from (`date`, `week`, `day`), so that a week under way
/// can move what was missed. It returns the week's days by `mon` … `sun`: `"rest"` or nil, a routine's
/// name, or a table of its name (first, or `routine =`) and its parameters (`sets = 3`,
/// given as `--set` gives them).
public struct TrainingPlan: Sendable, Equatable {
    public var name: String
    /// Week 1's Monday, a local date: `2026-11-30`.
    public var start: String
    public var weeks: Int?
    /// intervals.icu's kind of activity for `--publish` (`Ride`, `Run`…).
    public var sport: String?

    /// One day as the plan decides it.
    public struct Day: Sendable, Equatable {
        public enum What: Sendable, Equatable {
            case rest
            case routine(String, settings: [ParameterSetting])
            case before
            case over
        }

        public var date: String
        /// The plan's week the day is in (0 before the plan starts).
        public var week: Int
        /// `mon` … `sun`.
        public var weekday: String
        public var what: What
    }

    public static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}

public enum PlanLoader {
    /// The plan in `source` and its days from `first` on, `count` of them. `past`: the
    /// sessions of the history (any order). `fileName` names the plan in messages.
    /// `start` goes before the plan's own (`workout week --start`).
    public static func days(source: [UInt8], fileName: String, directory: String?, from first: Date, count: Int = 7,
                            start given: String? = nil, past: [HistoryEntry],
                            limits: LuaLimits = LuaLimits()) throws(RoutineError) -> (TrainingPlan, [TrainingPlan.Day]) {
        let lua = LuaState(chunkName: fileName, directory: directory, limits: limits)
        do {
            try lua.run(source: source, results: 1)
        } catch {
            throw RoutineError(RoutineLoader.located(error.message, in: fileName))
        }
        defer { lua.stack.pop() }
        guard lua.stack.type(at: -1) == LUA_TTABLE else {
            throw RoutineError("\(fileName): a plan returns a table { name = …, start = …, week = function(n, past, today) … end }, "
                               + "got \(lua.stack.describe(at: -1))")
        }
        let table = lua_absindex(lua.L, -1)
        var plan = try read(lua, table: table, fileName: fileName, start: given)
        if let given { plan.start = given }
        lua_getfield(lua.L, table, "week")
        defer { lua.stack.pop() }
        guard lua.stack.type(at: -1) == LUA_TFUNCTION else {
            throw RoutineError("\(fileName): the plan's week must be a function(n, past, today) that returns the week's days")
        }
        let week = lua.refs.make(at: -1)
        defer { lua.refs.release(week) }

        let calendar = LocalCalendar()
        guard let start = calendar.date(plan.start) else {
            throw RoutineError("\(fileName): start must be a date such as \"2026-11-30\", got \(VisibleText.escape(plan.start))")
        }
        guard calendar.weekday(start) == 0 else {
            throw RoutineError("\(fileName): start must be a Monday (week 1's first day), got \(plan.start), a "
                               + calendar.weekdayName(start))
        }
        // A run at another speed (a test of a routine) is not training: left out, as `history stats` leaves it.
        let sessions = past.filter { $0.started >= start && !$0.isSpedUp }.sorted { $0.started > $1.started }.map { entry -> LuaFields in
            let days = calendar.days(from: start, to: entry.started)
            return LuaFields([
                "date": calendar.text(entry.started), "week": days / 7 + 1, "day": TrainingPlan.weekdays[days % 7],
                "program": entry.program, "completed": entry.completed, "rpe": entry.rpe, "feel": entry.feel,
            ])
        }
        let firstSince = calendar.days(from: start, to: first)
        let today = LuaFields([
            "date": calendar.text(first), "week": firstSince >= 0 ? firstSince / 7 + 1 : 0,
            "day": TrainingPlan.weekdays[calendar.weekday(first)],
        ])
        var decided: [Int: [String: JSONValue]] = [:]
        var days: [TrainingPlan.Day] = []
        for offset in 0..<count {
            let date = calendar.adding(days: offset, to: first)
            let since = calendar.days(from: start, to: date)
            let weekday = TrainingPlan.weekdays[calendar.weekday(date)]
            let text = calendar.text(date)
            guard since >= 0 else {
                days.append(.init(date: text, week: 0, weekday: weekday, what: .before))
                continue
            }
            let number = since / 7 + 1
            if let weeks = plan.weeks, number > weeks {
                days.append(.init(date: text, week: number, weekday: weekday, what: .over))
                continue
            }
            if decided[number] == nil {
                decided[number] = try call(lua, week, number: number, sessions: sessions, today: today, fileName: fileName)
            }
            let what = try day(decided[number]![weekday], fileName: fileName, place: "week \(number) \(weekday)")
            days.append(.init(date: text, week: number, weekday: weekday, what: what))
        }
        return (plan, days)
    }

    private static func read(_ lua: LuaState, table: Int32, fileName: String, start given: String?) throws(RoutineError) -> TrainingPlan {
        func field(_ name: String) -> JSONValue {
            lua_getfield(lua.L, table, name)
            defer { lua.stack.pop() }
            return LuaJSON.value(lua.stack, at: -1)
        }
        guard case .string(let name) = field("name"), !name.isEmpty else {
            throw RoutineError("\(fileName): the plan needs a name = \"…\"")
        }
        var start = given ?? ""
        if given == nil {
            guard case .string(let written) = field("start") else {
                throw RoutineError("\(fileName): the plan needs start = \"YYYY-MM-DD\", week 1's Monday (or --start)")
            }
            start = written
        }
        var weeks: Int?
        switch field("weeks") {
        case .null: break
        case .integer(let count) where count >= 1 && count <= 520: weeks = count
        default: throw RoutineError("\(fileName): weeks must be a whole number from 1 to 520")
        }
        var sport: String?
        switch field("sport") {
        case .null: break
        case .string(let given) where !given.isEmpty && given.count <= 40: sport = given
        default: throw RoutineError("\(fileName): sport must be intervals.icu's name of one, such as \"Ride\" or \"Run\"")
        }
        return TrainingPlan(name: name, start: start, weeks: weeks, sport: sport)
    }

    /// `week(n, past)`'s answer: the week's days by name.
    private static func call(_ lua: LuaState, _ week: LuaRef, number: Int, sessions: [LuaFields], today: LuaFields,
                             fileName: String) throws(RoutineError) -> [String: JSONValue] {
        let base = lua_gettop(lua.L)
        workout_pushmsgh(lua.L)
        lua.refs.push(week)
        lua.stack.push(number)
        LuaList(sessions).push(onto: lua.stack)
        today.push(onto: lua.stack)
        defer { lua_settop(lua.L, base) }
        do {
            try lua.call(arguments: 3, results: 1, handler: base + 1, budget: lua.limits.loadInstructions,
                         seconds: lua.limits.loadSeconds, what: "week")
        } catch {
            throw RoutineError(RoutineLoader.located(error.message, in: fileName))
        }
        switch LuaJSON.value(lua.stack, at: -1) {
        case .object(let fields):
            for (name, _) in fields where !TrainingPlan.weekdays.contains(name) {
                throw RoutineError("\(fileName): week \(number): \(VisibleText.escape(name)) is not a day; the days are "
                                   + TrainingPlan.weekdays.joined(separator: ", "))
            }
            return Dictionary(fields, uniquingKeysWith: { $1 })
        case .null, .array([]):
            return [:]
        case let other:
            throw RoutineError("\(fileName): week(\(number), past, today) must return a table of days (mon = …, tue = …), got \(other.text)")
        }
    }

    private static func day(_ value: JSONValue?, fileName: String, place: String) throws(RoutineError) -> TrainingPlan.Day.What {
        switch value {
        case nil, .null?, .string("rest")?:
            return .rest
        case .string(let routine)?:
            return .routine(routine, settings: [])
        case .array(let items)? where items.count == 1:
            guard case .string(let routine) = items[0], !routine.isEmpty else {
                throw RoutineError("\(fileName): \(place): the routine is a name, got \(items[0].text)")
            }
            return .routine(routine, settings: [])
        case .object(let fields)?:
            var routine: String?
            var settings: [ParameterSetting] = []
            for (key, value) in fields {
                if key == "1" || key == "routine" {
                    guard case .string(let name) = value, !name.isEmpty else {
                        throw RoutineError("\(fileName): \(place): the routine is a name, got \(value.text)")
                    }
                    routine = name
                    continue
                }
                let text: String
                switch value {
                case .integer(let number): text = String(number)
                case .number(let number): text = Number.format(number)
                case .string(let given): text = given
                case .bool(let flag): text = flag ? "true" : "false"
                default: throw RoutineError("\(fileName): \(place): \(VisibleText.escape(key)) must be a number, text or true/false")
                }
                settings.append(ParameterSetting(name: key, text: text))
            }
            guard let routine else {
                throw RoutineError("\(fileName): \(place): a day's table names its routine first: { \"sweet-spot\", sets = 3 }")
            }
            return .routine(routine, settings: settings)
        case let other?:
            throw RoutineError("\(fileName): \(place): a day is \"rest\", a routine's name or { \"routine\", parameter = value }, got \(other.text)")
        }
    }
}

/// Local dates for the plan: the days of the athlete's calendar (`TZ`), counted across
/// daylight-saving changes as whole days.
struct LocalCalendar {
    var calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar
    }()

    func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2], text.count == 10 else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components), self.text(date) == text else { return nil }
        return date
    }

    func text(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// 0 for Monday … 6 for Sunday.
    func weekday(_ date: Date) -> Int { (calendar.component(.weekday, from: date) + 5) % 7 }

    func weekdayName(_ date: Date) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekday(date)]
    }

    /// Whole local days from `start`'s day to `date`'s (negative before it).
    func days(from start: Date, to date: Date) -> Int {
        let from = calendar.startOfDay(for: start), to = calendar.startOfDay(for: date)
        return calendar.dateComponents([.day], from: from, to: to).day ?? 0
    }

    func adding(days: Int, to date: Date) -> Date {
        calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: date)) ?? date
    }
}
