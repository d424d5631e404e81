import Foundation
import IntervalEngine
import WorkoutValues

/// `run --serve`'s server as a run sees it. The server itself (WebRemote, with its HTTP
/// library) is linked into `workout-serve` only, which hands its starter
/// (`ServeStarter`) to `WorkoutCommandLine.main`; the command line hands it to the run.
/// Neither side knows the other: both know this protocol. It lives on the main thread,
/// with the run that starts it.
@MainActor
public protocol WorkoutServer: AnyObject {
    /// The page's URL with its token.
    var url: String { get }
    /// The URL as a QR code: modules row by row, true for dark.
    var qrModules: [[Bool]] { get }
    /// Follows the session: subscribed before it starts.
    var listener: any SessionListener { get }
    /// A command was applied, from a key or a button: viewers hear of the change.
    func commandApplied()
    /// The workout is over: the last events and answers go out, then the server stops.
    func finish(within seconds: Double)
}

/// What a server is started with. `snapshot`, `control` and `stopped` are called on the
/// main thread only (`@MainActor`: the server's own threads hand them to it).
public struct ServeRequest: Sendable {
    public var address: ServeAddress
    public var renewToken: Bool
    public var environment: [String: String]
    public var snapshot: @MainActor @Sendable () -> SessionSnapshot
    public var control: @MainActor @Sendable (SessionCommand) -> Void
    /// The server stopped before the workout did (why, in words); on the main thread.
    public var stopped: @MainActor @Sendable (String) -> Void = { _ in }
    /// The class's participants as `/class.json` gives them (`run --mqtt`); on any thread.
    public var participants: (@Sendable () -> String)?
    /// Called once, as the server starts, with what it does when a participant changes:
    /// given the participant as one member of `/class.json`'s list, on any thread (the
    /// broker's, as each message is kept), so the class page is pushed each reading.
    public var watchParticipants: (@Sendable (@escaping @Sendable (String) -> Void) -> Void)?

    public init(address: ServeAddress, renewToken: Bool, environment: [String: String],
                snapshot: @escaping @MainActor @Sendable () -> SessionSnapshot,
                control: @escaping @MainActor @Sendable (SessionCommand) -> Void,
                stopped: @escaping @MainActor @Sendable (String) -> Void = { _ in }) {
        self.address = address
        self.renewToken = renewToken
        self.environment = environment
        self.snapshot = snapshot
        self.control = control
        self.stopped = stopped
    }
}

/// Called on the main thread, where the run that starts the server lives.
public typealias ServeStarter = @MainActor (ServeRequest) throws(ServeError) -> any WorkoutServer
