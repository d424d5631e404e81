import ArgumentParser
import IntervalsICU
import WorkoutValues

struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "List the workouts planned for today on your intervals.icu calendar.",
        discussion: """
            Today is your local date. `workout run today` runs the first, `workout run today:2` \
            the second, with the targets of its steps. The API key comes from \
            $INTERVALS_ICU_API_KEY or `workout intervals login`.
            """)

    func run() throws {
        let (day, workouts) = try PlannedToday.fail { () throws(IntervalsProblem) in try PlannedToday.list() }
        guard !workouts.isEmpty else {
            Output.line("Nothing planned on intervals.icu for \(day).")
            return
        }
        Output.line("Planned on intervals.icu for \(day):")
        for (index, workout) in workouts.enumerated() {
            let name = index == 0 ? "today" : "today:\(index + 1)"
            let length = workout.seconds.map { TimeText.clock($0) } ?? ""
            let steps = workout.doc == nil ? "  (no steps to run)" : ""
            let type = workout.type.map { "\($0.visible)  " } ?? ""
            Output.line("  \(Padding.column(name, 9)) \(Padding.column(length, 8)) \(type)\(workout.name.visible)\(steps)")
        }
    }
}
