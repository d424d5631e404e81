/// Where a workout stands as a viewer sees it (`Session.State`, `SessionSnapshot.state`).
public enum SessionState: Sendable, Equatable {
    case ready, running, paused, finished
}
