import WorkoutValues

/// The power a trainer in ERG mode holds during a segment, from the segment's targets
/// (`Targets`): `watts` as they are, or `power` as percent of the rider's FTP (what an
/// imported ZWO workout's Power fractions become). A range is held at its middle; a ramp
/// (ZWO's Ramp, Warmup and Cooldown) goes from low to high in steps of one second. Free
/// ride, or power without an FTP to read it against, is no target: the rider has the
/// resistance.
public struct ErgTarget: Sendable, Equatable {
    public var low: Double
    public var high: Double
    public var ramp: Bool

    public init(low: Double, high: Double, ramp: Bool) {
        self.low = low
        self.high = high
        self.ramp = ramp
    }

    /// The target of a segment whose `info` is this, or nil.
    public init?(info: JSONValue, ftp: Double?) {
        var ignored: Set<String> = []
        let targets = Targets(info: info, ignored: &ignored)
        guard !targets.has(.freeride) else { return nil }
        if let watts = targets.bounds(.watts) {
            (low, high) = watts
        } else if let percent = targets.bounds(.power), let ftp {
            (low, high) = (percent.low * ftp / 100, percent.high * ftp / 100)
        } else {
            return nil
        }
        ramp = targets.has(.ramp) && low != high
    }

    /// The watts to hold `elapsed` seconds into a segment of `duration`: a ramp's step for
    /// the whole second it is in.
    public func watts(elapsed: Double, duration: Double) -> Int {
        guard ramp, duration > 0 else { return Int(((low + high) / 2).rounded()) }
        let step = min(max(0, elapsed.rounded(.down)), duration)
        return Int((low + (high - low) * step / duration).rounded())
    }
}
