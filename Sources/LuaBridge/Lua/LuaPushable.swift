import CLua
import IntervalEngine

/// A Swift value that says how it goes on a Lua stack, as LuaSwift's `Pushable` does: the
/// tables hooks receive are built from values (`LuaFields`), not from push and set-field
/// pairs that must be kept in step by hand.
protocol LuaPushable {
    func push(onto stack: LuaStack)
}

extension String: LuaPushable {
    func push(onto stack: LuaStack) { stack.push(self) }
}

extension Int: LuaPushable {
    func push(onto stack: LuaStack) { stack.push(self) }
}

/// A whole number goes as an integer (`LuaStack.push(_: Double)`).
extension Double: LuaPushable {
    func push(onto stack: LuaStack) { stack.push(self) }
}

extension Bool: LuaPushable {
    func push(onto stack: LuaStack) { stack.push(self) }
}

/// A value the routine's Lua holds (a segment's `info` table), the same table on every push.
struct LuaHeld: LuaPushable {
    let refs: LuaRefs
    let ref: LuaRef

    func push(onto stack: LuaStack) { refs.push(ref) }
}

/// A table's named fields, in order. A nil value is no field in a new table, and clears
/// the field of a table it is set on.
struct LuaFields: LuaPushable {
    private var fields: [(key: String, value: (any LuaPushable)?)]

    init(_ fields: KeyValuePairs<String, (any LuaPushable)?>) {
        self.fields = fields.map { ($0.key, $0.value) }
    }

    init(_ fields: [(key: String, value: (any LuaPushable)?)]) {
        self.fields = fields
    }

    mutating func append(_ key: String, _ value: (any LuaPushable)?) {
        fields.append((key, value))
    }

    /// A new table with the fields.
    func push(onto stack: LuaStack) {
        lua_createtable(stack.L, 0, Int32(fields.count))
        for (key, value) in fields {
            guard let value else { continue }
            value.push(onto: stack)
            stack.setField(key)
        }
    }

    /// Sets every field on the table on top of the stack (nil ones cleared).
    func set(on stack: LuaStack) {
        for (key, value) in fields {
            if let value { value.push(onto: stack) } else { stack.pushNil() }
            stack.setField(key)
        }
    }
}

/// A new table on top of the stack, its fields set one by one: `LuaFields`' form for a
/// table built on every hook call (a segment's `seg`), where boxing each value as
/// `any LuaPushable` cost more than the call itself (the hooks benchmark).
struct LuaTable {
    let stack: LuaStack

    /// Sets `key` to `value`; nil sets no field.
    func set<Value: LuaPushable>(_ key: String, _ value: Value?) {
        guard let value else { return }
        value.push(onto: stack)
        stack.setField(key)
    }
}

extension LuaStack {
    /// Pushes a new table of `fields` named fields, filled by `fill`.
    func pushTable(fields: Int32, _ fill: (LuaTable) -> Void) {
        lua_createtable(L, 0, fields)
        fill(LuaTable(stack: self))
    }
}

/// A sequence: `t[1]`, `t[2]`…
struct LuaList: LuaPushable {
    let items: [any LuaPushable]

    init(_ items: [any LuaPushable]) {
        self.items = items
    }

    func push(onto stack: LuaStack) {
        lua_createtable(stack.L, Int32(items.count), 0)
        for (position, item) in items.enumerated() {
            item.push(onto: stack)
            lua_rawseti(stack.L, -2, lua_Integer(position + 1))
        }
    }
}
