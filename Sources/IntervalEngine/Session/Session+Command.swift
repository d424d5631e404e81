import WorkoutValues

extension Session {
    /// Applies a command. Called from a hook, `next`, `done` and `pause` wait until the
    /// hook's boundary is done; commands that make no sense now (pause while paused,
    /// anything once finished) do nothing. `by`: who asked, as `segment_end` says it.
    public func apply(_ command: SessionCommand, by cause: SegmentEndCause = .athlete) {
        switch command {
        case .pause: pause()
        case .resume: resume()
        case .toggle: state == .paused ? resume() : pause()
        case .next: skip(by: cause)
        case .back: back()
        case .add(let seconds): extend(by: seconds)
        case .quit: stop()
        case .done: markDone(by: cause)
        case .tally(let name, let add): count(name, add: add)
        case .lap: lap()
        }
    }
}
