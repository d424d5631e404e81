import CLua
import IntervalEngine
import WorkoutValues

/// Checked reading of a constructor's arguments and fields, with the messages a routine
/// author sees: `work: duration must be more than 0 seconds, got 0`.
struct Arguments {
    let stack: LuaStack
    let state: LuaState
    /// The function being called, as the author wrote it: `work`, `rounds`.
    let function: String

    func isAbsent(_ index: Int32) -> Bool {
        let type = stack.type(at: index)
        return type == LUA_TNIL || type == LUA_TNONE
    }

    func fail(_ what: String, _ expected: String, at index: Int32) -> APIError {
        APIError("\(function): \(what) must be \(expected), got \(stack.describe(at: index))")
    }

    func duration(at index: Int32, what: String = "duration") throws(APIError) -> Double {
        switch stack.type(at: index) {
        case LUA_TNUMBER:
            do {
                return try Duration.seconds(stack.number(at: index)!)
            } catch {
                throw APIError("\(function): \(what) \(error.explanation), got \(stack.describe(at: index))")
            }
        case LUA_TSTRING:
            do {
                return try Duration.parse(stack.string(at: index)!)
            } catch {
                throw APIError("\(function): \(what) \(stack.describe(at: index)) \(error.explanation)")
            }
        default:
            throw fail(what, "a number of seconds or a string like \"1:30\"", at: index)
        }
    }

    func text(at index: Int32, what: String) throws(APIError) -> String {
        guard let text = stack.string(at: index), !text.isEmpty else {
            throw fail(what, "a non-empty string", at: index)
        }
        guard VisibleText.isPlainName(text) else { throw fail(what, "text without control characters", at: index) }
        return text
    }

    /// Names are printed on the user's terminal: no control characters (VisibleText).
    func visible(_ text: String, what: String, at index: Int32) throws(APIError) {
        guard !text.unicodeScalars.contains(where: VisibleText.isControl) else {
            throw fail(what, "text without control characters", at: index)
        }
    }

    func table(at index: Int32, what: String) throws(APIError) {
        guard stack.type(at: index) == LUA_TTABLE else { throw fail(what, "a table", at: index) }
    }

    func function(at index: Int32, what: String) throws(APIError) -> LuaRef {
        guard stack.type(at: index) == LUA_TFUNCTION else { throw fail(what, "a function", at: index) }
        return state.refs.make(at: index, on: stack)
    }

    func payload(at index: Int32, what: String = "info") throws(APIError) -> LuaRef {
        try table(at: index, what: what)
        return state.refs.make(at: index, on: stack)
    }

    func noArguments(after index: Int32) throws(APIError) {
        let top = stack.top
        guard top > index else { return }
        for extra in (index + 1)...top where !isAbsent(extra) {
            throw APIError("\(function): takes at most \(index) argument\(index == 1 ? "" : "s"), got \(top)")
        }
    }

    /// Visits a table given as named fields; an unknown field is an error naming the
    /// expected ones, so a misspelt `on_segment_strat` does not silently do nothing.
    /// Integer keys go to `item` when given, else they are errors too.
    func fields(of index: Int32, known: [String], what: String = "the table",
                field: (String, Int32) throws(APIError) -> Void,
                item: ((Int, Int32) throws(APIError) -> Void)? = nil) throws(APIError) {
        let table = lua_absindex(stack.L, index)
        var failure: APIError?
        stack.forEachPair(table) {
            guard failure == nil else { return }
            do throws(APIError) {
                if let key = stack.string(at: -2) {
                    guard known.contains(key) else {
                        if known.isEmpty { throw APIError("\(function): \(what) must be a list of steps, found a field '\(key)'") }
                        throw APIError("\(function): unknown field '\(key)' (expected \(known.joined(separator: ", ")))")
                    }
                    try field(key, lua_absindex(stack.L, -1))
                } else if let item, stack.isInteger(at: -2), let position = stack.integer(at: -2) {
                    try item(position, lua_absindex(stack.L, -1))
                } else {
                    throw APIError("\(function): unexpected key \(stack.describe(at: -2))\(known.isEmpty ? " in \(what)" : "") (expected \(known.isEmpty ? "positions 1, 2, 3…" : known.joined(separator: ", ")))")
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The items `1...n` of a table, in order; a gap (a nil in the middle, often a
    /// misspelt variable) is an error naming its position.
    func ordered<Item>(_ items: [Int: Item], what: String) throws(APIError) -> [Item] {
        var ordered: [Item] = []
        ordered.reserveCapacity(items.count)
        for position in 1...max(items.count, 1) where !items.isEmpty {
            guard let item = items[position] else {
                throw APIError("\(function): \(what) \(position) is nil (is a variable misspelt?)")
            }
            ordered.append(item)
        }
        return ordered
    }

    func step(at index: Int32, what: String) throws(APIError) -> Step {
        guard let raw = luaL_testudata(stack.L, index, RoutineAPI.stepMetatable) else {
            throw fail(what, "a step such as work(20) or rounds(…)", at: index)
        }
        guard let step = state.builder.step(raw.load(as: Int.self)) else {
            throw APIError("\(function): \(what) was made while the file loaded and is gone once a fixed workout starts")
        }
        return step
    }

    /// Pushes a new step userdata and remembers the step.
    func push(_ step: Step) -> Int32 {
        state.builder.steps.append(step)
        switch step {
        case .segment(let spec):
            state.charge(160 + spec.kind.utf8.count + spec.name.utf8.count + spec.cues.count * 64)
        case .rounds(let spec):
            state.charge(160 + (spec.name?.utf8.count ?? 0) + spec.steps.count * 16)
        case .generate:
            state.charge(160)
        }
        let raw = lua_newuserdatauv(stack.L, MemoryLayout<Int>.size, 0)!
        raw.storeBytes(of: state.builder.steps.count - 1, as: Int.self)
        luaL_setmetatable(stack.L, RoutineAPI.stepMetatable)
        return 1
    }
}
