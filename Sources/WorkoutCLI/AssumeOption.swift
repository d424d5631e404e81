import ArgumentParser
import IntervalEngine
import WorkoutValues

/// `--assume SECONDS`, shared by `plan` and `run --dry-run`: how long every open segment
/// (one that ends when the athlete says so) is taken to last, instead of each one's own
/// `expect`. A real run needs none: the athlete decides.
struct AssumeOption: ParsableArguments {
    @Option(help: ArgumentHelp("Plan every open segment (one the athlete ends) as lasting SECONDS, within its cap, instead of its own expect.",
                               valueName: "SECONDS"))
    var assume: Double?

    func validate() throws {
        if let assume, !(assume > 0 && assume <= Duration.maximum) {
            throw ValidationError("--assume must be a number of seconds above 0, at most \(Number.format(Duration.maximum)), got \(Number.format(assume))")
        }
    }
}
