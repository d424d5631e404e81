/// What `workout run --music` does to the music players that are playing while a cue is
/// heard: lower them to a third of their volume (`duck`, the default), pause them, or
/// leave them alone.
public enum MusicMode: String, Sendable, CaseIterable {
    case duck, pause, off

    /// A player's volume while a cue is heard, as a share of the volume it had.
    public static let duckedShare = 1.0 / 3
}
