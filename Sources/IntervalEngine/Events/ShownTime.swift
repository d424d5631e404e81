/// The segment clock as the display shows it: remaining time rounded up to the whole
/// second, and to the tenth in the last 3 s (`0:02.5`, the format interval-timer apps
/// use for the final stretch; the countdown bells ring at 3, 2, 1). Tenths cost a wake-up
/// each: over the last 10 s they were most of the display's CPU time (BENCHMARKS.md), so
/// they are kept to the final countdown. Everything time-dependent on screen — the clock, both
/// bars, the totals — is derived from this one value, so the screen changes only when
/// it does, and `nextChange` is the only moment the display needs to wake.
public struct ShownTime: Equatable, Sendable {
    /// Remaining tenths of a second, a multiple of 10 above 3 s.
    public let tenths: Int

    /// Tenths are shown from this many seconds left.
    public static let tenthsBelow = 3

    public init(remaining: Double) {
        let seconds = max(0, remaining)
        if seconds > Double(ShownTime.tenthsBelow) {
            // A microsecond of float noise must not show 0:21 for 20 s.
            tenths = Number.whole(min((seconds - 1e-6).rounded(.up), 1e15)) * 10
        } else {
            tenths = Number.whole((seconds * 10 - 1e-6).rounded(.up))
        }
    }

    public var showsTenths: Bool { tenths <= ShownTime.tenthsBelow * 10 }

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
    /// remaining time does, with tenths in the same last 3 s.
    public func elapsedText(duration: Double) -> String {
        let total = Number.whole((min(max(0, duration), 1e15) * 10).rounded())
        return ShownTime.text(tenths: max(0, total - tenths), tenthsShown: showsTenths)
    }

    static func text(tenths: Int, tenthsShown: Bool) -> String {
        let text = TimeText.hms(tenths / 10)
        return tenthsShown ? text + ".\(tenths % 10)" : text
    }
}
