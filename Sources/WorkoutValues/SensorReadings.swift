/// The sensors' latest values as a session knows them, and its totals of them for the
/// history. A value from a sensor that dropped out (or a strap that lost contact) is
/// kept for the display, marked stale, and is nil to the routine.
public struct SensorReadings: Sendable, Equatable {
    /// One quantity: its latest value, the sensor that gave it, and whether it is stale.
    public struct Reading<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var sensor: String
        public var stale = false

        /// The value, unless stale.
        public var current: Value? { stale ? nil : value }
    }

    public var hr: Reading<Int>?
    public var power: Reading<Int>?
    public var cadence: Reading<Double>?
    public var speed: Reading<Double>?
    /// When each sensor's last `sample` event went out (workout seconds), for the limit
    /// of one a second.
    package var lastEvent: [String: Double] = [:]
    /// When `on_sample` last ran.
    package var lastHook: Double?
    public private(set) var totals = SensorTotals()
    /// The totals of the segment running, for an open segment's record.
    public private(set) var segmentTotals = SensorTotals()

    public init() {}

    /// Whether any sensor has given a value.
    public var isEmpty: Bool { hr == nil && power == nil && cadence == nil && speed == nil }

    package mutating func take(_ sample: SensorSample) {
        if let value = sample.hr {
            hr = Reading(value: value, sensor: sample.sensor)
            totals.see(hr: value)
            segmentTotals.see(hr: value)
        }
        if let value = sample.power { power = Reading(value: value, sensor: sample.sensor) }
        if let value = sample.cadence { cadence = Reading(value: value, sensor: sample.sensor) }
        if let value = sample.speed { speed = Reading(value: value, sensor: sample.sensor) }
    }

    /// Marks what `sensor` gave as stale; true when something was.
    package mutating func markStale(_ sensor: String) -> Bool {
        var changed = false
        func mark<V>(_ reading: inout Reading<V>?) {
            if reading?.sensor == sensor, reading?.stale == false { reading?.stale = true; changed = true }
        }
        mark(&hr)
        mark(&power)
        mark(&cadence)
        mark(&speed)
        return changed
    }

    /// Adds the workout time since the last count to the totals, with the values that
    /// held over it; time paused (`running` false) is passed over. A gap of more than 5 s
    /// without a value counts only its first 5 s: a sensor silent that long was not worn.
    package mutating func count(until t: Double, running: Bool, athlete: Athlete) {
        defer { lastCount = t }
        guard running, let since = lastCount else { return }
        let seconds = min(t - since, 5)
        let zone = hr?.current.flatMap(athlete.zone)
        totals.add(seconds: seconds, hr: hr?.current, power: power?.current, zone: zone)
        segmentTotals.add(seconds: seconds, hr: hr?.current, power: power?.current, zone: zone)
    }

    /// The totals of the segment that ends at `t`; the next one's start from nothing.
    package mutating func endSegment(at t: Double, running: Bool, athlete: Athlete) -> SensorTotals {
        count(until: t, running: running, athlete: athlete)
        defer { segmentTotals = SensorTotals() }
        return segmentTotals
    }

    var lastCount: Double?
}

/// A session's heart rate and power, summed up for the history: averages weighted by time,
/// the maximum heart rate, and the seconds spent in each heart-rate zone.
public struct SensorTotals: Sendable, Equatable {
    public private(set) var hrSeconds = 0.0
    public private(set) var hrSum = 0.0
    public private(set) var maxHR: Int?
    public private(set) var powerSeconds = 0.0
    public private(set) var powerSum = 0.0
    /// Seconds in zones 1–5 (index 0 is zone 1).
    public private(set) var zoneSeconds: [Double] = [0, 0, 0, 0, 0]

    public init() {}

    public var averageHR: Double? { hrSeconds > 0 ? hrSum / hrSeconds : nil }
    public var averagePower: Double? { powerSeconds > 0 ? powerSum / powerSeconds : nil }
    public var isEmpty: Bool { hrSeconds == 0 && powerSeconds == 0 && maxHR == nil }

    package mutating func add(seconds: Double, hr: Int?, power: Int?, zone: Int?) {
        guard seconds > 0 else { return }
        if let hr {
            hrSeconds += seconds
            hrSum += Double(hr) * seconds
            maxHR = max(maxHR ?? hr, hr)
        }
        if let power {
            powerSeconds += seconds
            powerSum += Double(power) * seconds
        }
        if let zone, (1...5).contains(zone) { zoneSeconds[zone - 1] += seconds }
    }

    /// Notes a heart rate for the maximum without adding time.
    package mutating func see(hr: Int) { maxHR = max(maxHR ?? hr, hr) }
}

extension SensorTotals {
    /// What the history keeps of them; nil when the sensors gave nothing.
    public var summary: SensorSummary? {
        guard !isEmpty else { return nil }
        return SensorSummary(averageHR: averageHR, maxHR: maxHR, zoneSeconds: maxHR == nil ? nil : zoneSeconds,
                             averagePower: averagePower)
    }
}
