import IntervalEngine
import PastSessions

/// The class as the coach sees it: every participant heard on `PREFIX/participants/+`,
/// with the latest heart rate, zone and power, the seconds spent in each zone and when
/// last heard. A pure value on the coach's clock (`now`, in seconds, given by the caller),
/// so the virtual clock's tests drive it exactly.
///
/// The limits that keep a participant from flooding the coach: at most one message a
/// second kept per participant (a bucket of `burst`, refilled one a second, so a sender's
/// jitter is not punished; the rest dropped and counted), at most `mostParticipants`
/// (later names ignored, with one warning), payloads and names bounded (`ParticipantMessage`).
public struct ParticipantRoster: Sendable {
    public struct Participant: Sendable, Equatable {
        /// The topic's last level: who it is.
        public var id: String
        /// What the participant calls itself (`name`), else the id.
        public var name: String
        public var hr: Int?
        public var zone: Int?
        public var power: Int?
        /// Seconds in zones 1…5, counted between readings on the coach's clock.
        public var zoneSeconds: [Double] = Array(repeating: 0, count: 5)
        public var lastSeen: Double
        public var gone = false
        /// Messages kept and dropped (over one a second).
        public var kept = 0
        public var dropped = 0
        var hrSum = 0
        var hrCount = 0
        var hrMax: Int?
        var powerSum = 0
        var powerCount = 0
        var tokens: Double
        var tokensAt: Double

        public var hrAverage: Double? { hrCount > 0 ? Double(hrSum) / Double(hrCount) : nil }
        public var powerAverage: Double? { powerCount > 0 ? Double(powerSum) / Double(powerCount) : nil }
        public var maxHR: Int? { hrMax }

        /// Silent for `awayAfter` seconds, or said goodbye.
        public func away(at now: Double) -> Bool { gone || now - lastSeen >= ParticipantRoster.awayAfter }
    }

    public static let mostParticipants = 256
    /// Messages a participant may send at once before the one-a-second rule drops them.
    public static let burst = 2.0
    /// A participant silent this long shows as away.
    public static let awayAfter = 30.0
    /// A gap between two readings longer than this counts toward no zone (the participant
    /// was away, or its sender stalled).
    public static let longestGap = 10.0
    /// Topic levels (ids) longer than this are ignored: the id is a key, kept bounded.
    public static let longestID = 128

    public private(set) var participants: [String: Participant] = [:]
    /// Messages refused: not a participant's JSON, a name too long, or past the limit.
    public private(set) var refused = 0
    public private(set) var ignored = 0

    public init() {}

    /// What became of one message.
    public enum Outcome: Equatable, Sendable {
        case kept, dropped, refused
        /// The first participant past `mostParticipants`: the caller warns once.
        case firstIgnored
        case ignored
    }

    /// A message from participant `id` (its topic's last level) at `now`.
    public mutating func receive(id: String, payload: [UInt8], at now: Double) -> Outcome {
        guard !id.isEmpty, id.utf8.count <= Self.longestID else {
            refused += 1
            return .refused
        }
        guard var participant = participants[id] ?? newcomer(id, at: now) else {
            ignored += 1
            return ignored == 1 ? .firstIgnored : .ignored
        }
        // The bucket: one token a second, at most `burst`; a message takes one.
        participant.tokens = min(Self.burst, participant.tokens + max(0, now - participant.tokensAt))
        participant.tokensAt = now
        guard participant.tokens >= 1 else {
            participant.dropped += 1
            participants[id] = participant
            return .dropped
        }
        participant.tokens -= 1
        guard let message = ParticipantMessage(payload) else {
            refused += 1
            participants[id] = participant
            return .refused
        }
        // The time since the last reading counts toward the zone that reading was in.
        if !participant.gone, let zone = participant.zone, participant.kept > 0 {
            let gap = now - participant.lastSeen
            if gap > 0, gap <= Self.longestGap { participant.zoneSeconds[zone - 1] += gap }
        }
        participant.kept += 1
        participant.lastSeen = now
        switch message {
        case .gone:
            participant.gone = true
            participant.hr = nil
            participant.zone = nil
            participant.power = nil
        case let .reading(name, hr, zone, power):
            participant.gone = false
            if let name { participant.name = name }
            participant.hr = hr
            participant.zone = hr == nil ? nil : zone
            participant.power = power
            if let hr {
                participant.hrSum += hr
                participant.hrCount += 1
                participant.hrMax = max(participant.hrMax ?? hr, hr)
            }
            if let power {
                participant.powerSum += power
                participant.powerCount += 1
            }
        }
        participants[id] = participant
        return .kept
    }

    private func newcomer(_ id: String, at now: Double) -> Participant? {
        guard participants.count < Self.mostParticipants else { return nil }
        return Participant(id: id, name: ParticipantMessage.shownName(id) ?? id, lastSeen: now,
                           tokens: Self.burst, tokensAt: now)
    }

    /// Every participant, by name (then id).
    public var byName: [Participant] {
        participants.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    /// Messages dropped over the one-a-second rule, all participants together.
    public var dropped: Int { participants.values.reduce(0) { $0 + $1.dropped } }

    /// What the history keeps: each participant that gave a heart rate or power.
    public var summaries: [ParticipantSummary] {
        byName.compactMap { participant in
            guard participant.hrCount > 0 || participant.powerCount > 0 else { return nil }
            return ParticipantSummary(name: participant.name, averageHR: participant.hrAverage,
                                      maxHR: participant.hrMax, averagePower: participant.powerAverage)
        }
    }
}
