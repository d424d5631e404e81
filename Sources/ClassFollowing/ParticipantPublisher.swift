import Broker
import ClassPublishing
import Foundation
import IntervalEngine
import WorkoutValues

/// A follower's own sensors on `PREFIX/participants/NAME`: its name, heart rate, zone and
/// power, nothing more, once a second (not retained: the coach's roster hears it live).
/// The connection's last will says `gone` for it when the process dies; `finish` says so
/// on a clean end.
@MainActor
public final class ParticipantPublisher {
    private let connection: BrokerConnection
    private let topic: String
    private let name: String
    private let snapshot: () -> SessionSnapshot
    private var timer: DispatchSourceTimer?

    public init(connection: BrokerConnection, topic: String, name: String, snapshot: @escaping () -> SessionSnapshot) {
        self.connection = connection
        self.topic = topic
        self.name = name
        self.snapshot = snapshot
    }

    /// The message the broker says when the follower is gone.
    public nonisolated static func gone(_ name: String) -> String {
        JSONValue.object([("name", .string(name)), ("gone", .bool(true))]).text
    }

    public nonisolated static func reading(_ name: String, _ snapshot: SessionSnapshot) -> String {
        JSONValue.object([("name", .string(name)), ("hr", .from(snapshot.sensors[.hr].map { Int($0.value) })),
                          ("hr_zone", .from(snapshot.hrZone)), ("power", .from(snapshot.sensors[.power].map { Int($0.value) }))]).text
    }

    /// Once a second on the main queue, from now.
    public func start() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.connection.publish(self.topic, Self.reading(self.name, self.snapshot()), retain: false)
            }
        }
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(50))
        timer.resume()
        self.timer = timer
    }

    public func finish() {
        timer?.cancel()
        timer = nil
    }
}
