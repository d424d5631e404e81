/// Where sounds are placed: a line that follows the stream clock's best origin without
/// stepping on what is only a reading.
///
/// A sound card's clock runs tens to hundreds of parts per million off the system's, more
/// over USB and Bluetooth, and the best origin of the last seconds trails such a drift; and
/// a burst's best origin wanders by a few tenths of a millisecond from one burst to the
/// next. So sounds are placed by a line of their own: it moves at the origin's drift as
/// measured over the last minute (the median of its slopes from one second to the next,
/// which one move does not sway), and closes on the best origin by slewing, never faster
/// than `slew`: neighbouring sounds never step apart by a reading, and a steady drift is
/// followed with no lag. While the first burst settles the line takes the best origin as
/// it is. A cork, an underrun, or a burst off the line by more than `shift` (the stream's
/// clock itself moved: the sounds heard move with it) start the line again at once; the
/// drift is kept (it is the card's).
///
/// Once, measured with both cores busy, the best origin moved 7.6 ms and then 5.3 ms in a
/// minute while a second stream of the same server, a click train, did not move; that was
/// read as a reading to slew through. Read against the plan on the recording's own clock
/// (an idle ten minutes on pipewire-pulse), such a move is the stream's own: the pips heard
/// moved with the origin, to a tenth of a millisecond, and slewing left them late for 20 s.
extension StreamClock {
    /// Where frame 0 is heard (µs) according to the placing line, as of `at`.
    struct Placing: Equatable {
        var origin: Double
        var at: Int64
    }

    /// The fastest the line closes on the best origin: 0.25 ms a second.
    static let slew = 0.000_25
    /// How long the line takes to close on the best origin when near (µs).
    static let slewTime = 4_000_000.0
    /// How often the best origin is sampled for the drift (µs), and over how long.
    static let driftSpacing: Int64 = 1_000_000
    static let driftWindow: Int64 = 60_000_000
    /// A drift further than this from none is not believed (2,000 ppm).
    static let plausibleDrift = 0.002

    /// The frame heard at `time` (µs) by the placing line; nil before any update.
    func frame(at time: Int64) -> Int64? {
        guard let placing else { return nil }
        let origin = placing.origin + drift * Double(time - placing.at)
        return Int64(((Double(time) - origin) * Double(rate) / 1_000_000).rounded())
    }

    /// Moves the placing line to `time` (µs of the latest update): on at the drift, then
    /// towards the best origin by at most the slew.
    mutating func follow(at time: Int64) {
        guard let best else { return }
        let target = steady(best) + drift * Double(time)
        sampleDrift(target, at: time)
        guard var line = placing, settledOnce else {
            placing = Placing(origin: target, at: time)
            settledOnce = isSettled
            return
        }
        let elapsed = Double(max(0, time - line.at))
        line.origin += drift * elapsed
        let distance = target - line.origin
        largestCorrection = max(largestCorrection, abs(distance))
        let most = StreamClock.slew * elapsed
        line.origin += min(most, max(-most, distance * elapsed / StreamClock.slewTime))
        line.at = time
        placing = line
    }

    /// Samples the best origin once a `driftSpacing`; the drift is the median slope
    /// between neighbouring samples of the last `driftWindow`.
    private mutating func sampleDrift(_ origin: Double, at time: Int64) {
        if let last = driftSamples.last, time - last.at < StreamClock.driftSpacing { return }
        driftSamples.append(Placing(origin: origin, at: time))
        driftSamples.removeAll { time - $0.at > StreamClock.driftWindow }
        let slopes = zip(driftSamples, driftSamples.dropFirst()).map { ($1.origin - $0.origin) / Double($1.at - $0.at) }
        guard slopes.count >= 4 else { return }
        let median = slopes.sorted()[slopes.count / 2]
        drift = min(StreamClock.plausibleDrift, max(-StreamClock.plausibleDrift, median))
        driftMeasured = true
    }

    /// The sink's rate off the nominal as the placing line follows it, in parts per
    /// million (a sink that runs slow has its origin later and later: a negative rate).
    var ppm: Double { -drift * 1_000_000 }
}
