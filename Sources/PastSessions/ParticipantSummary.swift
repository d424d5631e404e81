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

    public init(name: String, averageHR: Double?, maxHR: Int?, averagePower: Double?) {
        self.name = name
        self.averageHR = averageHR
        self.maxHR = maxHR
        self.averagePower = averagePower
    }
}
