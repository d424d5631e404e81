/// Where the running stream's clock stands, from the server's recent timing updates rather
/// than the latest alone.
///
/// A timing update says which frame the sink reads next (the read index), how long the
/// sink takes to make it heard, and when it measured both. Every update therefore names an
/// *origin*: the moment frame 0 would be heard. While the stream runs, that origin is one
/// fixed moment. PulseAudio's updates name it within microseconds; pipewire-pulse advances
/// the read index once per graph cycle (a quantum: a few milliseconds on a null sink, 21 ms
/// and more on a desktop's), so an update made late in a cycle reads a frame the sink has
/// long passed, and its origin is late by up to a quantum. An origin can be late, never
/// early, so the earliest one among the recent updates is the closest to the truth: the
/// upper envelope of the read index against time. Measured on pipewire-pulse, one update
/// alone put a sound up to 3.5 ms off its moment; the envelope keeps it within a few
/// tenths once a few updates have come.
///
/// The envelope is kept only while nothing moves the clock: a cork (the read index stands)
/// or an underrun (time runs on, the read index does not) start it again, and an update
/// whose origin is later than the envelope by more than any quantum is taken as such a
/// jump that went unreported.
struct StreamClock {
    /// One timing update: frame `read` is heard at `measured + sink` (µs of libpulse's clock).
    struct Update: Equatable {
        var measured: Int64
        var read: Int64
        var sink: Int64
    }

    /// Updates older than this are let go: a sound card's clock may drift from the system's
    /// by a tenth of a millisecond a second.
    static let window: Int64 = 5_000_000
    /// The most updates kept.
    static let kept = 512
    /// Later than the envelope by more than this is a jump, not a late reading: PipeWire's
    /// largest quantum at 48 kHz is 8192 frames, 171 ms. A smaller jump the server does not
    /// report as an underrun (a stream moved to another sink) is outlived by the window.
    static let jump: Int64 = 200_000

    let rate: Int64
    private(set) var updates: [Update] = []
    /// What sounds are placed by (`StreamClock+Placing.swift`).
    var placing: Placing?
    /// The placing line has followed a settled clock since the last start.
    var settledOnce = false
    /// The best origin, once a second, for the drift (since the last start).
    var driftSamples: [Placing] = []
    /// How fast the origin moves (µs a µs): kept across starts, it is the card's.
    var drift = 0.0
    /// The drift was measured once (it may still be none).
    var driftMeasured = false
    /// The largest distance the placing line had to close on the best origin (µs).
    var largestCorrection = 0.0

    init(rate: Int) {
        self.rate = Int64(max(1, rate))
    }

    /// The moment frame 0 is heard according to `update` (µs).
    func origin(_ update: Update) -> Int64 {
        update.measured + update.sink - update.read * 1_000_000 / rate
    }

    /// Takes a timing update made while the stream ran. True when it showed the stream's
    /// clock had jumped: the clock starts again from it.
    @discardableResult
    mutating func record(_ update: Update) -> Bool {
        var restarted = false
        updates.removeAll { update.measured - $0.measured > StreamClock.window }
        if let best, steady(update) - steady(best) > Double(StreamClock.jump) {
            reset()
            restarted = true
        }
        updates.append(update)
        if updates.count > StreamClock.kept { updates.removeFirst() }
        follow(at: update.measured)
        return restarted
    }

    /// The stream stopped or lost its place: what was measured before says nothing now.
    mutating func reset() {
        updates.removeAll()
        placing = nil
        settledOnce = false
        driftSamples.removeAll()
    }

    /// The updates kept span a burst (`PulseOutput.samplingFor`, less a spacing): enough to
    /// place a sound by, when there is time to wait for them.
    var isSettled: Bool {
        guard let first = updates.first, let last = updates.last else { return false }
        return last.measured - first.measured >= StreamClock.settling
    }

    /// The updates' span that makes the clock settled (µs).
    static let settling: Int64 = 40_000

    /// The update with the earliest origin: the one to place sounds by. Origins are
    /// compared as the drift moves them (`StreamClock+Placing.swift`): on a sink that runs
    /// slow every origin is later than the one before, and the earliest would be the oldest.
    var best: Update? {
        updates.min { steady($0) < steady($1) }
    }

    /// `update`'s origin less the drift since the clock's 0 (µs).
    func steady(_ update: Update) -> Double {
        Double(origin(update)) - drift * Double(update.measured)
    }
}
