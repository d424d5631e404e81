/// The segment clock as the display shows it: remaining time rounded up to the whole
/// second, as a gym clock shows it (`0:03`); with `--tenths`, to the tenth in the last
/// 3 s (`0:02.5`). Tenths are not the default: a clock read from across the room cannot
/// be read at ten changes a second, and each tenth is a wake-up of the display — 30 of a
/// segment's, and about a third of a 20 s countdown's CPU time (BENCHMARKS.md). Everything
/// time-dependent on screen — the clock, both bars, the totals — is derived from this one
/// value, so the screen changes only when it does, and `nextChange` is the only moment
/// the display needs to wake.
public struct ShownTime: Equatable, Sendable {
    /// Remaining tenths of a second: a multiple of 10, except in the last 3 s with tenths.
    public let tenths: Int
    /// Whether this clock shows tenths in the last 3 s (`--tenths`).
    public let withTenths: Bool

    /// With `--tenths`, tenths are shown from this many seconds left.
    public static let tenthsBelow = 3

    public init(remaining: Double, tenths withTenths: Bool) {
        self.withTenths = withTenths
        let seconds = max(0, remaining)
        if !withTenths || seconds > Double(ShownTime.tenthsBelow) {
            // A microsecond of float noise must not show 0:21 for 20 s.
            tenths = Number.whole(min((seconds - 1e-6).rounded(.up), 1e15)) * 10
        } else {
            tenths = Number.whole((seconds * 10 - 1e-6).rounded(.up))
        }
    }

    /// Whether the clock shows tenths now.
    public var showsTenths: Bool { withTenths && tenths <= ShownTime.tenthsBelow * 10 }

    /// Remaining seconds as shown.
    public var seconds: Double { Double(tenths) / 10 }

    /// The workout time at which the shown value next changes, for a segment ending at
    /// `deadline`; nil when the next change is the end itself (the end timer redraws).
    public func nextChange(deadline: Double) -> Double? {
        let lower = tenths - (showsTenths ? 1 : 10)
        return lower > 0 ? deadline - Double(lower) / 10 : nil
    }

    /// `1:05`, `0:02.5`, `1:02:03`.
    public var remainingText: String { ShownTime.text(tenths: tenths, tenthsShown: showsTenths) }

    /// Time done in a segment of `duration`, for `--count-up`: it moves when the
    /// remaining time does, with tenths (if shown) in the same last 3 s.
    public func elapsedText(duration: Double) -> String {
        let total = Number.whole((min(max(0, duration), 1e15) * 10).rounded())
        return ShownTime.text(tenths: max(0, total - tenths), tenthsShown: showsTenths)
    }

    static func text(tenths: Int, tenthsShown: Bool) -> String {
        let text = TimeText.hms(tenths / 10)
        return tenthsShown ? text + ".\(tenths % 10)" : text
    }
}
