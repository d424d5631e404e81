/// FIT's intensity of a lap or a workout step, from its segment's kind: rest and `prep`
/// (getting ready) rest, warm-up and cool-down their own, anything else active (a FIT
/// workout step also knows recovery: `FITWorkoutWriter`). TCX has only active and resting.
public enum FITIntensity: Int, Sendable {
    case active = 0, rest = 1, warmup = 2, cooldown = 3

    public init(kind: String) {
        switch kind.lowercased() {
        case "rest", "prep", "recover", "recovery": self = .rest
        case "warmup", "warm-up", "warm_up": self = .warmup
        case "cooldown", "cool-down", "cool_down": self = .cooldown
        default: self = .active
        }
    }
}
