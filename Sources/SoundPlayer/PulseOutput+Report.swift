import CPulse

/// What the stream's clock did over a run, for the `sound` line at the end of `--json`
/// (docs/events.md): a sound that went unheard or landed off its moment is explained by an
/// underrun, an uncork or a restart of the clock at that time, or by a sink whose rate is
/// far off.
extension PulseOutput {
    public struct Report: Sendable, Equatable {
        /// The server's name and version, as it gives them.
        public var server = ""
        /// Whether a sound nobody planned may go behind what the sink has read (PulseAudio).
        public var rewinds = false
        /// When the server said the stream ran dry (ns of CLOCK_MONOTONIC).
        public var underruns: [UInt64] = []
        /// When a timing update showed the stream's clock had jumped or moved, unreported (ns).
        public var restarts: [UInt64] = []
        /// How many sounds, already written, were placed again after such a move.
        public var replaced = 0
        /// When the stream was uncorked for a sound after standing corked (ns): its clock
        /// is measured afresh from the burst that follows.
        public var uncorks: [UInt64] = []
        /// The sink's rate against the monotonic clock, in parts per million off its
        /// nominal rate; nil before the stream ran long enough to tell.
        public var ppm: Double?
        /// The largest distance the placing line had to slew to (ms).
        public var largestCorrection = 0.0
    }

    /// On the audio thread: the stream ran dry, and its clock starts again.
    func underran() {
        streamClock.reset()
        report.underruns.append(UInt64(pulse.rtclock_now!()) * 1_000)
    }

    /// On the audio thread: a timing update moved the clock on by more than a quantum.
    func clockRestarted() {
        report.restarts.append(UInt64(pulse.rtclock_now!()) * 1_000)
    }

    /// The report as it stands: with libpulse's loop locked (from `close`), or on its thread.
    func currentReport() -> Report {
        var current = report
        current.rewinds = serverRewinds
        current.ppm = streamClock.driftMeasured ? streamClock.ppm : nil
        current.largestCorrection = streamClock.largestCorrection / 1_000
        return current
    }
}
