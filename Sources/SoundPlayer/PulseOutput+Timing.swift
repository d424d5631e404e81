import CPulse
import Foundation
import IntervalEngine

/// Placing sounds on time, on the audio thread. A sound due within the lead (the sink's
/// measured latency, the server's buffer and room for two round trips) uncorks the
/// stream, asks for fresh timing, and is then written at the absolute stream position that
/// will be heard at its deadline. The lead reaches past what the stream has already
/// written, so a sound is written after it, never over it, with silence written from the
/// end of what was written up to it: the stream never has a gap. (PulseAudio plays a gap
/// left by a seek forward as silence, but pipewire-pulse keeps each stream in a 4 MiB ring
/// and plays whatever the ring held there one lap earlier — at 48 kHz, the sounds of
/// about 22 s before, which were heard as every sound jumping 150 ms early every 22 s.)
/// While the stream runs, the server's requests are answered with silence after what was
/// written. Neither makes the server rewind the sink. Once every written sound has been
/// heard and none is due soon, the stream is corked again.
extension PulseOutput {
    struct Job {
        /// The planned moment's id; nil for a sound played at once.
        var id: UInt64?
        var samples: [Float]
        /// When its first sample is to be heard, in µs of libpulse's monotonic clock.
        var start: UInt64
        /// Where it was written in the stream (bytes from the stream's start), once written.
        var position: Int64?
        /// Due: written as soon as the timing update asked for arrives.
        var due = false

        var end: UInt64 { start + UInt64(samples.count) * 1_000_000 / UInt64(max(1, rate)) }
        var rate: Int
    }

    enum StreamState {
        case corked, uncorking, running, corking
    }

    /// Room beyond the sink's latency for the uncork and the timing update: two round
    /// trips to a local server, well under a millisecond each when idle, but a machine
    /// with both cores busy has held the audio thread back by over 150 ms. Writing early
    /// costs nothing: a sound withdrawn after it was written is overwritten with silence.
    static let margin: UInt64 = 250_000
    /// A sound written is kept this long after it was heard (then the stream may cork, and
    /// a withdrawn sound no longer needs silencing).
    static let linger: UInt64 = 150_000
    /// Nor is the stream corked when the next sound is due within this beyond its lead:
    /// with the linger alone (150 ms), pips a second apart corked now and then (when the next one's
    /// lead had not quite come), and an uncork starts the stream clock again from one
    /// burst of updates. On PipeWire such a burst once read 5.3 ms late, and the pips
    /// after it stayed late while the placing line slewed back over 20 s (a clean clone's
    /// minute of `SoundTimingTests`).
    static let keepOpen: UInt64 = 1_000_000
    /// A sound written later than its lead still lands no earlier than this past what the
    /// sink has already taken.
    static let safety: UInt64 = 3_000
    /// The most silence written ahead of one sound (bytes): a gap is at most the lead, a
    /// few seconds; a write index that reads as further behind is not believed.
    static let longestGap: Int64 = 4 * 192_000 * 4
    /// What a rewind is left of the sink's unplayed latency, for the server to do it (µs).
    static let rewindMargin: UInt64 = 500
    /// How long the stream clock places sounds after its latest update (µs): a burst's
    /// spacing and some, far within the clock's window.
    static let freshTiming: UInt64 = 2_500_000
    /// The running stream's clock is measured in bursts (`StreamClock` says why): one
    /// this long, from the uncork and then every `samplingEvery`, an update every
    /// `sampleSpacing` through it. A burst spans two of PipeWire's default quanta (1024
    /// frames at 48 kHz, 21 ms), and the spacing bounds how far past a quantum's start the
    /// earliest update of a burst can be. A burst is about 30 round trips to the server:
    /// 15 a second while the stream runs.
    static let samplingFor: UInt64 = 45_000
    static let sampleSpacing: UInt64 = 1_500
    static let samplingEvery: UInt64 = 2_000_000
    /// A written sound is placed again after a move only if it is heard later than this
    /// beyond what the sink renders ahead: two of a desktop's quanta, which the graph may
    /// already hold.
    static let rewriteMargin: UInt64 = 45_000

    /// How far ahead of what is heard a sound must be written: the sink's measured
    /// latency (what it has rendered ahead), bounded for a sink that reports nonsense.
    var writeAhead: UInt64 { min(sinkLatency, 2_000_000) }

    var lead: UInt64 { writeAhead + PulseOutput.buffered + PulseOutput.margin }

    /// The server's buffer for the stream, kept filled while it runs (µs).
    static var buffered: UInt64 { UInt64(bufferLength * 1e6) }

    /// µs of libpulse's clock for a CLOCK_MONOTONIC deadline in ns (the same clock, but
    /// computed rather than assumed).
    private func clockTime(_ deadline: UInt64) -> UInt64 {
        let monotonic = Int64(Clocks.system.monotonic() / 1_000)
        let offset = Int64(pulse.rtclock_now!()) - monotonic
        return UInt64(max(0, Int64(deadline / 1_000) + offset))
    }

    func apply(_ commands: [Command]) {
        for command in commands {
            guard !isAbandoned else { return jobs.removeAll() }
            switch command {
            case let .schedule(id, sound, deadline):
                // The same moment again (its tone with its words now): the new one replaces it.
                withdraw(id)
                jobs.append(Job(id: id, samples: rendered.samples(sound), start: clockTime(deadline),
                                rate: synthesizer.sampleRate))
            case let .cancel(id):
                withdraw(id)
            case let .play(sound, moment):
                // A hook's sound is due at its moment (the session runs a moment's hooks
                // ahead of it, so usually still to come), else at once; where it can land
                // is for `writeDue` to say.
                let now = pulse.rtclock_now!()
                jobs.append(Job(id: nil, samples: rendered.samples(sound), start: moment.map(clockTime) ?? now,
                                rate: synthesizer.sampleRate))
            case .keepReady(let ready):
                keptReady = ready
            case .prepare(let sounds):
                for sound in sounds { _ = rendered.samples(sound) }
            case .finish:
                break
            }
        }
        jobs.sort { $0.start < $1.start }
    }

    /// Drops the job of moment `id`; one already written is overwritten with silence.
    private func withdraw(_ id: UInt64) {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        let job = jobs.remove(at: index)
        // Already written: what else sounds there is written again without it, so it never
        // plays (or stops).
        if let position = job.position, job.end > pulse.rtclock_now!() {
            writeMixed(from: position, count: job.samples.count)
        }
    }

    /// Looks at what is due: uncorks and asks for timing when a sound must be written,
    /// corks when nothing is left to hear, and sets the timer for the next of these.
    func service() {
        guard let stream, streamReady else { return }
        let now = pulse.rtclock_now!()
        jobs.removeAll { $0.position != nil && $0.end + writeAhead + PulseOutput.linger < now }
        for index in jobs.indices where jobs[index].position == nil && jobs[index].start <= now + lead {
            jobs[index].due = true
        }
        let due = jobs.contains { $0.due } || (keptReady && streamState == .corked)
        let heard = !jobs.contains { $0.position != nil } && !keptReady
        let soon = jobs.contains { $0.start <= now + lead + PulseOutput.keepOpen }
        switch streamState {
        case .corked where due:
            streamState = .uncorking
            release(pulse.stream_cork!(stream, 0, { _, _, me in PulseOutput.from(me).corkChanged() }, me))
        case .running where due && timingIsFresh(now: now) && (streamClock.isSettled || jobs.contains { $0.due && isUrgent($0, now: now) }):
            // The stream runs and its clock is known from updates moments ago: a sound
            // asked for now (a hook's, a key's) is written at once, by extrapolation.
            writeDue()
        case .running where heard && !soon:
            streamState = .corking
            release(pulse.stream_cork!(stream, 1, { _, _, me in PulseOutput.from(me).corkChanged() }, me))
        default:
            break
        }
        if streamState == .running && !timingRequested && now >= nextSample {
            if now >= samplingStarted + PulseOutput.samplingEvery { samplingStarted = now }
            requestTiming()
        }
        armTimer(now: now)
        finishClosing()
    }

    /// How long before its start a due sound stops waiting for the stream clock to settle:
    /// written then, it is still written before the sink needs it, with half the margin
    /// to spare.
    private var urgency: UInt64 { writeAhead + PulseOutput.buffered + PulseOutput.margin / 2 }

    private func isUrgent(_ job: Job, now: UInt64) -> Bool {
        job.start <= now + urgency
    }

    /// When the running stream's clock is measured next: every `sampleSpacing` through a
    /// burst of `samplingFor`, a burst every `samplingEvery` (so a sound asked for at any
    /// moment finds the clock measured within `freshTiming`).
    private var nextSample: UInt64 {
        guard measuredAt > 0 else { return 0 }
        return measuredAt < samplingStarted + PulseOutput.samplingFor ? measuredAt + PulseOutput.sampleSpacing
                                                                    : samplingStarted + PulseOutput.samplingEvery
    }

    /// The stream's clock moved (a burst off the placing line, or a jump): each sound
    /// written but heard later than `rewriteMargin` beyond what the sink renders ahead is
    /// placed again by the new line, and its old place written over with what else sounds
    /// there, as a withdrawn sound's is.
    func replaceWritten() {
        let now = pulse.rtclock_now!()
        var spans: [(position: Int64, count: Int)] = []
        for index in jobs.indices {
            guard let position = jobs[index].position, jobs[index].start > now + writeAhead + PulseOutput.rewriteMargin else { continue }
            spans.append((position, jobs[index].samples.count))
            jobs[index].position = nil
            jobs[index].due = true
        }
        for span in spans { writeMixed(from: span.position, count: span.count) }
        report.replaced += spans.count
    }

    private func corkChanged() {
        switch streamState {
        case .uncorking:
            streamState = .running
            measuredAt = 0  // measured before the cork: the read index has stood since
            streamClock.reset()
            report.uncorks.append(UInt64(pulse.rtclock_now!()) * 1_000)
            samplingStarted = pulse.rtclock_now!()
        case .corking:
            streamState = .corked
        default:
            break
        }
        service()
    }

    func requestTiming() {
        guard let stream else { return }
        timingRequested = true
        release(pulse.stream_update_timing_info!(stream, { stream, _, me in
            let output = PulseOutput.from(me)
            output.timingRequested = false
            output.measuredAt = pulse.rtclock_now!()
            if let timing = pulse.stream_get_timing_info!(stream)?.pointee {
                output.sinkLatency = timing.sink_usec + timing.transport_usec
                if output.streamState == .running && timing.read_index_corrupt == 0 {
                    if output.streamClock.record(output.update(timing)) {
                        output.clockRestarted()
                        output.replaceWritten()
                    }
                }
            }
            if !output.streamReady {
                // The first measurement, made while connecting: now sounds can be placed.
                output.streamReady = true
                output.connected.signal()
            }
            output.service()
        }, me))
    }

    /// The latest timing update is recent enough to extrapolate from: the stream has run
    /// since it (a cork stops the read index, and uncorking asks for a new one), and the
    /// sink's clock cannot have moved from the monotonic one by more than a fraction of a
    /// millisecond.
    private func timingIsFresh(now: UInt64) -> Bool {
        streamState == .running && measuredAt > 0 && now - min(now, measuredAt) < PulseOutput.freshTiming
    }

    /// A timing update as the stream clock keeps it. The server's `timestamp` is wall-clock
    /// time; a reply the audio thread takes up late (both cores busy) is that much older.
    func update(_ timing: pa_timing_info) -> StreamClock.Update {
        let now = Int64(pulse.rtclock_now!())
        var wall = timeval()
        gettimeofday(&wall, nil)
        let age = max(0, Int64(wall.tv_sec - timing.timestamp.tv_sec) * 1_000_000
                         + Int64(wall.tv_usec) - Int64(timing.timestamp.tv_usec))
        return StreamClock.Update(measured: now - min(age, 1_000_000), read: timing.read_index / 4,
                                  sink: Int64(timing.sink_usec))
    }

    /// Writes every sound due within the lead at the position heard at its start. A timing
    /// update says which frame the sink reads next and how long the sink takes to make it
    /// heard, as of when it measured: by the stream clock's best update, frame
    /// `read + rate × (t − measured − sink)` is heard at time t.
    private func writeDue() {
        guard let stream, streamState == .running, let timing = pulse.stream_get_timing_info!(stream)?.pointee,
              timing.read_index_corrupt == 0, let best = streamClock.best else { return }
        let now = Int64(pulse.rtclock_now!())
        let rate = Int64(synthesizer.sampleRate)
        let earliest = best.read + rate * (now - best.measured + Int64(PulseOutput.safety)) / 1_000_000
        // A sound nobody planned (a hook's, a press's) is due the moment it was asked for. On
        // a server that rewinds, it may go behind the read index by what the sink holds
        // unplayed (less a margin for the rewind itself), and land on that moment.
        let rewindable = serverRewinds ? Int64(timing.sink_usec) - Int64(PulseOutput.rewindMargin) : 0
        let earliestUnplanned = rewindable > 0 ? earliest - rate * (rewindable + Int64(PulseOutput.safety)) / 1_000_000 : earliest
        var placed: (from: Int64, to: Int64)?
        for index in jobs.indices where jobs[index].due {
            jobs[index].due = false
            // Placed by the stream clock's line, which follows the best update without
            // stepping (`StreamClock+Placing.swift`).
            let wanted = streamClock.frame(at: Int64(jobs[index].start))
                ?? best.read + rate * (Int64(jobs[index].start) - best.measured - best.sink) / 1_000_000
            let frame = max(wanted, jobs[index].id == nil ? earliestUnplanned : earliest)
            if frame > wanted {  // late: heard as soon as it can be
                jobs[index].start += UInt64((frame - wanted) * 1_000_000 / rate)
            }
            jobs[index].position = frame * 4
            placed = (min(placed?.from ?? frame, frame), max(placed?.to ?? 0, frame + Int64(jobs[index].samples.count)))
        }
        // The sounds placed now are written in one pass over their span, each summed once:
        // written one by one, every write summed again all placed before it (twelve 5 s
        // tones of one hook took seconds of the audio thread, and none was heard meanwhile).
        if let placed {
            writeMixed(from: placed.from * 4, count: Int(placed.to - placed.from))
        }
    }

    /// One timer for the next thing to do: write a sound, or cork once all are heard.
    private func armTimer(now: UInt64) {
        guard let context else { return }
        var next = UInt64.max
        for job in jobs {  // a due one waits for the clock to settle, or until it is urgent
            next = min(next, job.due ? job.start - min(job.start, urgency)
                                     : job.position == nil ? job.start - min(job.start, lead)
                                                           : job.end + writeAhead + PulseOutput.linger)
        }
        if streamState == .running && !timingRequested {
            next = min(next, nextSample)
        }
        let when = next == .max ? workout_usec_invalid() : max(next, now + 1)
        if let timer {
            pulse.context_rttime_restart!(context, timer, when)
        } else if next != .max {
            timer = pulse.context_rttime_new!(context, when, { _, _, _, me in PulseOutput.from(me).service() }, me)
        }
    }
}
