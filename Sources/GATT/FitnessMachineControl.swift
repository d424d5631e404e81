/// The Fitness Machine Control Point (0x2AD9): what a program writes to a trainer, and the
/// trainer's indicated answer (0x80, the request's op code, a result code).
public enum FitnessMachineControl {
    public static let requestControl: UInt8 = 0x00
    public static let setTargetPower: UInt8 = 0x05
    public static let startOrResume: UInt8 = 0x07

    /// Request Control: a trainer takes targets only from the client that holds control.
    public static func requestControlBytes() -> [UInt8] { [requestControl] }

    /// Set Target Power in watts (signed 16 bits; clamped to what fits, negatives to 0).
    public static func targetPowerBytes(_ watts: Int) -> [UInt8] {
        let clamped = UInt16(max(0, min(watts, Int(Int16.max))))
        return [setTargetPower, UInt8(clamped & 0xff), UInt8(clamped >> 8)]
    }

    /// A trainer's answer to one request.
    public struct Response: Equatable, Sendable {
        public var request: UInt8
        public var result: Result

        public enum Result: UInt8, Sendable {
            case success = 0x01
            case notSupported = 0x02
            case invalidParameter = 0x03
            case failed = 0x04
            case controlNotPermitted = 0x05
        }

        public init(request: UInt8, result: Result) {
            self.request = request
            self.result = result
        }

        /// The response in an indication, or nil for anything else (a malformed value, an
        /// unknown result code).
        public init?(_ value: [UInt8]) {
            guard value.count >= 3, value[0] == 0x80, let result = Result(rawValue: value[2]) else { return nil }
            request = value[1]
            self.result = result
        }

        /// The words a warning uses for a refusal.
        public var reason: String {
            switch result {
            case .success: "accepted"
            case .notSupported: "not supported"
            case .invalidParameter: "invalid parameter"
            case .failed: "operation failed"
            case .controlNotPermitted: "control not permitted"
            }
        }
    }
}
