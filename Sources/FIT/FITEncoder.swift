/// The bytes of a FIT file (Garmin's Flexible and Interoperable Data Transfer protocol,
/// 2.0): a 14-byte header, then definition messages, each saying which fields a local
/// message type carries, and data messages in that layout, little-endian, then the
/// CRC-16 of it all. Only what `FITActivity` and the FIT workout writer (`Interchange`) write is here: normal headers, no
/// developer fields, no compressed timestamps.
public struct FITEncoder {
    /// The FIT base types used, with their numbers and "invalid" values (a field with no
    /// value carries its type's invalid value).
    public enum BaseType: UInt8 {
        case enumeration = 0x00, uint8 = 0x02, uint16 = 0x84, uint32 = 0x86, string = 0x07, uint32z = 0x8C
        /// Signed: its value is given as the bit pattern of an `Int64` (a grade of −2.5 %).
        case sint16 = 0x83

        public var size: Int {
            switch self {
            case .enumeration, .uint8, .string: 1
            case .uint16, .sint16: 2
            case .uint32, .uint32z: 4
            }
        }

        public var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: 0xFF
            case .uint16: 0xFFFF
            case .sint16: 0x7FFF
            case .uint32: 0xFFFF_FFFF
            case .uint32z, .string: 0
            }
        }
    }

    /// A field of a message: its number in the FIT profile, type, and size in bytes (a
    /// string's size is its room, NUL included).
    public struct Field {
        public var number: UInt8
        public var type: BaseType
        public var size: Int

        public init(_ number: UInt8, _ type: BaseType, size: Int? = nil) {
            self.number = number
            self.type = type
            self.size = size ?? type.size
        }
    }

    public enum Value {
        case number(UInt64)
        case text(String)
        case none
    }

    /// The profile version the messages follow (21.x: every field used is as old as 20.x).
    public static let profileVersion: UInt16 = 2_132
    /// Seconds from the Unix epoch to FIT's (1989-12-31T00:00:00Z).
    public static let epochOffset = 631_065_600.0

    private(set) var bytes: [UInt8] = Array(repeating: 0, count: 14)
    private var layouts: [UInt8: [Field]] = [:]

    public init() {}

    /// Defines local message type `local` as message `global` with `fields`.
    public mutating func define(local: UInt8, global: UInt16, _ fields: [Field]) {
        bytes.append(0x40 | local)
        bytes += [0, 0]
        append(UInt64(global), size: 2)
        bytes.append(UInt8(fields.count))
        for field in fields {
            bytes += [field.number, UInt8(field.size), field.type.rawValue]
        }
        layouts[local] = fields
    }

    /// One message of local type `local`, its values in the order of its definition.
    public mutating func message(local: UInt8, _ values: [Value]) {
        guard let fields = layouts[local] else { preconditionFailure("FIT local message \(local) is not defined") }
        precondition(fields.count == values.count, "FIT message \(local): \(values.count) values for \(fields.count) fields")
        bytes.append(local)
        for (field, value) in zip(fields, values) {
            switch value {
            case .number(let number) where field.type == .sint16:
                // Between the smallest and one below the invalid value (0x7FFF), two's complement.
                let clamped = min(Int64(Int16.max) - 1, max(Int64(Int16.min), Int64(bitPattern: number)))
                append(UInt64(UInt16(bitPattern: Int16(clamped))), size: field.size)
            case .number(let number):
                // The largest value a field holds is one below its invalid value (z types: all ones).
                let largest = field.type.invalid == 0 ? (UInt64(1) << UInt64(8 * field.size)) - 1 : field.type.invalid - 1
                append(min(number, largest), size: field.size)
            case .text(let text):
                bytes += Self.text(text, room: field.size)
            case .none:
                if field.type == .string {
                    bytes += Array(repeating: 0, count: field.size)
                } else {
                    append(field.type.invalid, size: field.size)
                }
            }
        }
    }

    /// The file: the header with the data's size and its CRC, then the data, then the CRC.
    public func finished() -> [UInt8] {
        var file = bytes
        let dataSize = UInt32(file.count - 14)
        let header: [UInt8] = [14, 0x20] + Self.littleEndian(UInt64(Self.profileVersion), size: 2)
            + Self.littleEndian(UInt64(dataSize), size: 4) + Array(".FIT".utf8)
        file.replaceSubrange(0..<12, with: header)
        file.replaceSubrange(12..<14, with: Self.littleEndian(UInt64(Self.crc(file[0..<12])), size: 2))
        file += Self.littleEndian(UInt64(Self.crc(file[...])), size: 2)
        return file
    }

    /// FIT's date_time: seconds since its epoch.
    public static func time(_ seconds: Double) -> UInt64 {
        UInt64(max(0, (seconds - epochOffset).rounded(.down)))
    }

    /// UTF-8, cut at a character's boundary to leave room for the NUL, padded with NULs.
    public static func text(_ text: String, room: Int) -> [UInt8] {
        var utf8: [UInt8] = []
        for character in text {
            let encoded = Array(String(character).utf8)
            guard utf8.count + encoded.count < room else { break }
            // A NUL inside would end the string early.
            if !encoded.contains(0) { utf8 += encoded }
        }
        return utf8 + Array(repeating: 0, count: room - utf8.count)
    }

    private mutating func append(_ value: UInt64, size: Int) {
        for position in 0..<size {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(position))))
        }
    }

    private static func littleEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The FIT SDK's CRC-16 (polynomial 0xA001, four bits at a time).
    public static func crc(_ data: ArraySlice<UInt8>) -> UInt16 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                               0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc: UInt16 = 0
        for byte in data {
            var low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int(byte & 0xF)]
            low = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }
}
