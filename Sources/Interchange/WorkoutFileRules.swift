import IntervalEngine
import WorkoutValues

/// What a workout file may hold — one set of rules for `workout import`, which refuses a
/// file that breaks them, and `workout export`, which refuses to write one, so that what
/// export writes import always reads.
///
/// Numbers are plain decimals (`60`, `0.75`): no sign, exponent, hexadecimal, `inf` or
/// `nan`, so `0x3C` is not a minute and `1e-300` not a duration. Each field has a range
/// wide enough for any real workout and narrow enough that a slip or a hostile file
/// (`Power="100000"`, 10,000,000 % of FTP) is refused rather than run.
public enum WorkoutFileRules {
    /// The largest file `import` reads: 4 MiB, hundreds of times a long workout. Larger is
    /// refused by its size, before it is read.
    public static let maximumSize = 4 * 1024 * 1024

    /// How many times a repeat may run.
    static let repeats = 1...10_000

    /// A plain decimal (`PlainNumber`, the reader of every number a person types).
    static func decimal<Text: StringProtocol>(_ text: Text) -> Double? { PlainNumber.decimal(text) }

    /// "at least 0.001 seconds and at most 24 hours", when `seconds` is outside them.
    static func durationProblem(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= Duration.minimum, seconds <= Duration.maximum else {
            return "expected at least \(Number.format(Duration.minimum)) seconds and at most 24 hours"
        }
        return nil
    }

    /// The range of a target's numbers and what they count; nil for keys without numbers.
    static func range(_ key: Targets.Key) -> (ClosedRange<Double>, String)? {
        switch key {
        case .power: (0...1000, "percent of FTP")
        case .pace: (0...1000, "percent of threshold pace")
        case .watts: (0...5000, "watts")
        case .hr: (0...200, "percent of maximum heart rate")
        case .lthr: (0...200, "percent of threshold heart rate")
        case .bpm: (0...250, "beats per minute")
        case .cadence: (0...300, "rpm")
        case .incline: (-10...45, "percent incline")
        case .ramp, .zone, .hrZone, .paceZone, .mmp, .freeride, .maxEffort: nil
        }
    }

    /// "expected 0 to 1000 (percent of FTP)", for a number outside the key's range.
    static func targetProblem(_ key: Targets.Key, _ number: Double) -> String? {
        guard let (range, unit) = range(key), !(number.isFinite && range.contains(number)) else { return nil }
        return "expected \(Number.format(range.lowerBound)) to \(Number.format(range.upperBound)) (\(unit))"
    }

    /// The first problem of a value, for `targetProblem`'s keys.
    static func targetProblem(_ key: Targets.Key, _ value: Targets.Value) -> String? {
        switch value {
        case .number(let number): targetProblem(key, number)
        case let .range(low, high): targetProblem(key, low) ?? targetProblem(key, high)
        case .text, .flag: nil
        }
    }

    /// What import would refuse in `workout`, each with the line of the step at fault (the
    /// line of the routine's segment); empty when it may be written.
    public static func problems(_ workout: WorkoutFile) -> [(line: Int, message: String)] {
        var problems: [(line: Int, message: String)] = []
        func check(_ step: WorkoutFile.Step) {
            if let problem = durationProblem(step.duration) {
                problems.append((step.line, "a segment of \(Number.format(step.duration)) s: \(problem)"))
            }
            for (key, value) in step.targets.ordered {
                if let problem = targetProblem(key, value) {
                    problems.append((step.line, "info.\(key.rawValue) = \(written(value)): \(problem)"))
                }
            }
            for prompt in step.prompts where !(prompt.offset.isFinite && prompt.offset >= 0 && prompt.offset < step.duration) {
                problems.append((step.line, "a cue at \(Number.format(prompt.offset)) s: expected 0 or more seconds, "
                                 + "before the segment's end (\(Number.format(step.duration)) s)"))
            }
        }
        for part in workout.parts {
            switch part {
            case .step(let step):
                check(step)
            case let .repeats(count, _, steps):
                if !repeats.contains(count) {
                    problems.append((steps.first?.line ?? 0,
                                     "\(count) rounds: expected \(repeats.lowerBound) to \(repeats.upperBound)"))
                }
                steps.forEach(check)
            }
        }
        return problems
    }

    private static func written(_ value: Targets.Value) -> String {
        switch value {
        case .number(let number): Number.format(number)
        case let .range(low, high): "{ low = \(Number.format(low)), high = \(Number.format(high)) }"
        case .text(let text): "\"\(text)\""
        case .flag: "true"
        }
    }
}
