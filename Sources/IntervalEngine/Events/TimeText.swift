/// Times as a person reads them.
public enum TimeText {
    /// `0:20`, `5:00`, `1:02:03`; fractions are rounded up, so a countdown shows `0:01`
    /// until the very end.
    public static func clock(_ seconds: Double) -> String {
        // A microsecond of floating-point noise must not turn 40 s into 0:41.
        let total = Int(max(0, seconds - 1e-6).rounded(.up))
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        let ss = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 {
            return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)"
        }
        return "\(minutes):\(ss)"
    }

    /// `12.345` → `0:12.3`: the event stream's timestamp in plain output.
    public static func stamp(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let whole = tenths / 10
        return "\(whole / 60):\(whole % 60 < 10 ? "0" : "")\(whole % 60).\(tenths % 10)"
    }
}
