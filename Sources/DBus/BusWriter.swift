import CSDBus

/// Appends a call's arguments.
public struct BusWriter {
    let table: workout_sd_bus
    let message: OpaquePointer

    public func string(_ value: String) {
        _ = table.message_append_basic(message, CChar(UInt8(ascii: "s")), value)
    }

    public func objectPath(_ value: String) {
        _ = table.message_append_basic(message, CChar(UInt8(ascii: "o")), value)
    }

    /// A variant holding a double (a property's value for `Properties.Set`).
    public func variant(_ value: Double) {
        var number = value
        _ = table.message_open_container(message, CChar(UInt8(ascii: "v")), "d")
        _ = table.message_append_basic(message, CChar(UInt8(ascii: "d")), &number)
        _ = table.message_close_container(message)
    }

    public func bytes(_ value: [UInt8]) {
        _ = value.withUnsafeBytes { table.message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
    }

    /// An `a{sv}` whose values are strings or string arrays (BlueZ's options and filters).
    public func options(_ entries: [(String, BusOption)]) {
        _ = table.message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
        for (key, value) in entries {
            _ = table.message_open_container(message, CChar(UInt8(ascii: "e")), "sv")
            _ = table.message_append_basic(message, CChar(UInt8(ascii: "s")), key)
            switch value {
            case .string(let text):
                _ = table.message_open_container(message, CChar(UInt8(ascii: "v")), "s")
                _ = table.message_append_basic(message, CChar(UInt8(ascii: "s")), text)
            case .strings(let texts):
                _ = table.message_open_container(message, CChar(UInt8(ascii: "v")), "as")
                _ = table.message_open_container(message, CChar(UInt8(ascii: "a")), "s")
                for text in texts { _ = table.message_append_basic(message, CChar(UInt8(ascii: "s")), text) }
                _ = table.message_close_container(message)
            }
            _ = table.message_close_container(message)
            _ = table.message_close_container(message)
        }
        _ = table.message_close_container(message)
    }
}

/// A value in an `a{sv}` of options.
public enum BusOption {
    case string(String)
    case strings([String])
}
