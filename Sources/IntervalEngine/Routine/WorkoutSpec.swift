/// What `workout{}` collected.
package struct WorkoutSpec {
    package var name: String
    package var description: String?
    package var countdown: Double
    package var sounds: SoundScheme = .standard
    package var steps: [Step]
    package var hooks: WorkoutHooks
    package var line: Int

    package init(name: String, description: String?, countdown: Double, sounds: SoundScheme = .standard,
                 steps: [Step], hooks: WorkoutHooks, line: Int) {
        self.name = name
        self.description = description
        self.countdown = countdown
        self.sounds = sounds
        self.steps = steps
        self.hooks = hooks
        self.line = line
    }
}

/// Workout-level hooks, as registry references.
package struct WorkoutHooks {
    package var onStart: RoutineReference?
    package var onSegmentStart: RoutineReference?
    package var onSegmentEnd: RoutineReference?
    package var onPause: RoutineReference?
    package var onResume: RoutineReference?
    package var onFinish: RoutineReference?
    package var onTally: RoutineReference?
    package var onLap: RoutineReference?
    package var onSample: RoutineReference?

    package init() {}
}
