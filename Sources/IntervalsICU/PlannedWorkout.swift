import Foundation
import IntervalEngine
import WorkoutValues

/// A workout planned on the athlete's intervals.icu calendar: an event of the category
/// `WORKOUT`, with its structured steps (`workout_doc`) when the site could read them.
public struct PlannedWorkout: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// The local date and time it is planned for: `2026-11-28T00:00:00`.
    public var start: String
    /// The sport: `Ride`, `Run`, `VirtualRide`…
    public var type: String?
    /// Its planned length in seconds, where the site says.
    public var seconds: Double?
    public var doc: JSONValue?

    /// `intervals.icu event 42`, for messages.
    public var place: String { "intervals.icu event \(id)" }

    /// The events in an answer of `GET /api/v1/athlete/0/events`: the planned workouts
    /// among them, by start and then as listed.
    public static func list(_ answer: HTTPAnswer) throws(IntervalsProblem) -> [PlannedWorkout] {
        guard case .array(let events)? = answer.body.withUnsafeBufferPointer({ JSONReader.value($0) }) else {
            throw IntervalsProblem("intervals.icu's list of events is not a JSON list")
        }
        var planned: [PlannedWorkout] = []
        for event in events {
            guard case .object = event, let id = event["id"]?.wholeValue else { continue }
            if case .string(let category)? = event["category"], category != "WORKOUT" { continue }
            var workout = PlannedWorkout(id: id, name: text(event["name"]) ?? "Workout \(id)", start: text(event["start_date_local"]) ?? "",
                                         type: text(event["type"]), seconds: nil, doc: nil)
            if case .object = event["workout_doc"] { workout.doc = event["workout_doc"] }
            workout.seconds = event["moving_time"]?.numericValue ?? workout.doc?["duration"]?.numericValue
            planned.append(workout)
        }
        return planned.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    static func text(_ json: JSONValue?) -> String? {
        guard case .string(let text)? = json, !text.isEmpty else { return nil }
        return text
    }
}

extension IntervalsService {
    /// The workouts planned on `day` (`2026-11-28`, the athlete's local date), with their
    /// steps' targets resolved to the athlete's numbers.
    public func plannedWorkouts(on day: String) throws(IntervalsProblem) -> [PlannedWorkout] {
        let answer = try send(.get, "/api/v1/athlete/0/events?oldest=\(day)&newest=\(day)&category=WORKOUT&resolve=true")
        return try PlannedWorkout.list(answer)
    }
}
