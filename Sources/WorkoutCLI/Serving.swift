import Foundation
import IntervalEngine

/// `run --serve`'s server as the command line sees it. The server itself (WebRemote,
/// with its HTTP library) is linked into `workout-serve` only, which hands its starter to
/// `WorkoutCommandLine.main`.
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
/// main thread only.
public struct ServeRequest {
    public var address: ServeAddress
    public var renewToken: Bool
    public var environment: [String: String]
    public var snapshot: () -> SessionSnapshot
    public var control: (SessionCommand) -> Void
    /// The server stopped before the workout did (why, in words); on the main thread.
    public var stopped: (String) -> Void = { _ in }
}

public typealias ServeStarter = (ServeRequest) throws(ServeError) -> any WorkoutServer

enum Serving {
    /// Set by `workout-serve`; nil in plain `workout`, which never gets as far as serving.
    nonisolated(unsafe) static var starter: ServeStarter?
}

/// `workout-serve`, found beside the running executable.
enum Sibling {
    static func exec(_ name: String, _ arguments: [String]) -> Never {
        let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        let path = directory?.appendingPathComponent(name).path ?? name
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Output.error("workout: --serve needs \(name) beside workout (\(path): \(String(cString: strerror(errno)))); "
                     + "install both (README, Installing)")
        exit(1)
    }
}
