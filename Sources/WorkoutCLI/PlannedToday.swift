import ArgumentParser
import Foundation
import History
import Interchange
import IntervalEngine
import IntervalsICU
import LuaBridge
import Platform
import WorkoutValues

/// `today` and `today:N` as a routine: the day's workouts on the athlete's intervals.icu
/// calendar (their local date), the first or the Nth, read from the event's steps
/// (`WorkoutDocReader`) into the routine `workout import` would write, and loaded from
/// that text, never from a file. The calendar's `today` goes before a routine file of that
/// name: `./today.lua` runs the file.
enum PlannedToday {
    /// 1 for `today`, N for `today:N`; nil for any other routine.
    static func index(_ routine: String) -> Int? {
        if routine == "today" { return 1 }
        guard routine.hasPrefix("today:"), let number = Int(routine.dropFirst(6)), number >= 1 else { return nil }
        return number
    }

    /// The service with the athlete's key, or the one line that says why there is none.
    static func service() throws(IntervalsProblem) -> IntervalsService {
        let directories = UserDirectories(environment: Terminal.environment)
        return try IntervalsService(key: IntervalsKey.find(directories), environment: Terminal.environment)
    }

    /// Today's date and what is planned on it.
    static func list() throws(IntervalsProblem) -> (day: String, workouts: [PlannedWorkout]) {
        let day = LocalDay.date()
        return (day, try service().plannedWorkouts(on: day))
    }

    /// The Nth workout planned today as a loaded routine, with the event it came from; a
    /// problem is said on standard error and ends the command with status 1.
    static func load(_ index: Int, settings: [ParameterSetting], limits: LuaLimits,
                     history: HistoryFile?) throws -> (Routine, PlannedWorkout) {
        do {
            let (day, workouts) = try fail { () throws(IntervalsProblem) in try list() }
            guard index <= workouts.count else {
                let planned = workouts.isEmpty ? "nothing is planned" : "only \(workouts.count) \(workouts.count == 1 ? "workout is" : "workouts are") planned"
                throw RoutineError("today\(index > 1 ? ":\(index)" : ""): \(planned) on intervals.icu for \(day) (`workout today` lists them)")
            }
            let workout = workouts[index - 1]
            guard let doc = workout.doc else {
                throw RoutineError("\(workout.place) (\(workout.name)) has no steps workout can run: give it a structured workout on the site")
            }
            let (file, warnings) = try fail { () throws(WorkoutFileError) in
                try WorkoutDocReader.read(doc, name: workout.name, place: workout.place)
            }
            for warning in warnings { Output.error("workout: \(warning)") }
            let source = ImportedRoutine.planned(file, event: "\(workout.place) on \(day)")
            let routine = try RoutineLoader.load(source: source, fileName: "today", settings: settings, limits: limits, history: history)
            return (routine, workout)
        } catch let error as RoutineError {
            Output.error("workout: \(error.message)")
            throw error.isUsage ? ExitCode.validationFailure : ExitCode.failure
        }
    }

    /// Runs `body`; its problem is said (`workout: …`) and ends the command with status 1.
    static func fail<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        do {
            return try body()
        } catch let problem as IntervalsProblem {
            Output.error("workout: \(problem.message)")
            throw ExitCode.failure
        } catch let problem as WorkoutFileError {
            Output.error("workout: \(problem.description)")
            throw ExitCode.failure
        }
    }
}
