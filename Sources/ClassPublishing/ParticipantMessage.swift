import IntervalEngine
import PastSessions
import WorkoutValues

/// One message on `PREFIX/participants/NAME`, read strictly: a JSON object
/// `{"name": …, "hr": …, "hr_zone": …, "power": …}` (every field optional, others
/// ignored), or leaving — an empty payload (a follower's last will) or `"gone": true`.
/// Values outside `PlausibleReadings` (and zones outside 1–5) are taken as no value;
/// anything that is not such an object is refused whole.
public enum ParticipantMessage: Equatable, Sendable {
    case reading(name: String?, hr: Int?, zone: Int?, power: Int?)
    case gone

    /// The longest payload read; longer ones are dropped unread.
    public static let largest = 1024
    /// Characters of a name kept (a longer one is cut): a row of the class page holds it.
    public static let longestName = 40
    /// Bytes of a name at most (`ParticipantSummary.longestNameBytes`).
    public static let longestNameBytes = ParticipantSummary.longestNameBytes

    public init?(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            self = .gone
            return
        }
        guard bytes.count <= Self.largest,
              case .object(let fields)? = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }) else { return nil }
        var name: String?
        var hr: Int?
        var zone: Int?
        var power: Int?
        for (key, value) in fields {
            switch (key, value) {
            case ("gone", .bool(true)):
                self = .gone
                return
            case ("name", .string(let text)): name = Self.shownName(text)
            case ("name", .null), ("hr", .null), ("hr_zone", .null), ("power", .null), ("gone", .bool(false)): break
            case ("hr", _): guard let whole = Self.whole(value) else { return nil }; hr = PlausibleReadings.heartRate(whole)
            case ("power", _): guard let whole = Self.whole(value) else { return nil }; power = PlausibleReadings.power(whole)
            case ("hr_zone", _): guard let whole = Self.whole(value) else { return nil }; zone = (1...5).contains(whole) ? whole : nil
            case ("name", _), ("gone", _): return nil
            default: continue
            }
        }
        self = .reading(name: name, hr: hr, zone: zone, power: power)
    }

    /// A JSON number that is a whole number in a sane range (an integer, or 142.0).
    static func whole(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let number): return abs(number) < 1_000_000 ? number : nil
        case .number(let number):
            guard number.isFinite, number.rounded() == number, abs(number) < 1_000_000 else { return nil }
            return Int(number)
        default: return nil
        }
    }

    /// The name kept: surrounding blanks trimmed, at most `longestName` characters and
    /// `longestNameBytes` bytes (`ParticipantSummary.bounded`); nil
    /// when nothing is left. Kept as sent: the terminal escapes it (`VisibleText`), the
    /// page sets it as text, the history writes it as a JSON string.
    public static func shownName(_ text: String) -> String? {
        let trimmed = text.trimmingBlanks
        guard !trimmed.isEmpty else { return nil }
        return ParticipantSummary.bounded(trimmed)
    }
}

extension String {
    fileprivate var trimmingBlanks: String {
        var scalars = Substring(self)
        while scalars.first?.isWhitespace == true { scalars = scalars.dropFirst() }
        while scalars.last?.isWhitespace == true { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
