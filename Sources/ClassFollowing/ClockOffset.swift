/// The coach's clock as seen from here, measured NTP-style over the broker: a question
/// leaves at local `sent`, the coach answers with its session clock `t`, the answer is
/// back at local `received`. The coach's `t` is taken to be the round trip's middle;
/// the round trip with the shortest time is the best (it had the least queueing), and
/// its error is at most half of it. Times are local monotonic seconds; `t` is in
/// workout seconds at `speed` per real second.
public struct ClockOffset: Equatable, Sendable {
    public struct Sample: Equatable, Sendable {
        public var sent: Double
        public var coach: Double
        public var received: Double
        public var speed: Double

        public init(sent: Double, coach: Double, received: Double, speed: Double) {
            self.sent = sent
            self.coach = coach
            self.received = received
            self.speed = speed
        }

        public var roundTrip: Double { received - sent }
        /// Local seconds at which the coach's clock read 0.
        public var origin: Double { (sent + received) / 2 - coach / speed }
    }

    public private(set) var best: Sample?
    public private(set) var count = 0

    public init() {}

    /// A sample whose answer came back before it left, or took longer than `patience`, is
    /// not one; nor is one whose time or speed no coach's run has (`CoachNumbers`).
    public mutating func add(_ sample: Sample, patience: Double = 1) {
        guard sample.roundTrip >= 0, sample.roundTrip <= patience, CoachNumbers.speed(sample.speed) != nil,
              CoachNumbers.time(sample.coach) != nil, sample.sent.isFinite, sample.received.isFinite else { return }
        count += 1
        if best.map({ sample.roundTrip < $0.roundTrip }) ?? true { best = sample }
    }

    /// Local seconds at which the coach's clock read 0; nil before any sample.
    public var origin: Double? { best?.origin }
    public var speed: Double? { best?.speed }
    /// Half the best round trip: how far off the origin can be.
    public var uncertainty: Double? { best.map { $0.roundTrip / 2 } }

    /// The best round trip puts the coach's clock within `seconds`; false before any sample.
    public func isWithin(_ seconds: Double) -> Bool {
        (uncertainty ?? .infinity) <= seconds
    }

    /// The coach's clock at local `time`.
    public func coachTime(atLocal time: Double) -> Double? {
        best.map { (time - $0.origin) * $0.speed }
    }
}
