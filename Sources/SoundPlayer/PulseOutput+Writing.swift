import CPulse
import Foundation
import IntervalEngine

/// The stream's bytes, on the audio thread. Every write is at an absolute position and the
/// player keeps the end of what it has written (`written`), so that:
///
/// - no byte is left for the server to fill: a sound placed beyond the end has the silence
///   before it written first (pipewire-pulse would otherwise play what its ring held one
///   lap earlier);
/// - the server's requests for more are answered after the furthest byte written, never
///   after a sound placed earlier (libpulse's own write index goes back to the end of the
///   latest write, and silence written there would erase a sound already placed further on:
///   a hook's sound half a second before a countdown pip silenced the pip);
/// - sounds that overlap are heard together: the span of a new sound is written as the sum
///   of every placed sound there, and a withdrawn one's span again without it.
extension PulseOutput {
    /// Writes the span of `count` samples from byte `position` as the sum of every placed
    /// sound that covers any of it, with silence from the end of what was written up to it.
    func writeMixed(from position: Int64, count: Int) {
        let first = position / 4
        let covering = jobs.filter { job in
            job.position.map { $0 / 4 < first + Int64(count) && $0 / 4 + Int64(job.samples.count) > first } ?? false
        }
        // One sound alone over its own span (the usual case): its samples as they are.
        if covering.count == 1, let only = covering.first, only.position == position, only.samples.count == count {
            return write(only.samples, at: position)
        }
        var samples = [Float](repeating: 0, count: count)
        for job in covering {
            guard let placed = job.position.map({ $0 / 4 }), placed < first + Int64(count),
                  placed + Int64(job.samples.count) > first else { continue }
            let from = max(first, placed), to = min(first + Int64(count), placed + Int64(job.samples.count))
            for frame in from..<to {
                samples[Int(frame - first)] += job.samples[Int(frame - placed)]
            }
        }
        for index in samples.indices where abs(samples[index]) > 1 { samples[index] = samples[index] < 0 ? -1 : 1 }
        write(samples, at: position)
    }

    /// The server asks for `bytes` more: silence after the furthest byte written. A
    /// stream that ran dry would make the server rewind the sink for the next write (to
    /// play it at once), and a sound written over what the sink has already read would too.
    func refill(_ bytes: Int) {
        guard bytes > 0 else { return }
        write([Float](repeating: 0, count: bytes / 4), at: written)
    }

    /// Writes `samples` at byte `position`, after the silence that fills any gap between
    /// the end of what was written and it (at most `longestGap`: an end further behind
    /// is a stream the sink has long passed).
    private func write(_ samples: [Float], at position: Int64) {
        if position > written {
            let gap = min(position - written, PulseOutput.longestGap)
            guard put([Float](repeating: 0, count: Int(gap / 4)), at: position - gap) else { return }
        }
        guard put(samples, at: position) else { return }
        written = max(written, position + Int64(samples.count * 4))
    }

    private func put(_ samples: [Float], at position: Int64) -> Bool {
        guard let stream else { return false }
        let result = samples.withUnsafeBytes { bytes in
            pulse.stream_write!(stream, bytes.baseAddress, bytes.count, nil, position, PA_SEEK_ABSOLUTE)
        }
        guard result >= 0 else {
            fail("the sound server refused a sound (\(contextError()))")
            return false
        }
        return true
    }
}
