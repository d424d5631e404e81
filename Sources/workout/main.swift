import WorkoutCLI

// Every command but `run --serve`, which goes to workout-serve (WorkoutCommandLine).
WorkoutCommandLine.main(serving: nil)
