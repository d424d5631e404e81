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
/// or an underrun (time runs on, the read index does not) start it again, and so does a
/// move the server does not report: an update whose origin is later than the envelope by
/// more than any quantum, or a burst whose earliest origin lies off the placing line by
/// more than `shift` (a cycle in which the graph did not read the stream).
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
    /// largest quantum at 48 kHz is 8192 frames, 171 ms. A smaller one shows in the next
    /// burst (`shift`).
    static let jump: Int64 = 200_000
    /// A burst's origin this far from the placing line is a move of the stream's clock,
    /// followed at once (`shifted`); a smaller distance is slewed. Half of pipewire-pulse's
    /// smallest quantum at 48 kHz that was seen to move it (256 frames, 5.3 ms), and more
    /// than a burst's spacing (`PulseOutput.sampleSpacing`, 1.5 ms), which bounds how late
    /// its earliest update reads.
    static let shift: Int64 = 2_500
    /// Updates further apart than this belong to different bursts.
    static let burstGap: Int64 = 500_000

    let rate: Int64
    private(set) var updates: [Update] = []
    /// When the latest burst started (µs).
    private var burstStart: Int64 = 0
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
        if updates.last.map({ update.measured - $0.measured > StreamClock.burstGap }) ?? true {
            burstStart = update.measured
        }
        updates.append(update)
        if updates.count > StreamClock.kept { updates.removeFirst() }
        if shifted() {
            // The burst alone says where the stream is now: what came before it is let go
            // (the drift is kept, and its samples: one slope across the shift does not
            // sway their median).
            updates.removeAll { $0.measured < burstStart }
            placing = nil
            settledOnce = false
            restarted = true
        }
        follow(at: update.measured)
        return restarted
    }

    /// The latest burst, once it spans `settling`, puts the origin further than `shift` from
    /// the placing line: the stream's clock moved, though the server said nothing.
    ///
    /// Measured on pipewire-pulse at its default quantum (256 frames here), idle: once in
    /// ten minutes the stream's origin moved a quantum (5.3 ms) later and stayed there —
    /// a graph cycle in which the stream was not read — and the pips heard in the
    /// recording moved with it, to a tenth of a millisecond. Slewed after, the pips were
    /// heard up to 5.3 ms late for 20 s; followed at once, only those heard before the next
    /// burst (those written but not yet heard are placed again:
    /// `PulseOutput.replaceWritten`). A burst's earliest origin is within its spacing of the
    /// truth (`isSettled`), so a move of more than `shift` is no late reading. Judged once the drift is measured: until then, a sink whose clock
    /// runs off moves that far against a line that does not know its rate yet.
    private func shifted() -> Bool {
        let burst = updates.filter { $0.measured >= burstStart }
        guard driftMeasured, let line = placing, settledOnce, let first = burst.first, let last = burst.last,
              last.measured - first.measured >= StreamClock.settling,
              let earliest = burst.map(steady).min() else { return false }
        let lineSteady = line.origin - drift * Double(line.at)
        return abs(earliest - lineSteady) > Double(StreamClock.shift)
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
