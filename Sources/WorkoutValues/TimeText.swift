/// Times as a person reads them.
public enum TimeText {
    /// `0:20`, `5:00`, `1:02:03`; fractions are rounded up, so a countdown shows `0:01`
    /// until the very end. Any number is safe (from a damaged file, say): NaN shows as
    /// `0:00` and a huge one as a huge number of hours.
    public static func clock(_ seconds: Double) -> String {
        // A microsecond of floating-point noise must not turn 40 s into 0:41.
        hms(Number.whole(max(0, seconds - 1e-6).rounded(.up)))
    }

    /// Whole seconds as `m:ss` or `h:mm:ss`: the one formatter of clock times.
    public static func hms(_ total: Int) -> String {
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let seconds = total % 60
        return hours > 0 ? "\(hours):\(Padding.zeros(minutes)):\(Padding.zeros(seconds))"
            : "\(minutes):\(Padding.zeros(seconds))"
    }

    /// `12.345` → `0:12.3`: the event stream's timestamp in plain output.
    public static func stamp(_ seconds: Double) -> String {
        let tenths = Number.whole(max(0, seconds) * 10)
        let whole = tenths / 10
        return "\(whole / 60):\(Padding.zeros(whole % 60)).\(tenths % 10)"
    }
}
