import DBus

/// What `TrainerControl` needs of a trainer: whether it is connected and notifying, whether
/// it has an FTMS control point, and a write to it. `SensorLink` is the real one, on BlueZ;
/// a test gives its own, so the ERG targets and ramps run on the virtual clock without a
/// bus (Tests/UnitTests/TrainerControlTests.swift).
@MainActor
public protocol ErgTrainer: AnyObject {
    var isLive: Bool { get }
    var hasControlPoint: Bool { get }
    /// Writes `bytes` to the control point; a failed write comes back as `failure`.
    func writeControl(_ bytes: [UInt8], failure: @escaping (BusFailure) -> Void)
}

extension SensorLink: ErgTrainer {
    /// A trainer's: a treadmill's or rower's control point takes no power targets.
    public var hasControlPoint: Bool { controlPoint != nil && !isTreadmillOrRower }
}
