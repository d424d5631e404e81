import IntervalEngine
import WorkoutValues

/// A Zwift run workout measured in distance (`<durationType>distance</durationType>`, as
/// Zwift and zwo-editor write it): every `Duration`, `OnDuration` and `OffDuration` is
/// metres, so each step is a distance step. The reader and the writer share these rules so
/// that what export writes import reads back as the same steps.
enum ZwiftDistance {
    /// `metres` as a distance step: it ends on the distance and is expected to take as long
    /// as `plan` counts it (a run's target is a percent of threshold pace, which gives no
    /// pace of its own, so the easy pace `DistanceText` assumes).
    static func step(_ step: WorkoutFile.Step) -> WorkoutFile.Step {
        var step = step
        step.distance = step.duration
        step.duration = DistanceText.expectedSeconds(step.duration, pace: nil)
        return step
    }

    /// "expected metres above 0 …" when a distance workout's length is none a step may have.
    static func problem(_ metres: Double) -> String? {
        DistanceText.checked(metres) == nil ? "expected metres above 0 and at most 100 km (the workout's durationType is distance)" : nil
    }

    /// How a workout's steps are measured in ZWO: in distance only when every step is a
    /// distance step; a mix cannot be one file (`durationType` is the whole workout's).
    enum Measure: Equatable {
        case time
        case distance
        /// Distance steps among timed ones: written as their expected time.
        case mixed(distanceSteps: Int)
    }

    static func measure(_ steps: [WorkoutFile.Step]) -> Measure {
        let distanceSteps = steps.count { $0.distance != nil }
        if distanceSteps == 0 { return .time }
        return distanceSteps == steps.count ? .distance : .mixed(distanceSteps: distanceSteps)
    }

    /// The warning for a mix: which steps lost their distance, and why.
    static func mixedWarning(_ distanceSteps: Int) -> String {
        "\(RoutineExport.plural(distanceSteps, "distance step")) written as the time each is expected to take: "
            + "a Zwift workout measures all its steps in time or all in distance, and this routine mixes them"
    }

    /// The warning for cues of a distance workout, which Zwift places by distance.
    static func cuesWarning(_ steps: Int) -> String {
        "the text cues of \(RoutineExport.plural(steps, "distance step")) (a Zwift workout measured in distance "
            + "places its text by distance, a cue is placed by time)"
    }
}
