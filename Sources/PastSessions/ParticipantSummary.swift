/// One participant of a class (`run --mqtt`'s `PREFIX/participants/NAME`) as the
/// coach's history line keeps it: `{"name":…,"hr_avg":…,"hr_max":…,"power_avg":…}` in
/// the line's `participants` array. Readers that predate it skip the field.
public struct ParticipantSummary: Equatable, Sendable {
    public var name: String
    public var averageHR: Double?
    public var maxHR: Int?
    public var averagePower: Double?

    /// Entries a line keeps at most (the roster's own bound).
    public static let most = 256
    /// Characters of a name at most, written or read.
    public static let longestName = 40
    /// Bytes of a name at most, written: 40 characters may be a kilobyte of emoji (25 bytes
    /// a family), and 256 such names made a history line past what its reader takes and a
    /// roster past what a page's viewer may fall behind.
    public static let longestNameBytes = 48

    /// `name` within `longestName` characters and `longestNameBytes` bytes, cut at the end
    /// of a character (never inside an emoji's sequence).
    public static func bounded(_ name: String) -> String {
        var kept = Substring(name.prefix(longestName))
        while kept.utf8.count > longestNameBytes { kept = kept.dropLast() }
        return String(kept)
    }

    public init(name: String, averageHR: Double?, maxHR: Int?, averagePower: Double?) {
        self.name = name
        self.averageHR = averageHR
        self.maxHR = maxHR
        self.averagePower = averagePower
    }
}
