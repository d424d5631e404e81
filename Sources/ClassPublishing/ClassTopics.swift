import IntervalEngine
import WorkoutValues

/// The topics of one published session, all under the prefix of `--mqtt`'s address
/// (docs/mqtt.md lists them with their payloads).
public struct ClassTopics: Sendable, Equatable {
    public let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// The snapshot, retained: what a newcomer (Home Assistant, a follower) reads first.
    public var state: String { prefix + "/state" }
    /// Every `--json` event, one message each, in order; not retained.
    public var events: String { prefix + "/events" }
    /// `online`, or `offline` (said at the end, or by the broker as the last will), retained.
    public var availability: String { prefix + "/availability" }
    /// Commands in, as `POST /control` takes them.
    public var command: String { prefix + "/cmd" }
    /// Why a command was refused, as text; not retained.
    public var refused: String { prefix + "/cmd/refused" }
    /// The routine's segments as data (`workout plan --json`), retained: what a follower
    /// builds its timeline from, never Lua code.
    public var timeline: String { prefix + "/timeline" }

    /// Each participant's readings, on `PREFIX/participants/NAME` (docs/mqtt.md).
    public var participants: String { prefix + "/participants" }
    /// A follower's clock question (`{"id", "sent"}`), answered by the coach on
    /// `clockAnswers` with its session's clock (`workout follow`, docs/design.md).
    public var clock: String { prefix + "/clock" }
    public var clockAnswers: String { prefix + "/clock/answer" }
    /// A follower's own heart rate, zone and power, once a second at most; not retained.
    public func participant(_ name: String) -> String { prefix + "/participants/" + name }

    public static let online = "online"
    public static let offline = "offline"

    /// The prefix as Home Assistant's ids take it: `[a-zA-Z0-9_-]`, every other byte `_`.
    /// That alone would make `gym/a`, `gym_a` and `gym.a` one node, each class's discovery
    /// configs overwriting the others': a prefix that is not kept as it is (one holding any
    /// byte outside `[a-zA-Z0-9-]`, `_` included) gets the first 8 hex digits of its
    /// SHA-256 after it. `gym` stays `workout_gym`.
    public var nodeID: String {
        func kept(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
        }
        let mapped = "workout_" + String(prefix.unicodeScalars.map { kept($0) ? Character($0) : "_" })
        guard prefix.unicodeScalars.allSatisfy(kept) else {
            return mapped + "_" + SHA256.hex(Array(prefix.utf8)).prefix(8)
        }
        return mapped
    }
}
