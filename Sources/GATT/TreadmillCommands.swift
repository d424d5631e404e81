/// What a program writes to a treadmill's Fitness Machine Control Point (0x2AD9), per the
/// Fitness Machine Service 1.0 (4.16): Request Control, Start or Resume, Stop or Pause,
/// Set Target Speed (0.01 km/h) and Set Target Inclination (0.1 %). The treadmill answers
/// each with an indication (`FitnessMachineControl.Response`).
extension FitnessMachineControl {
    public static let setTargetSpeed: UInt8 = 0x02
    public static let setTargetInclination: UInt8 = 0x03
    public static let stopOrPause: UInt8 = 0x08

    /// Set Target Speed, km/h (unsigned 16 bits of 0.01 km/h; clamped to what fits).
    public static func targetSpeedBytes(_ kmh: Double) -> [UInt8] {
        let value = UInt16(max(0, min((kmh * 100).rounded(), Double(UInt16.max))))
        return [setTargetSpeed, UInt8(value & 0xff), UInt8(value >> 8)]
    }

    /// Set Target Inclination, percent (signed 16 bits of 0.1 %).
    public static func targetInclinationBytes(_ percent: Double) -> [UInt8] {
        let value = Int16(max(Double(Int16.min), min((percent * 10).rounded(), Double(Int16.max))))
        let bits = UInt16(bitPattern: value)
        return [setTargetInclination, UInt8(bits & 0xff), UInt8(bits >> 8)]
    }

    /// Start or Resume.
    public static func startBytes() -> [UInt8] { [startOrResume] }

    /// Stop (0x01) or Pause (0x02).
    public static func stopBytes(pause: Bool) -> [UInt8] { [stopOrPause, pause ? 0x02 : 0x01] }
}

/// A Supported Speed Range (0x2AD4: uint16 0.01 km/h) or Supported Inclination Range
/// (0x2AD5: sint16 0.1 %, the increment uint16 0.1 %): the least and most a machine
/// takes, and its step. A range whose least is above its most is none.
public struct SupportedRange: Equatable, Sendable {
    public var minimum: Double
    public var maximum: Double
    public var increment: Double

    public init(minimum: Double, maximum: Double, increment: Double) {
        (self.minimum, self.maximum, self.increment) = (minimum, maximum, increment)
    }

    /// A speed range, km/h.
    public init?(speed value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let low = reader.uint16(), let high = reader.uint16(), let step = reader.uint16(), low <= high else { return nil }
        self.init(minimum: Double(low) / 100, maximum: Double(high) / 100, increment: Double(step) / 100)
    }

    /// An inclination range, percent.
    public init?(inclination value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let low = reader.sint16(), let high = reader.sint16(), let step = reader.uint16(), low <= high else { return nil }
        self.init(minimum: Double(low) / 10, maximum: Double(high) / 10, increment: Double(step) / 10)
    }

    /// `value` within the range, on its increments from the minimum.
    public func clamped(_ value: Double) -> Double {
        let within = min(max(value, minimum), maximum)
        guard increment > 0 else { return within }
        let steps = ((within - minimum) / increment).rounded()
        return min(maximum, minimum + steps * increment)
    }
}

/// The Fitness Machine Status characteristic (0x2ADA): what changed on the machine,
/// notified. Only what a workout acts on is told apart; the rest is `other`.
public enum FitnessMachineStatus: Equatable, Sendable {
    /// Stopped (or paused, `pause`) by the user at the machine (0x02).
    case stoppedByUser(pause: Bool)
    /// The safety key was pulled (0x03).
    case safetyKey
    /// Started or resumed by the user (0x04).
    case startedByUser
    /// The target speed changed, km/h (0x05): by a client, or on the console.
    case targetSpeed(Double)
    /// The target inclination changed, percent (0x06).
    case targetInclination(Double)
    /// Control was taken from this client (0xFF) or anything else.
    case controlLost
    case other(UInt8)

    public init?(_ value: [UInt8]) {
        var reader = GATTBytes(value)
        guard let op = reader.uint8() else { return nil }
        switch op {
        case 0x02:
            guard let parameter = reader.uint8() else { return nil }
            self = .stoppedByUser(pause: parameter == 0x02)
        case 0x03: self = .safetyKey
        case 0x04: self = .startedByUser
        case 0x05:
            guard let speed = reader.uint16() else { return nil }
            self = .targetSpeed(Double(speed) / 100)
        case 0x06:
            guard let incline = reader.sint16() else { return nil }
            self = .targetInclination(Double(incline) / 10)
        case 0xff: self = .controlLost
        default: self = .other(op)
        }
    }
}
