/// A distance as a runner or a rower writes it: `400m`, `1.5km`, `2mi`, `400 m`; metres
/// when a bare number. The one reader of a routine's `distance = "1km"` and an imported
/// workout's distance steps (intervals.icu's `400mtr` too, where a bare `m` is minutes:
/// the importer says which), so that what one takes the other does too.
public enum DistanceText {
    /// The units a distance may be given in, and their metres (longest names first, so
    /// that `km` is not read as `k` and `m`).
    public static let units: [(name: String, metres: Double)] = [
        ("mtr", 1), ("km", 1_000), ("mi", 1_609.344), ("m", 1),
    ]

    /// The longest distance step: a marathon and then some. A longer one is a slip.
    public static let longest = 100_000.0

    /// What a message says was expected.
    public static let expected = "metres above 0, at most 100 km, such as 400, \"400m\", \"1.5km\" or \"2mi\""

    /// Metres of `text` (`units`: a plain number then a unit, a space between allowed),
    /// `units` limiting which are taken; nil for anything else or outside (0, `longest`].
    public static func metres(_ text: String, units allowed: Set<String>? = nil) -> Double? {
        let lower = text.lowercased().filter { $0 != " " }
        for unit in units where allowed?.contains(unit.name) ?? true && lower.hasSuffix(unit.name) {
            let number = lower.dropLast(unit.name.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  number.filter({ $0 == "." }).count <= 1, let value = Double(String(number)) else { return nil }
            return checked(value * unit.metres)
        }
        return nil
    }

    /// `metres` when it is a distance step's: above 0 and at most `longest`.
    public static func checked(_ metres: Double) -> Double? {
        metres.isFinite && metres > 0 && metres <= longest ? metres : nil
    }

    /// How long `metres` is expected to take at `pace` (else at an easy 6:00/km): what
    /// `plan` counts for a distance step, whole seconds. The one place it is worked out,
    /// so that an imported step and the routine written from it agree.
    public static func expectedSeconds(_ metres: Double, pace: PaceText?) -> Double {
        (metres / 1_000 * (pace?.perKilometre ?? 360)).rounded()
    }

    /// `400 m`, `1.5 km` (from 1,000 m), as a runner reads it.
    public static func words(_ metres: Double) -> String {
        metres >= 1_000 ? Number.format(Number.rounded(metres / 1_000, places: 3)) + " km"
            : Number.format(Number.rounded(metres, places: 1)) + " m"
    }
}
