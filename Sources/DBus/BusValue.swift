import CSDBus

/// A D-Bus value as read from a message: BlueZ's and the players' answers and signals are
/// small trees of dictionaries and variants, read here once into plain Swift values.
public indirect enum BusValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case bytes([UInt8])
    case array([BusValue])
    case dictionary([String: BusValue])
    case structure([BusValue])

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    public var dictionary: [String: BusValue]? { if case .dictionary(let value) = self { value } else { nil } }
    public var strings: [String] {
        if case .array(let items) = self { items.compactMap(\.string) } else { [] }
    }
}

/// Reads a message's arguments into `BusValue`s with sd-bus's peek/read/enter calls.
struct BusReader {
    let table: workout_sd_bus
    let message: OpaquePointer

    /// Every argument left in the message (or in the container entered).
    func readAll() -> [BusValue] {
        var values: [BusValue] = []
        while let value = readOne() { values.append(value) }
        return values
    }

    /// The next value, or nil at the end of the message or container (or on a malformed one).
    func readOne() -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        guard table.message_peek_type(message, &type, &contents) > 0 else { return nil }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"):
            guard let contents else { return nil }
            let inner = String(cString: contents)
            if inner == "y" {
                var pointer: UnsafeRawPointer? = nil
                var size = 0
                guard table.message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size) >= 0 else { return nil }
                guard let pointer, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: size)))
            }
            guard table.message_enter_container(message, type, contents) > 0 else { return nil }
            defer { _ = table.message_exit_container(message) }
            if inner.hasPrefix("{") {
                var entries: [String: BusValue] = [:]
                let entry = String(inner.dropFirst().dropLast())
                while entry.withCString({ table.message_enter_container(message, CChar(UInt8(ascii: "e")), $0) }) > 0 {
                    let key = readOne()
                    let value = readOne()
                    _ = table.message_exit_container(message)
                    guard let key, let value else { return nil }
                    entries[key.string ?? key.integer.map { String($0) } ?? ""] = value
                }
                return .dictionary(entries)
            }
            return .array(readAll())
        case UInt8(ascii: "v"), UInt8(ascii: "r"):
            guard table.message_enter_container(message, type, contents) > 0 else { return nil }
            let inner = readAll()
            _ = table.message_exit_container(message)
            if type == CChar(UInt8(ascii: "v")) { return inner.first }
            return .structure(inner)
        default:
            return readBasic(type)
        }
    }

    private func readBasic(_ type: CChar) -> BusValue? {
        func read<T: BitwiseCopyable>(_ initial: T) -> T? {
            var value = initial
            return table.message_read_basic(message, type, &value) > 0 ? value : nil
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>? = nil
            guard table.message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            return .string(String(cString: pointer))
        case UInt8(ascii: "b"): return read(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "y"): return read(UInt8(0)).map { .integer(Int64($0)) }
        case UInt8(ascii: "n"): return read(Int16(0)).map { .integer(Int64($0)) }
        case UInt8(ascii: "q"): return read(UInt16(0)).map { .integer(Int64($0)) }
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return read(Int32(0)).map { .integer(Int64($0)) }
        case UInt8(ascii: "u"): return read(UInt32(0)).map { .integer(Int64($0)) }
        case UInt8(ascii: "x"): return read(Int64(0)).map { .integer($0) }
        case UInt8(ascii: "t"): return read(UInt64(0)).map { .integer(Int64(truncatingIfNeeded: $0)) }
        case UInt8(ascii: "d"): return read(Double(0)).map { .double($0) }
        default:
            return nil
        }
    }
}
