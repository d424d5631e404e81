/// One quantity a sensor measures, and everything every layer needs to know of it, as
/// plain data: each layer (the engine's events and snapshot, the display, the served page,
/// the history line, the activity files, the routine's `workout.Sample`) iterates
/// `allCases` and reads these properties instead of naming fields, so a new quantity is a
/// case here (and its decoder line in `GATT` when the bytes are new). Heart-rate zones are
/// heart rate's own and stay named where they are shown.
///
/// Values are `Double`s everywhere; a quantity with `places == 0` holds whole numbers
/// (the decoders give integers) and is written as an integer.
public enum SensorQuantity: String, CaseIterable, Sendable, Equatable, Hashable {
    /// Heart rate, beats per minute.
    case hr
    /// Power, watts.
    case power
    /// Cadence, revolutions per minute.
    case cadence
    /// Speed, km/h (a trainer's).
    case speed

    /// Its name in JSON (events, the snapshot, the history line), in Lua (`workout.Sample`)
    /// and as the samples file's column.
    public var key: String { rawValue }

    /// Its unit after a number on the display, in plain text and on the served page.
    public var unit: String {
        switch self {
        case .hr: "bpm"
        case .power: "W"
        case .cadence: "rpm"
        case .speed: "km/h"
        }
    }

    /// What the routine's API reference says of it (`workout.Sample`).
    public var described: String {
        switch self {
        case .hr: "Heart rate, beats per minute."
        case .power: "Power, watts."
        case .cadence: "Cadence, rpm."
        case .speed: "Speed, km/h (a trainer's)."
        }
    }

    /// Decimals in events and the snapshot; 0 is a whole number (an integer in JSON and Lua).
    public var places: Int {
        switch self {
        case .hr, .power: 0
        case .cadence: 1
        case .speed: 2
        }
    }

    /// Whether its values are whole numbers.
    public var isWhole: Bool { places == 0 }

    /// Decimals in the session's samples file (the activity files' source).
    public var recordedPlaces: Int {
        switch self {
        case .hr, .power: 0
        case .cadence: 1
        case .speed: 3
        }
    }

    /// Whether the display's title row, the plain text of a `sample` and the served page
    /// show it, rounded to a whole number before its unit (`150 bpm  200 W  90 rpm`).
    public var inWords: Bool { self != .speed }

    /// Whether the display shows it in big digits beside the clock, when they fit.
    public var bigDigits: Bool { self == .hr || self == .power }

    /// What a person on a bike or a treadmill can produce: anything else is a glitch, a
    /// strap's placeholder or a lying device, and is no value at all (the engine's
    /// `PlausibleReadings`). Heart rates of record are under 230 bpm, sprinters' peak power
    /// under 2,600 W, track cadences under 250 rpm; a power of 0 is coasting, a cadence of
    /// 0 not pedalling.
    public var plausibleRange: ClosedRange<Double> {
        switch self {
        case .hr: 20...250
        case .power: 0...3_000
        case .cadence: 0...250
        case .speed: 0...100
        }
    }

    /// The value, when it is plausible.
    public func plausible(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && plausibleRange.contains($0) ? $0 : nil }
    }

    /// A figure of a quantity over a session (or an open segment) that the history keeps.
    public enum Figure: String, Sendable, CaseIterable {
        /// Weighted by time: `avg`.
        case average = "avg"
        /// The highest: `max`.
        case maximum = "max"
    }

    /// What the history keeps of it, as `"KEY": {"avg": …, "max": …}` in a line (the
    /// maximum, when kept, is what the object must have; heart rate adds its `zones`).
    /// Empty: not summed.
    public var history: [Figure] {
        switch self {
        case .hr: [.average, .maximum]
        case .power: [.average]
        case .cadence, .speed: []
        }
    }

    /// The figure the history must have of it to keep it at all: its maximum when it
    /// keeps one (the average may be missing), else its average; nil when not summed.
    public var requiredFigure: Figure? { history.contains(.maximum) ? .maximum : history.first }

    /// The values the samples file (and so an activity file) may hold: anything else in
    /// a line is damage, not a reading.
    public var recordable: ClosedRange<Double> {
        switch self {
        case .hr: 1...300
        case .power: 0...5_000
        case .cadence: 0...300
        case .speed: 0...100
        }
    }

    /// What one of its units is in the activity files' unit: speed is km/h here and
    /// metres per second in FIT (`enhanced_speed`) and TCX (`ax:Speed`, `MaximumSpeed`).
    public var inActivityFiles: Double {
        switch self {
        case .hr, .power, .cadence: 1
        case .speed: 1 / 3.6
        }
    }

    /// How a FIT activity file holds it (Garmin's FIT profile): nil when it does not.
    public var fit: FITForm? {
        switch self {
        case .hr: FITForm(record: 3, bytes: 1, lap: (15, 16), session: (16, 17))
        case .cadence: FITForm(record: 4, bytes: 1, lap: (17, 18), session: (18, 19))
        case .power: FITForm(record: 7, bytes: 2, lap: (19, 20), session: (20, 21))
        // enhanced_speed, in 1/1000 m/s.
        case .speed: FITForm(record: 73, bytes: 4, scale: 1000)
        }
    }

    /// How a TCX activity file holds it (TrainingCenterDatabase v2 and Garmin's
    /// ActivityExtension v2): its elements in a trackpoint and a lap.
    public var tcx: TCXForm {
        switch self {
        case .hr:
            TCXForm(trackpoint: TCXElement("HeartRateBpm", at: 4, valueElement: true, largest: 255, positive: true),
                    lapAverage: TCXElement("AverageHeartRateBpm", at: 4, valueElement: true, positive: true),
                    lapMaximum: TCXElement("MaximumHeartRateBpm", at: 5, valueElement: true, positive: true))
        case .cadence:
            TCXForm(trackpoint: TCXElement("Cadence", at: 5, largest: 254),
                    lapAverage: TCXElement("Cadence", at: 7, largest: 254))
        case .power:
            TCXForm(trackpoint: TCXElement("Watts", at: 2, inExtension: true),
                    lapAverage: TCXElement("AvgWatts", at: 3, inExtension: true))
        case .speed:
            TCXForm(trackpoint: TCXElement("Speed", at: 0, inExtension: true, places: 3),
                    lapMaximum: TCXElement("MaximumSpeed", at: 2, places: 3))
        }
    }
}

/// A quantity's fields in a FIT activity file: `record` in each record message
/// (`bytes` wide, unsigned, the value times `scale`), and its average and maximum field
/// numbers in the lap and session messages, when they have them.
public struct FITForm: Sendable {
    public var record: UInt8
    /// 1, 2 or 4: FIT's uint8, uint16, uint32 (also for the lap's and session's figures).
    public var bytes: Int
    public var scale: Double
    public var lap: (average: UInt8, maximum: UInt8)?
    public var session: (average: UInt8, maximum: UInt8)?

    public init(record: UInt8, bytes: Int, scale: Double = 1, lap: (average: UInt8, maximum: UInt8)? = nil,
                session: (average: UInt8, maximum: UInt8)? = nil) {
        (self.record, self.bytes, self.scale, self.lap, self.session) = (record, bytes, scale, lap, session)
    }
}

/// A quantity's elements in a TCX file: in a trackpoint, and a lap's average and maximum.
public struct TCXForm: Sendable {
    public var trackpoint: TCXElement?
    public var lapAverage: TCXElement?
    public var lapMaximum: TCXElement?

    public init(trackpoint: TCXElement? = nil, lapAverage: TCXElement? = nil, lapMaximum: TCXElement? = nil) {
        (self.trackpoint, self.lapAverage, self.lapMaximum) = (trackpoint, lapAverage, lapMaximum)
    }
}

/// One element of a TCX file: its name, its place in the schema's sequence (TCX's
/// readers check the order: in `Trackpoint_t`, `Lap_t`, or, `inExtension`, in
/// ActivityExtension's `TPX` and `LX`), whether the number sits in a `<Value>`, the
/// largest it may say, whether 0 is left out, and its decimals.
public struct TCXElement: Sendable {
    public var name: String
    public var position: Int
    public var inExtension: Bool
    public var valueElement: Bool
    public var largest: Int?
    public var positive: Bool
    public var places: Int

    public init(_ name: String, at position: Int, inExtension: Bool = false, valueElement: Bool = false,
                largest: Int? = nil, positive: Bool = false, places: Int = 0) {
        (self.name, self.position, self.inExtension, self.valueElement) = (name, position, inExtension, valueElement)
        (self.largest, self.positive, self.places) = (largest, positive, places)
    }
}

extension SensorQuantity {
    /// `value` as JSON: an integer when whole, else rounded to `places`.
    public func json(_ value: Double) -> JSONValue {
        isWhole ? .integer(Int(value.rounded())) : .number(Number.rounded(value, places: places))
    }

    /// `150 bpm`, `90 rpm`: rounded to a whole number, then the unit.
    public func words(_ value: Double) -> String { "\(Int(value.rounded())) \(unit)" }
}
