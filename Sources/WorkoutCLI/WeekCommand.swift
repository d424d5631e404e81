import ArgumentParser
import Foundation
import History
import Interchange
import IntervalEngine
import IntervalsICU
import LuaBridge
import Platform
import WorkoutValues

struct Week: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week",
        abstract: "Show the next seven days of a training plan, as it decides them today.",
        discussion: """
            PLAN is a path, or a name looked up in $XDG_CONFIG_HOME/workout/plans, then among \
            the bundled plans (sweet-spot-block). A plan is a Lua file whose rules read the \
            sessions in your history (docs/routines.md, Plans). --publish puts the days on your \
            intervals.icu calendar; publishing again changes them, never adds them twice.
            """)

    @Argument(help: "The plan: a path, or a name such as 'sweet-spot-block'.")
    var plan: String

    @Option(help: ArgumentHelp("Week 1's Monday, instead of the plan's own start.", valueName: "YYYY-MM-DD"))
    var start: String?

    @Flag(help: "Put the days' workouts on your intervals.icu calendar.")
    var publish = false

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func run() throws {
        let days = try decide()
        let (trainingPlan, planned) = days
        Output.line("\(trainingPlan.name.visible), from \(trainingPlan.start) (\(Self.stage(trainingPlan, planned.first))):")
        var events: [CalendarEvent] = []
        var warned = Set<String>()
        let stem = RoutineLookup.name(of: try PlanLookup.resolve(plan))
        for day in planned {
            let head = "  \(day.weekday.capitalized) \(day.date)  "
            switch day.what {
            case .before: Output.line(head + "before the plan starts")
            case .over: Output.line(head + "after the plan's last week")
            case .rest: Output.line(head + "rest")
            case let .routine(name, settings):
                let routine = try load(name, settings: settings, day: day)
                let sets = settings.map { " --set \($0.argument)" }.joined()
                let length = routine.timeline.isOpenEnded ? "open" : TimeText.clock(routine.timeline.duration)
                Output.line(head + "\(name.visible)\(sets.visible)  \(length)  \(routine.name.visible)")
                if publish { events.append(try event(routine, day: day, plan: trainingPlan, stem: stem, warned: &warned)) }
            }
        }
        guard publish else { return }
        try PlannedToday.fail { () throws(IntervalsProblem) in try PlannedToday.service().publish(events) }
        Output.line(events.isEmpty ? "Nothing to put on intervals.icu: every day is rest."
                    : "Put \(events.count) \(events.count == 1 ? "workout" : "workouts") on intervals.icu.")
    }

    /// Where the plan is on the first day shown: `week 2 of 4`, `not started`, `over`.
    static func stage(_ plan: TrainingPlan, _ day: TrainingPlan.Day?) -> String {
        switch day?.what {
        case .before?, nil: "not started"
        case .over?: "over"
        default: "week \(day!.week)" + (plan.weeks.map { " of \($0)" } ?? "")
        }
    }

    private func decide() throws -> (TrainingPlan, [TrainingPlan.Day]) {
        do {
            let path = try PlanLookup.resolve(plan)
            let bytes: [UInt8]
            do throws(BoundedFile.Problem) {
                bytes = try BoundedFile.read(path, maximumSize: 1 << 20)
            } catch {
                throw RoutineError("\(path.visible): \(error.explanation(what: "a plan"))")
            }
            let history = HistoryFile(environment: Terminal.environment)
            let past = (try? history.read().entries) ?? []
            return try PlanLoader.days(source: bytes, fileName: (path as NSString).lastPathComponent,
                                       directory: (path as NSString).deletingLastPathComponent, from: Date(),
                                       start: start, past: past, limits: limits.limits)
        } catch let error as RoutineError {
            Output.error("workout: \(error.message)")
            throw ExitCode.failure
        }
    }

    private func load(_ name: String, settings: [ParameterSetting], day: TrainingPlan.Day) throws -> Routine {
        do {
            return try RoutineLookup.load(name, settings: settings, limits: limits.limits)
        } catch {
            Output.error("workout: \(plan.visible): week \(day.week) \(day.weekday): \(error.message)")
            throw ExitCode.failure
        }
    }

    /// The day's routine as an event: its steps as intervals.icu's text (nested rounds
    /// written out, as the text has one level of repeats).
    private func event(_ routine: Routine, day: TrainingPlan.Day, plan: TrainingPlan, stem: String,
                       warned: inout Set<String>) throws -> CalendarEvent {
        let file: WorkoutFile
        do {
            let dropped: [String]
            (file, dropped) = try RoutineExport.workoutFile(routine, for: .icu)
            // Said once a routine, as `workout export` says it.
            if !dropped.isEmpty, !warned.contains(routine.fileName) {
                warned.insert(routine.fileName)
                for note in dropped { Output.error("workout: warning: \(routine.fileName): not in intervals.icu text: \(note)") }
            }
        } catch {
            Output.error("workout: \(self.plan.visible): week \(day.week) \(day.weekday): \(error.message)")
            throw ExitCode.failure
        }
        return CalendarEvent(date: day.date, name: routine.name, description: IntervalsWriter.text(file).text,
                             type: plan.sport ?? "Ride", externalID: "workout-\(stem)-\(day.date)")
    }
}
