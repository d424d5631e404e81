import WorkoutValues

/// Heart rate steering a machine (`work{ hr = { 135, 145 } }`): a slow controller that
/// knows heart rate lags what the legs do by half a minute or more. It adds a correction
/// to the program's own target (watts on a bike, km/h on a treadmill), kept apart from
/// it: small steps, raised at most one every 30 s and only while the heart rate, and
/// where its trend says it is heading, are below the band; cut fast — two steps, up to
/// every 5 s — as soon as either is above it; never outside `limits` (the athlete's).
///
/// The trend is the slope of the last 20 s of readings, looked `lead` seconds ahead, so
/// that a heart rate still climbing toward the band is not pushed further (which is what
/// overshoots a lagging system).
public struct HeartRateSteering: Sendable, Equatable {
    public var band: ClosedRange<Double>
    /// The program's own target: what the correction is added to.
    public var base: Double
    public var step: Double
    public var limits: ClosedRange<Double>
    /// The correction so far.
    public private(set) var correction = 0.0
    public static let raiseEvery = 30.0
    public static let cutEvery = 5.0
    public static let lead = 30.0
    public static let window = 20.0
    private var readings: [(t: Double, bpm: Double)] = []
    private var lastRaise = -Double.infinity
    private var lastCut = -Double.infinity

    public init(band: ClosedRange<Double>, base: Double, step: Double, limits: ClosedRange<Double>) {
        (self.band, self.base, self.step, self.limits) = (band, base, step, limits)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.band == rhs.band && lhs.base == rhs.base && lhs.step == rhs.step && lhs.correction == rhs.correction
    }

    /// What the machine is to hold: the base and the correction, within the limits.
    public var output: Double { min(max(base + correction, limits.lowerBound), limits.upperBound) }

    /// A heart rate at `t` seconds: the new output when it changed, else nil.
    public mutating func update(bpm: Double, at t: Double) -> Double? {
        readings.append((t, bpm))
        readings.removeAll { $0.t < t - Self.window }
        let before = output
        let ahead = bpm + slope() * Self.lead
        if bpm > band.upperBound || ahead > band.upperBound + 2 {
            guard t - lastCut >= Self.cutEvery, output > limits.lowerBound else { return nil }
            correction = max(output - 2 * step, limits.lowerBound) - base
            lastCut = t
            lastRaise = t
        } else if bpm < band.lowerBound, ahead < band.lowerBound {
            guard t - lastRaise >= Self.raiseEvery, output < limits.upperBound else { return nil }
            correction = min(output + step, limits.upperBound) - base
            lastRaise = t
        }
        return output == before ? nil : output
    }

    /// Beats a minute per second over the window (least squares); 0 with too few readings.
    private func slope() -> Double {
        guard readings.count >= 5, let first = readings.first, let last = readings.last, last.t - first.t >= 5 else { return 0 }
        let n = Double(readings.count)
        let meanT = readings.map(\.t).reduce(0, +) / n
        let meanB = readings.map(\.bpm).reduce(0, +) / n
        let covariance = readings.map { ($0.t - meanT) * ($0.bpm - meanB) }.reduce(0, +)
        let variance = readings.map { ($0.t - meanT) * ($0.t - meanT) }.reduce(0, +)
        return variance > 0 ? covariance / variance : 0
    }
}
