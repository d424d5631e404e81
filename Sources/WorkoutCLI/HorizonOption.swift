import ArgumentParser
import IntervalEngine

/// `--horizon N`, shared by `plan` and `run --dry-run`: how far to follow an open-ended
/// routine, whose generators may never end by themselves.
struct HorizonOption: ParsableArguments {
    @Option(help: ArgumentHelp("For an open-ended routine (one with generate): stop after N segments (default \(Timeline.defaultHorizon)).",
                               valueName: "N"))
    var horizon: Int?

    /// Far beyond any plan a person reads, and still a bounded amount of work.
    static let maximum = 1_000_000

    func validate() throws {
        if let horizon, horizon < 1 || horizon > HorizonOption.maximum {
            throw ValidationError("--horizon must be a whole number from 1 to \(HorizonOption.maximum), got \(horizon)")
        }
    }

    var segments: Int { horizon ?? Timeline.defaultHorizon }
}
