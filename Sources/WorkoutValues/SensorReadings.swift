/// The sensors' latest values as a session knows them, and its totals of them for the
/// history. A value from a sensor that dropped out (or a strap that lost contact) is
/// kept for the display, marked stale, and is nil to the routine.
public struct SensorReadings: Sendable, Equatable {
    /// One quantity: its latest value, the sensor that gave it, and whether it is stale.
    public struct Reading: Sendable, Equatable {
        public var value: Double
        public var sensor: String
        public var stale = false

        /// The value, unless stale.
        public var current: Double? { stale ? nil : value }
    }

    /// The latest reading of each quantity a sensor has given.
    public private(set) var latest: [SensorQuantity: Reading] = [:]
    /// When each sensor's last `sample` event went out (workout seconds), for the limit
    /// of one a second.
    package var lastEvent: [String: Double] = [:]
    /// When `on_sample` last ran.
    package var lastHook: Double?
    public private(set) var totals = SensorTotals()
    /// The totals of the segment running, for an open segment's record.
    public private(set) var segmentTotals = SensorTotals()

    public init() {}

    public subscript(quantity: SensorQuantity) -> Reading? { latest[quantity] }

    /// Whether any sensor has given a value.
    public var isEmpty: Bool { latest.isEmpty }

    /// The values that are not stale.
    public var current: [SensorQuantity: Double] { latest.compactMapValues(\.current) }

    package mutating func take(_ sample: SensorSample) {
        for (quantity, value) in sample.values { latest[quantity] = Reading(value: value, sensor: sample.sensor) }
        totals.see(sample.values)
        segmentTotals.see(sample.values)
    }

    /// Marks what `sensor` gave as stale; true when something was.
    package mutating func markStale(_ sensor: String) -> Bool {
        var changed = false
        for (quantity, reading) in latest where reading.sensor == sensor && !reading.stale {
            latest[quantity]?.stale = true
            changed = true
        }
        return changed
    }

    /// Adds the workout time since the last count to the totals, with the values that
    /// held over it; time paused (`running` false) is passed over. A gap of more than 5 s
    /// without a value counts only its first 5 s: a sensor silent that long was not worn.
    package mutating func count(until t: Double, running: Bool, athlete: Athlete) {
        defer { lastCount = t }
        guard running, let since = lastCount else { return }
        let seconds = min(t - since, 5)
        let values = current
        let zone = values[.hr].flatMap { athlete.zone(heartRate: Int($0)) }
        totals.add(seconds: seconds, values: values, zone: zone)
        segmentTotals.add(seconds: seconds, values: values, zone: zone)
    }

    /// The totals of the segment that ends at `t`; the next one's start from nothing.
    package mutating func endSegment(at t: Double, running: Bool, athlete: Athlete) -> SensorTotals {
        count(until: t, running: running, athlete: athlete)
        defer { segmentTotals = SensorTotals() }
        return segmentTotals
    }

    var lastCount: Double?
}

/// A session's sensor values summed up for the history, for each quantity that keeps
/// figures (`SensorQuantity.history`): averages weighted by time, maxima, and the seconds
/// spent in each heart-rate zone.
public struct SensorTotals: Sendable, Equatable {
    /// Seconds each averaged quantity held a value.
    public private(set) var seconds: [SensorQuantity: Double] = [:]
    /// Each averaged quantity's value times its seconds, summed.
    public private(set) var sums: [SensorQuantity: Double] = [:]
    public private(set) var maxima: [SensorQuantity: Double] = [:]
    /// Seconds in zones 1–5 (index 0 is zone 1).
    public private(set) var zoneSeconds: [Double] = [0, 0, 0, 0, 0]

    public init() {}

    public var averages: [SensorQuantity: Double] {
        var averages: [SensorQuantity: Double] = [:]
        for (quantity, seconds) in seconds where seconds > 0 { averages[quantity] = (sums[quantity] ?? 0) / seconds }
        return averages
    }

    public var isEmpty: Bool { seconds.values.allSatisfy { $0 == 0 } && maxima.isEmpty }

    package mutating func add(seconds: Double, values: [SensorQuantity: Double], zone: Int?) {
        guard seconds > 0 else { return }
        for (quantity, value) in values where quantity.history.contains(.average) {
            self.seconds[quantity, default: 0] += seconds
            sums[quantity, default: 0] += value * seconds
        }
        see(values)
        if let zone, (1...5).contains(zone) { zoneSeconds[zone - 1] += seconds }
    }

    /// Notes the values for the maxima without adding time.
    package mutating func see(_ values: [SensorQuantity: Double]) {
        for (quantity, value) in values where quantity.history.contains(.maximum) {
            maxima[quantity] = max(maxima[quantity] ?? value, value)
        }
    }
}

extension SensorTotals {
    /// What the history keeps of them; nil when the sensors gave nothing.
    public var summary: SensorSummary? {
        guard !isEmpty else { return nil }
        return SensorSummary(averages: averages, maxima: maxima, zoneSeconds: maxima[.hr] == nil ? nil : zoneSeconds)
    }

    public var averageHR: Double? { averages[.hr] }
    public var averagePower: Double? { averages[.power] }
    public var maxHR: Int? { maxima[.hr].map { Int($0) } }
}
