import WebRemote
import WorkoutCLI

// `workout` with the HTTP server of `run --serve` linked in.
WorkoutCommandLine.main(serving: WebRemote.start)
