import CLua
import IntervalEngine
import WorkoutValues

/// A Lua value as JSON, for payloads in events and plans. Tables become arrays when
/// their keys are exactly 1…n, objects otherwise (keys sorted, so output is stable);
/// functions and userdata become their `tostring`; a table met again on its own path
/// (a cycle) becomes `"<cycle>"`.
enum LuaJSON {
    static let maximumDepth = 32

    static func value(_ stack: LuaStack, at index: Int32) -> JSONValue {
        var path: Set<UnsafeRawPointer> = []
        return value(stack, at: lua_absindex(stack.L, index), path: &path)
    }

    private static func value(_ stack: LuaStack, at index: Int32, path: inout Set<UnsafeRawPointer>) -> JSONValue {
        switch stack.type(at: index) {
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TBOOLEAN: return .bool(stack.boolean(at: index)!)
        case LUA_TNUMBER:
            if stack.isInteger(at: index) { return .integer(Int(lua_tointegerx(stack.L, index, nil))) }
            let number = stack.number(at: index)!
            return number.isFinite ? .number(number) : .string(Number.format(number))
        case LUA_TSTRING: return .string(stack.string(at: index)!)
        case LUA_TTABLE: return table(stack, at: index, path: &path)
        default:
            let address = UInt(bitPattern: lua_topointer(stack.L, index))
            return .string("\(stack.typeName(at: index)): 0x\(String(address, radix: 16))")
        }
    }

    private static func table(_ stack: LuaStack, at index: Int32, path: inout Set<UnsafeRawPointer>) -> JSONValue {
        guard let pointer = lua_topointer(stack.L, index) else { return .null }
        guard !path.contains(pointer), path.count < maximumDepth else { return .string("<cycle>") }
        // Each level holds a key and a value on the stack; Swift pushes outside any C
        // function, where Lua checks nothing, so make room or stop here.
        guard lua_checkstack(stack.L, 4) != 0 else { return .string("<too deep>") }
        path.insert(pointer)
        defer { path.remove(pointer) }
        var integerKeys: [Int: JSONValue] = [:]
        var namedKeys: [(String, JSONValue)] = []
        stack.forEachPair(index) {
            let item = value(stack, at: lua_absindex(stack.L, -1), path: &path)
            if stack.isInteger(at: -2), let key = stack.integer(at: -2) {
                integerKeys[key] = item
            } else if let key = stack.string(at: -2) {
                namedKeys.append((key, item))
            } else {
                namedKeys.append((key(stack, at: -2), item))
            }
        }
        let isArray = namedKeys.isEmpty && !integerKeys.isEmpty
            && integerKeys.keys.min() == 1 && integerKeys.keys.max() == integerKeys.count
        if isArray {
            return .array((1...integerKeys.count).map { integerKeys[$0]! })
        }
        for (key, item) in integerKeys {
            namedKeys.append((String(key), item))
        }
        return .object(namedKeys.sorted { $0.0 < $1.0 })
    }

    private static func key(_ stack: LuaStack, at index: Int32) -> String {
        if let number = stack.number(at: index) { return Number.format(number) }
        if let flag = stack.boolean(at: index) { return flag ? "true" : "false" }
        let address = UInt(bitPattern: lua_topointer(stack.L, index))
        return "\(stack.typeName(at: index)): 0x\(String(address, radix: 16))"
    }
}
