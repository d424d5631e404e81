import IntervalEngine
import WorkoutValues

/// Finds the repeats in a flat list of steps, so that an export says `7x` or `IntervalsT`
/// instead of listing every round. The formats have no nested repeats, so the steps are
/// cut into single steps and runs of one block (of up to `maximumPeriod` steps) repeated
/// back to back, choosing the cut with the fewest lines to write: a single step is one
/// line, a repeat its header and one line per step of its block. Tabata's three rounds of
/// eight work/rest pairs come out as `7x` work/rest three times, not as one block of
/// sixteen steps written out.
enum Repeats {
    static let maximumPeriod = 32

    /// `blocks` is each step's `rounds` name, if any; a repeat whose steps all share one
    /// keeps it as its name.
    static func parts(_ steps: [WorkoutFile.Step], blocks: [String?]) -> [WorkoutFile.Part] {
        let ids = identities(steps)
        let count = ids.count
        // From the end: the fewest lines for steps[i...], and the block and count that start it.
        var cost = [Int](repeating: 0, count: count + 1)
        var choice = [(period: Int, count: Int)](repeating: (1, 1), count: count)
        // run[p]: how many steps from i on equal the step p further on.
        var run = [Int](repeating: 0, count: maximumPeriod + 1)
        for i in stride(from: count - 1, through: 0, by: -1) {
            cost[i] = cost[i + 1] + 1
            choice[i] = (1, 1)
            for period in 1...maximumPeriod {
                run[period] = i + period < count && ids[i] == ids[i + period] ? run[period] + 1 : 0
                // At most the repeats a file may hold; a longer run is two repeats.
                let most = min(1 + run[period] / period, WorkoutFileRules.repeats.upperBound)
                guard most >= 2 else { continue }
                // Every count when few; else the longest ones, which is where the best cut is.
                let counts = most <= 16 ? Array(2...most) : [most, most - 1, most - 2]
                for repeats in counts {
                    let total = 1 + period + cost[i + repeats * period]
                    if total <= cost[i] {
                        cost[i] = total
                        choice[i] = (period, repeats)
                    }
                }
            }
        }
        var parts: [WorkoutFile.Part] = []
        var start = 0
        while start < count {
            let (period, repeats) = choice[start]
            let range = start..<(start + period * repeats)
            if repeats == 1 {
                parts.append(.step(steps[start]))
            } else {
                let names = Set(blocks[range].map { $0 ?? "" })
                let name = names.count == 1 ? names.first.flatMap { $0.isEmpty ? nil : $0 } : nil
                parts.append(.repeats(count: repeats, name: name, steps: Array(steps[start..<(start + period)])))
            }
            start = range.upperBound
        }
        return parts
    }

    /// The file's own repeats as they are, and repeats found in the runs of single steps
    /// between them (Zwift writes most repeats out step by step).
    static func tidied(_ parts: [WorkoutFile.Part]) -> [WorkoutFile.Part] {
        var tidy: [WorkoutFile.Part] = []
        var singles: [WorkoutFile.Step] = []
        func flush() {
            tidy += Repeats.parts(singles, blocks: singles.map { _ in nil })
            singles = []
        }
        for part in parts {
            if case .step(let step) = part {
                singles.append(step)
            } else {
                flush()
                tidy.append(part)
            }
        }
        flush()
        return tidy
    }

    /// The same number for steps that are the same in every way a format can show.
    private static func identities(_ steps: [WorkoutFile.Step]) -> [Int] {
        struct Key: Hashable {
            var kind: String
            var name: String
            var duration: Double
            var targets: Targets
            var prompts: [WorkoutFile.Prompt]
            var open: Bool
            var notes: String?
        }
        var seen: [Key: Int] = [:]
        return steps.map { step in
            let key = Key(kind: step.kind, name: step.name, duration: step.duration, targets: step.targets, prompts: step.prompts,
                          open: step.open, notes: step.notes)
            if let id = seen[key] { return id }
            seen[key] = seen.count
            return seen.count - 1
        }
    }
}
