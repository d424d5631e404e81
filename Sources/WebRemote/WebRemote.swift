import Foundation
import IntervalEngine
import Serving

/// The server of `run --serve` as `workout-serve` hands it to the command line: the
/// token, the event feed and the HTTP server, started together.
public enum WebRemote {
    @MainActor
    public static func start(_ request: ServeRequest) throws(ServeError) -> any WorkoutServer {
        let token = try ServeToken.load(from: ServeToken.file(environment: request.environment),
                                        renew: request.renewToken)
        let feed = EventFeed(snapshot: request.snapshot)
        let server = try WebServer(address: request.address, token: token, feed: feed,
                                   snapshot: request.snapshot, control: request.control, stopped: request.stopped,
                                   participants: request.participants, watchParticipants: request.watchParticipants)
        return ServedWorkout(server: server, feed: feed)
    }
}

/// A started server with its feed.
@MainActor
final class ServedWorkout: WorkoutServer {
    let server: WebServer
    let feed: EventFeed

    init(server: WebServer, feed: EventFeed) {
        self.server = server
        self.feed = feed
    }

    var url: String { server.url }
    var qrModules: [[Bool]] { QRCode.modules(server.url) }
    var listener: any SessionListener { feed }
    func commandApplied() { feed.changed() }
    func finish(within seconds: Double) { server.finish(within: seconds) }
}
