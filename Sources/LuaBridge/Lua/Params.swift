import CLua
import IntervalEngine
import WorkoutValues

/// `params { rounds = 8, work = "20s", exercise = { default = "Burpees", help = "…" } }`:
/// declares the routine's parameters and returns their values for this run, the
/// defaults overridden by `--set`. Durations come back as seconds, so a routine can do
/// arithmetic with them; everything else as the type it was declared with.
enum Params {
    static let metatable = "workout.params"
    static let fullFormFields = RoutineTypes.parameter.fieldNames

    static let params: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "params")
            guard stack.type(at: 1) == LUA_TTABLE else {
                throw args.fail("its argument", "a table of defaults: params { rounds = 8, work = \"20s\" }", at: 1)
            }
            try args.noArguments(after: 1)
            guard state.builder.parameters == nil else {
                throw APIError("params: is called twice; declare every parameter in one params { … }")
            }
            var declared: [Parameter] = []
            var failure: APIError?
            stack.forEachPair(1) {
                guard failure == nil else { return }
                do throws(APIError) {
                    guard let name = stack.string(at: -2), Parameter.isValidName(name) else {
                        throw APIError("params: a parameter's name must be a word like rounds or work_time, got \(stack.describe(at: -2))")
                    }
                    declared.append(try parameter(args, name: name, at: lua_absindex(L, -1)))
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            declared.sort { $0.name < $1.name }
            for setting in state.builder.settings {
                guard let index = declared.firstIndex(where: { $0.name == setting.name }) else { continue }
                guard let value = declared[index].parse(setting.text) else {
                    let parameter = declared[index]
                    let problem = "--set \(setting.argument): \(parameter.name) must be \(parameter.kind.expected)"
                        + " (the default is \(parameter.defaultValue.text)), got \"\(setting.text)\""
                    state.builder.settingProblem = problem
                    throw APIError(problem)
                }
                declared[index].value = value
                declared[index].origin = .set
            }
            state.builder.parameters = declared
            lua_createtable(L, 0, Int32(declared.count))
            for parameter in declared {
                push(parameter.value, on: stack)
                stack.setField(parameter.name)
            }
            if luaL_newmetatable(L, metatable) != 0 {
                workout_pushswiftfunction(L, missing)
                lua_setfield(L, -2, "__index")
            }
            lua_setmetatable(L, -2)
            return 1
        }
    }

    /// One entry: a plain default, or `{ default = …, type = …, help = … }`.
    private static func parameter(_ args: Arguments, name: String, at index: Int32) throws(APIError) -> Parameter {
        let stack = args.stack
        guard stack.type(at: index) == LUA_TTABLE else {
            let (kind, value) = try inferred(args, name: name, at: index)
            return Parameter(name: name, kind: kind, defaultValue: value, value: value, help: nil)
        }
        let named = Arguments(stack: stack, state: args.state, function: "params: \(name)")
        var help: String?
        var declaredKind: Parameter.Kind?
        var hasDefault = false
        var fromHistory = false
        try named.fields(of: index, known: fullFormFields) { key, value throws(APIError) in
            switch key {
            case "help": help = try named.text(at: value, what: "help")
            case "from_history": fromHistory = true
            case "type":
                guard let text = stack.string(at: value), let kind = Parameter.Kind(rawValue: text) else {
                    let kinds = Parameter.Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw named.fail("type", "one of \(kinds)", at: value)
                }
                declaredKind = kind
            case "default": hasDefault = true
            default: break
            }
        }
        guard hasDefault else {
            throw APIError("params: \(name): default is missing (e.g. \(name) = { default = 8, help = \"…\" })")
        }
        stack.rawField(index, "default")
        defer { stack.pop() }
        let value: (Parameter.Kind, ParameterValue)
        if let declaredKind {
            value = (declaredKind, try typed(named, declaredKind, at: stack.top))
        } else {
            value = try inferred(named, name: "default", at: stack.top)
        }
        var parameter = Parameter(name: name, kind: value.0, defaultValue: value.1, value: value.1, help: help)
        if fromHistory { try follow(&parameter, named, at: index) }
        return parameter
    }

    /// What `from_history(history)` returned, which the prelude put in `from_history` as
    /// `{ value =, why = }`: nil keeps the default; anything else must be of the
    /// parameter's type, and the reason is shown by `plan`.
    private static func follow(_ parameter: inout Parameter, _ args: Arguments, at index: Int32) throws(APIError) {
        let stack = args.stack
        guard stack.rawField(index, "from_history") == LUA_TTABLE else {
            stack.pop()
            throw APIError("params: \(parameter.name): from_history must be a function of the routine's history, "
                           + "returning the value (and why): from_history = function(h) return h.count() + 1 end")
        }
        defer { stack.pop() }
        let table = stack.top
        guard stack.rawField(table, "value") != LUA_TNIL else {
            stack.pop()
            return
        }
        defer { stack.pop() }
        let result = Arguments(stack: stack, state: args.state, function: "params: \(parameter.name): from_history")
        let value = try typed(result, parameter.kind, at: stack.top, what: "its result")
        var why: String?
        if stack.rawField(table, "why") == LUA_TSTRING { why = stack.string(at: -1) }
        stack.pop()
        parameter.value = value
        parameter.origin = .history(why.map(VisibleText.escape))
    }

    /// A whole number is an integer, other numbers numbers, text that reads as a
    /// duration a duration, other text a string.
    private static func inferred(_ args: Arguments, name: String,
                                 at index: Int32) throws(APIError) -> (Parameter.Kind, ParameterValue) {
        let stack = args.stack
        switch stack.type(at: index) {
        case LUA_TBOOLEAN: return (.boolean, .boolean(stack.boolean(at: index)!))
        case LUA_TNUMBER:
            if stack.isInteger(at: index) { return (.integer, .integer(stack.integer(at: index)!)) }
            return (.number, try typed(args, .number, at: index))
        case LUA_TSTRING:
            let text = stack.string(at: index)!
            if let seconds = try? Duration.parse(text) { return (.duration, .duration(seconds: seconds, text: text)) }
            return (.string, .string(text))
        default:
            throw APIError("\(args.function == "params" ? "params: \(name)" : args.function): "
                           + "default must be a number, a string, a duration or a boolean, got \(stack.describe(at: index))")
        }
    }

    /// The default of the full form, checked against its declared `type`.
    private static func typed(_ args: Arguments, _ kind: Parameter.Kind, at index: Int32,
                              what: String = "default") throws(APIError) -> ParameterValue {
        let stack = args.stack
        switch kind {
        case .integer:
            guard let value = stack.integer(at: index) else { throw args.fail(what, kind.expected, at: index) }
            return .integer(value)
        case .number:
            guard let value = stack.number(at: index), value.isFinite else { throw args.fail(what, kind.expected, at: index) }
            return .number(value)
        case .duration:
            let seconds = try args.duration(at: index, what: what)
            return .duration(seconds: seconds, text: stack.string(at: index) ?? Number.format(seconds) + "s")
        case .string:
            guard let value = stack.string(at: index) else { throw args.fail(what, kind.expected, at: index) }
            return .string(value)
        case .boolean:
            guard let value = stack.boolean(at: index) else { throw args.fail(what, "true or false", at: index) }
            return .boolean(value)
        }
    }

    private static func push(_ value: ParameterValue, on stack: LuaStack) {
        switch value {
        case .integer(let number): stack.push(number)
        case .number(let number): lua_pushnumber(stack.L, number)
        case .duration(let seconds, _): stack.push(seconds)
        case .string(let text): stack.push(text)
        case .boolean(let flag): stack.push(flag)
        }
    }

    /// `__index` of the returned table: reading a parameter that was never declared
    /// (`p.roudns`) is an error at that line, not a nil that fails somewhere later.
    static let missing: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            var names: [String] = []
            stack.forEachPair(1) {
                if let name = stack.string(at: -2) { names.append(name) }
            }
            let declared = names.isEmpty ? "none are declared" : "declared: " + names.sorted().joined(separator: ", ")
            throw APIError("params: no parameter \(stack.describe(at: 2)) (\(declared))")
        }
    }
}
