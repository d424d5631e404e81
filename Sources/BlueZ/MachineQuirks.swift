import WorkoutValues

/// What a treadmill's or rower's own data says it does wrong, found as the data comes
/// and said once: a rower whose stroke rate changes while its stroke count stands still
/// (its rate is made up: qdomyos-zwift #4986) has its stroke rate left out from then on,
/// while the count stands; a treadmill counting distance with its belt at 0 km/h (it
/// counts on after a stop) gets a warning, and the session counts no distance of a
/// source standing still (`Session.take`).
public struct MachineQuirks: Sendable {
    private var strokeCount: Int?
    private var strokeRate: Double?
    /// Notifications in a row with the count standing and the rate changing.
    private var phantom = 0
    private var ratesMadeUp = false
    private var distance: Double?
    private var warned: Set<String> = []

    public init() {}

    /// A rower's values, with its stroke rate left out when it is made up, and the warning
    /// to give, once.
    public mutating func rower(_ values: [SensorQuantity: Double], strokeCount: Int?, name: String)
        -> (values: [SensorQuantity: Double], warning: String?) {
        var values = values
        var warning: String?
        if let count = strokeCount, let rate = values[.strokeRate] {
            if count == self.strokeCount, let last = strokeRate, rate != last, rate > 0 {
                phantom += 1
            } else if count != self.strokeCount {
                phantom = 0
                ratesMadeUp = false
            }
            self.strokeCount = count
            strokeRate = rate
            // Three changes in a row without a stroke: not a lull between strokes.
            if phantom >= 3 {
                ratesMadeUp = true
                warning = once("strokes", "rower \(name) sends a stroke rate that changes while its stroke count stands "
                               + "still: that stroke rate is made up, and is left out until strokes are counted again")
            }
            if ratesMadeUp { values[.strokeRate] = nil }
        }
        return (values, warning)
    }

    /// A treadmill's values: the warning to give, once, when its distance grows with its belt standing.
    public mutating func treadmill(_ values: [SensorQuantity: Double], name: String) -> String? {
        defer { if let total = values[.distance] { distance = total } }
        guard let total = values[.distance], let last = distance, total > last, values[.speed] == 0 else { return nil }
        return once("distance", "treadmill \(name) counts distance with its belt standing: that distance is not counted")
    }

    private mutating func once(_ key: String, _ text: String) -> String? {
        warned.insert(key).inserted ? text : nil
    }
}
