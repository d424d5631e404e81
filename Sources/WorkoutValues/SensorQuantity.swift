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
    /// Speed, km/h (a trainer's, a treadmill's belt, a foot pod's).
    case speed
    /// Distance, metres covered in the run: a machine's or foot pod's running total less
    /// its first reading (the session makes it so: a pod counts from when it was switched
    /// on, and a treadmill may keep its count from an earlier run).
    case distance
    /// Running pace, seconds per kilometre (a treadmill's or foot pod's speed read the
    /// runner's way).
    case pace
    /// Rowing split, seconds per 500 metres (a rower's instantaneous pace).
    case split
    /// Incline, percent (a treadmill's).
    case incline
    /// Stroke rate, strokes per minute (a rower's).
    case strokeRate = "stroke_rate"

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
        case .distance: "m"
        case .pace: "/km"
        case .split: "/500m"
        case .incline: "%"
        case .strokeRate: "spm"
        }
    }

    /// What the routine's API reference says of it (`workout.Sample`).
    public var described: String {
        switch self {
        case .hr: "Heart rate, beats per minute."
        case .power: "Power, watts."
        case .cadence: "Cadence, rpm."
        case .speed: "Speed, km/h (a trainer's, a treadmill's, a foot pod's)."
        case .distance: "Distance, metres covered in the run (a machine's or foot pod's total from its first reading)."
        case .pace: "Pace, seconds per kilometre."
        case .split: "Rowing split, seconds per 500 metres."
        case .incline: "Incline, percent."
        case .strokeRate: "Stroke rate, strokes per minute."
        }
    }

    /// Decimals in events and the snapshot; 0 is a whole number (an integer in JSON and Lua).
    public var places: Int {
        switch self {
        case .hr, .power: 0
        case .cadence, .distance, .pace, .split, .incline, .strokeRate: 1
        case .speed: 2
        }
    }

    /// Whether its values are whole numbers.
    public var isWhole: Bool { places == 0 }

    /// Decimals in the session's samples file (the activity files' source).
    public var recordedPlaces: Int {
        switch self {
        case .hr, .power: 0
        case .cadence, .distance, .pace, .split, .incline, .strokeRate: 1
        case .speed: 3
        }
    }

    /// Whether the display's title row, the plain text of a `sample` and the served page
    /// show it, in `words` (`150 bpm  200 W  90 rpm  400 m  4:00/km`).
    public var inWords: Bool { self != .speed }

    /// Whether it is a time per distance, shown as a clock time before its unit (`4:00/km`).
    public var isPace: Bool { self == .pace || self == .split }

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
        // A belt or a pod counts on for hours; 1,000 km is no indoor session.
        case .distance: 0...1_000_000
        // 1:00/km is faster than any runner; slower than an hour a kilometre is standing.
        // A machine standing still sends no pace at all, or 0, or 65,535: none of them is one.
        case .pace: 60...3_600
        // Rowing splits of record are above 1:10/500m; over 10 minutes is resting.
        case .split: 60...600
        // Treadmills go from −6 % to 40 % (incline trainers).
        case .incline: -10...45
        case .strokeRate: 0...80
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
        // The machine's total at its highest: what it counted by the end.
        case .distance: [.maximum]
        case .pace, .split, .incline, .strokeRate: [.average]
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
        case .distance: 0...1_000_000
        case .pace: 60...3_600
        case .split: 60...600
        case .incline: -10...45
        case .strokeRate: 0...80
        }
    }

    /// What one of its units is in the activity files' unit: speed is km/h here and
    /// metres per second in FIT (`enhanced_speed`) and TCX (`ax:Speed`, `MaximumSpeed`).
    public var inActivityFiles: Double {
        switch self {
        case .hr, .power, .cadence, .distance, .pace, .split, .incline, .strokeRate: 1
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
        // distance, in 1/100 m.
        case .distance: FITForm(record: 5, bytes: 4, scale: 100)
        // A rowing file's strokes a minute are its record's `cadence` (written there when
        // no cadence is: `FITActivity`); the lap and session keep cadence's figures.
        case .strokeRate: FITForm(record: 4, bytes: 1)
        // grade, in 1/100 %, signed (a downhill treadmill).
        case .incline: FITForm(record: 9, bytes: 2, scale: 100, signed: true)
        // FIT reads pace from the speed.
        case .pace, .split: nil
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
        case .distance:
            TCXForm(trackpoint: TCXElement("DistanceMeters", at: 3, places: 1))
        // TCX has no element for these: its readers take pace from speed.
        case .pace, .split, .incline, .strokeRate:
            TCXForm()
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
    /// FIT's sint16 rather than uint16 (2 bytes only).
    public var signed: Bool

    public init(record: UInt8, bytes: Int, scale: Double = 1, lap: (average: UInt8, maximum: UInt8)? = nil,
                session: (average: UInt8, maximum: UInt8)? = nil, signed: Bool = false) {
        (self.record, self.bytes, self.scale, self.lap, self.session, self.signed) = (record, bytes, scale, lap, session, signed)
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

    /// `150 bpm`, `90 rpm`: rounded to a whole number, then the unit; a pace as a clock
    /// time (`4:05/km`, `1:58/500m`), an incline to a tenth (`2.5 %`).
    public func words(_ value: Double) -> String {
        if isPace { return TimeText.hms(Number.whole(value.rounded())) + unit }
        if self == .incline { return Number.format(Number.rounded(value, places: 1)) + " " + unit }
        return "\(Int(value.rounded())) \(unit)"
    }
}
