/// Reads the messages of a FIT file, the other way from `FITEncoder`: the header and the
/// CRCs checked first (a damaged file is refused before anything in it is believed),
/// then definition and data messages, either byte order, developer fields and
/// compressed-timestamp headers stepped over. Each data message comes out as its global
/// number and its fields by number, numbers as unsigned integers (invalid values left
/// out) and strings as text, which is all `FITWorkoutReader` needs; the sensor fuzzer reads
/// the activity files `FITActivity` writes back with it.
public struct FITDecoder {
    public struct Message {
        public var global: UInt16
        public var numbers: [UInt8: UInt64] = [:]
        public var texts: [UInt8: String] = [:]
        /// Where it starts in the file, for messages.
        public var offset: Int
    }

    /// Why the bytes are not a FIT file workout can read.
    public struct Problem: Error {
        public var message: String

        /// Also a visitor's own reason to stop reading (`forEachMessage`).
        public init(message: String) {
            self.message = message
        }
    }

    private struct Layout {
        var global: UInt16
        var bigEndian: Bool
        var fields: [(number: UInt8, size: Int, type: UInt8)]
        var developerBytes: Int
        /// A data message's bytes after its header, summed once at its definition.
        var size: Int
    }

    /// Every data message, in order.
    public static func messages(_ bytes: [UInt8]) throws(Problem) -> [Message] {
        var messages: [Message] = []
        try forEachMessage(bytes) { message throws(Problem) in messages.append(message) }
        return messages
    }

    /// Each data message handed to `visit` as it is read, none kept: a reader that wants
    /// only some (a workout's steps) holds only those, and one that refuses a file (too many
    /// steps) stops the reading by throwing. So the time is linear in the file and the
    /// memory bounded by what the reader keeps.
    public static func forEachMessage(_ bytes: [UInt8], _ visit: (Message) throws(Problem) -> Void) throws(Problem) {
        guard bytes.count >= 12, bytes[0] == 12 || bytes[0] == 14, bytes.count >= Int(bytes[0]),
              Array(bytes[8..<12]) == Array(".FIT".utf8) else {
            throw Problem(message: "not a FIT file (no FIT header)")
        }
        let headerSize = Int(bytes[0])
        let dataSize = Int(number(bytes[4..<8], bigEndian: false))
        guard bytes.count >= headerSize + dataSize + 2 else {
            throw Problem(message: "the FIT file is cut short: its header promises \(dataSize) bytes of data, "
                          + "it holds \(max(0, bytes.count - headerSize - 2))")
        }
        if headerSize == 14 {
            let stored = UInt16(number(bytes[12..<14], bigEndian: false))
            guard stored == 0 || stored == FITEncoder.crc(bytes[0..<12]) else {
                throw Problem(message: "the FIT file is damaged: its header's CRC does not match")
            }
        }
        let end = headerSize + dataSize
        let stored = UInt16(number(bytes[end..<(end + 2)], bigEndian: false))
        guard stored == FITEncoder.crc(bytes[0..<end]) else {
            throw Problem(message: "the FIT file is damaged: its CRC does not match its contents")
        }
        var layouts: [UInt8: Layout] = [:]
        var position = headerSize
        func need(_ count: Int) throws(Problem) {
            guard position + count <= end else {
                throw Problem(message: "the FIT file's message at byte \(position) runs past the end of its data")
            }
        }
        while position < end {
            let header = bytes[position]
            let start = position
            position += 1
            if header & 0x80 != 0 {
                // A compressed-timestamp header: a data message of local type in bits 5-6.
                let local = (header >> 5) & 0x3
                guard let layout = layouts[local] else {
                    throw Problem(message: "the FIT file uses local message \(local) at byte \(start) before defining it")
                }
                try need(layout.size)
                try visit(read(layout, bytes, at: &position, start: start))
            } else if header & 0x40 != 0 {
                try need(5)
                let bigEndian = bytes[position + 1] == 1
                let global = UInt16(number(bytes[(position + 2)..<(position + 4)], bigEndian: bigEndian))
                let count = Int(bytes[position + 4])
                position += 5
                try need(3 * count)
                var fields: [(number: UInt8, size: Int, type: UInt8)] = []
                for index in 0..<count {
                    let at = position + 3 * index
                    fields.append((bytes[at], Int(bytes[at + 1]), bytes[at + 2]))
                }
                position += 3 * count
                var developerBytes = 0
                if header & 0x20 != 0 {
                    try need(1)
                    let developerCount = Int(bytes[position])
                    position += 1
                    try need(3 * developerCount)
                    for index in 0..<developerCount { developerBytes += Int(bytes[position + 3 * index + 1]) }
                    position += 3 * developerCount
                }
                layouts[header & 0x0F] = Layout(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes,
                                                size: fields.reduce(0) { $0 + $1.size } + developerBytes)
            } else {
                let local = header & 0x0F
                guard let layout = layouts[local] else {
                    throw Problem(message: "the FIT file uses local message \(local) at byte \(start) before defining it")
                }
                try need(layout.size)
                try visit(read(layout, bytes, at: &position, start: start))
            }
        }
    }

    private static func read(_ layout: Layout, _ bytes: [UInt8], at position: inout Int, start: Int) -> Message {
        var message = Message(global: layout.global, offset: start)
        for field in layout.fields {
            let value = bytes[position..<(position + field.size)]
            position += field.size
            let baseType = field.type & 0x1F
            if baseType == 0x07 {
                message.texts[field.number] = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
                continue
            }
            // One integer of 1, 2, 4 or 8 bytes (base types 0-16 but string and the floats);
            // arrays are not used here.
            let sizes = [1, 1, 1, 2, 2, 4, 4, 0, 0, 0, 1, 2, 4, 1, 8, 8, 8]
            let size = Int(baseType) < sizes.count ? sizes[Int(baseType)] : 0
            guard size > 0, field.size == size else { continue }
            let read = number(value, bigEndian: layout.bigEndian && size > 1)
            let invalid: UInt64 = switch baseType {
            case 10, 11, 12, 16: 0
            case 1: 0x7F
            case 3: 0x7FFF
            case 5: 0x7FFF_FFFF
            case 14: 0x7FFF_FFFF_FFFF_FFFF
            default: size == 8 ? UInt64.max : (UInt64(1) << UInt64(8 * size)) - 1
            }
            if read != invalid { message.numbers[field.number] = read }
        }
        position += layout.developerBytes
        return message
    }

    private static func number(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> UInt64 {
        let ordered = bigEndian ? Array(bytes) : bytes.reversed()
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
