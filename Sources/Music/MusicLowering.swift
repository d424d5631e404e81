/// What `MusicUnderCues` asks of the music: down for a cue, back after it. `MediaPlayers`
/// is the real one (other streams, then MPRIS players); a test gives its own, so when the
/// music goes down and comes back is checked on the virtual clock
/// (Tests/UnitTests/MusicUnderCuesTests.swift).
@MainActor
public protocol MusicLowering: AnyObject {
    /// Lowers (or pauses) what plays; called again while lowered, it does nothing more.
    func lower()
    /// Puts back what it lowered, as far as it is as it was left.
    func restore()
}

extension MediaPlayers: MusicLowering {}
