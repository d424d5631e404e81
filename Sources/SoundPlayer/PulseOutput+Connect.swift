import CPulse
import Foundation
import IntervalEngine
import WorkoutValues

/// Connecting: the context, the default sink's rate (so the server need not resample),
/// and one corked playback stream, mono 32-bit float, that starts only when uncorked and
/// never stops by itself on an empty buffer (`prebuf` 0): its clock runs while it is open,
/// which is what lets a sound be placed at an exact position ahead.
extension PulseOutput {
    /// Why no sound server could be used.
    public struct ConnectFailure: Error {
        public let reason: String
    }

    /// Connects to the sound server (`PULSE_SERVER`, else the user's runtime directory;
    /// never starting a server) and opens the stream, waiting at most `timeout` seconds:
    /// a local server answers in milliseconds, and this happens before the workout starts.
    public static func connect(volume: Double, timeout: Double = 3,
                               warn: @escaping @Sendable (String) -> Void) -> Result<PulseOutput, ConnectFailure> {
        guard pulseLibrary != nil else {
            return .failure(ConnectFailure(reason: "libpulse is not installed (Debian: libpulse0)"))
        }
        guard let mainloop = pulse.threaded_mainloop_new!() else {
            return .failure(ConnectFailure(reason: "libpulse could not make its main loop"))
        }
        let wakeFD = workout_wake_fd()
        guard wakeFD >= 0 else {
            pulse.threaded_mainloop_free!(mainloop)
            return .failure(ConnectFailure(reason: "no eventfd for the audio thread"))
        }
        let output = PulseOutput(mainloop: mainloop, wakeFD: wakeFD, volume: volume, warn: warn)
        let me = Unmanaged.passUnretained(output).toOpaque()
        let api = pulse.threaded_mainloop_get_api!(mainloop)!
        pulse.threaded_mainloop_lock!(mainloop)
        output.context = newContext(api, name: "workout")
        pulse.context_set_state_callback!(output.context, { context, me in
            PulseOutput.from(me).contextChanged(pulse.context_get_state!(context))
        }, me)
        output.wakeEvent = api.pointee.io_new(api, wakeFD, PA_IO_EVENT_INPUT, { _, _, _, _, me in
            let output = PulseOutput.from(me)
            output.apply(output.takeInbox())
            output.service()
        }, me)
        var started = pulse.context_connect!(output.context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0
        if started { started = pulse.threaded_mainloop_start!(mainloop) >= 0 }
        if !started { output.connectFailure = "no sound server answered (\(output.contextError()))" }
        pulse.threaded_mainloop_unlock!(mainloop)
        if started && output.connected.wait(timeout: .now() + timeout) == .timedOut {
            output.connectFailure = "the sound server did not answer within \(Number.format(timeout)) s"
        }
        guard let failure = output.connectFailure else { return .success(output) }
        output.close(timeout: 0)
        return .failure(ConnectFailure(reason: failure))
    }

    /// The server's buffer for the stream (`tlength`) and how much of it is asked for at a
    /// time (`minreq`), in seconds: while the stream runs, the server wakes the audio
    /// thread once per refill, about 7 times a second (libpulse's default, a quarter of a
    /// 50 ms buffer, would be 70). With `ADJUST_LATENCY` the sink is asked for
    /// (tlength − 2 × minreq) / 2 = 50 ms of latency.
    static let bufferLength = 0.4
    static let refillLength = 0.15

    static func from(_ pointer: UnsafeMutableRawPointer?) -> PulseOutput {
        Unmanaged<PulseOutput>.fromOpaque(pointer!).takeUnretainedValue()
    }

    var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Lets go of an operation; there is none when the connection has already failed.
    func release(_ operation: OpaquePointer?) {
        if let operation { pulse.operation_unref!(operation) }
    }

    func contextError() -> String {
        pulse.strerror!(pulse.context_errno!(context)).map { String(cString: $0) } ?? "unknown error"
    }

    /// While connecting, a failure ends `connect`; later it means the server went away.
    private func contextChanged(_ state: pa_context_state_t) {
        switch state {
        case PA_CONTEXT_READY:
            release(pulse.context_get_server_info!(context, { _, info, me in
                let output = PulseOutput.from(me)
                let server = info.flatMap { $0.pointee.server_name.map { String(cString: $0) } } ?? ""
                output.serverRewinds = PulseOutput.rewinds(server: server)
                let version = info.flatMap { $0.pointee.server_version.map { String(cString: $0) } } ?? ""
                output.report.server = version.isEmpty ? server : "\(server) \(version)"
                output.serverAnswered(info.flatMap { $0.pointee.default_sink_name.map { String(cString: $0) } })
            }, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            lost(streamReady ? "the sound server went away (\(contextError()))"
                             : "no sound server answered (\(contextError()))")
        default:
            break
        }
    }

    /// A failure before the stream is ready ends `connect`; after, it is `fail`.
    func lost(_ reason: String) {
        if streamReady {
            fail(reason)
        } else if connectFailure == nil {
            connectFailure = reason
            connected.signal()
        }
    }

    private func serverAnswered(_ sink: String?) {
        guard let sink else { return openStream(rate: nil) }
        release(pulse.context_get_sink_info_by_name!(context, sink, { _, info, last, me in
            let output = PulseOutput.from(me)
            if let info {
                output.sinkLatency = max(info.pointee.configured_latency, info.pointee.latency)
                output.openStream(rate: Int(info.pointee.sample_spec.rate))
            } else if last != 0 && output.stream == nil {
                output.openStream(rate: nil)
            }
        }, me))
    }

    /// The stream, at the sink's rate (48 kHz when it cannot be known).
    private func openStream(rate: Int?) {
        guard stream == nil else { return }
        let rate = rate.flatMap { (8_000...192_000).contains($0) ? $0 : nil } ?? 48_000
        rendered = RenderedSounds(Synthesizer(sampleRate: rate, volume: volume))
        streamClock = StreamClock(rate: rate)
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(rate), channels: 1)
        // `media.role=event`: PulseAudio's module-role-ducking and PipeWire's policy lower
        // the music that plays while a cue sounds, without our asking any player.
        let properties = pulse.proplist_new!()
        _ = pulse.proplist_sets!(properties, PA_PROP_MEDIA_ROLE, "event")
        stream = pulse.stream_new_with_proplist!(context, "workout sounds", &spec, nil, properties)
        pulse.proplist_free!(properties)
        guard let stream else { return lost("the sound server refused a stream (\(contextError()))") }
        pulse.stream_set_state_callback!(stream, { stream, me in
            PulseOutput.from(me).streamChanged(pulse.stream_get_state!(stream))
        }, me)
        pulse.stream_set_write_callback!(stream, { _, bytes, me in PulseOutput.from(me).refill(bytes) }, me)
        // An underrun: time ran on while the read index stood, so the clock moved.
        pulse.stream_set_underflow_callback!(stream, { _, me in PulseOutput.from(me).underran() }, me)
        // A modest latency, asked of the sink (ADJUST_LATENCY): a sink left at its
        // default may render two seconds ahead, and a sound would then have to be written
        // two seconds early, past the point where a pause can still take it back.
        var buffer = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32(Double(rate * 4) * PulseOutput.bufferLength),
                                    prebuf: 0, minreq: UInt32(Double(rate * 4) * PulseOutput.refillLength),
                                    fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_START_CORKED.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
                                      | PA_STREAM_NOT_MONOTONIC.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
        if pulse.stream_connect_playback!(stream, nil, &buffer, flags, nil, nil) < 0 {
            lost("the sound server refused a stream (\(contextError()))")
        }
    }

    private func streamChanged(_ state: pa_stream_state_t) {
        switch state {
        case PA_STREAM_READY:
            requestTiming()  // the sink's latency, once it has adjusted to the stream's target
        case PA_STREAM_FAILED:
            lost("the sound stream failed (\(contextError()))")
        default:
            break
        }
    }

    /// With the main loop locked: stops every callback and lets go of the server.
    func disconnect() {
        let api = pulse.threaded_mainloop_get_api!(mainloop)!
        if let timer { api.pointee.time_free(timer) }
        timer = nil
        if let wakeEvent { api.pointee.io_free(wakeEvent) }
        wakeEvent = nil
        if let stream {
            pulse.stream_set_state_callback!(stream, nil, nil)
            pulse.stream_set_write_callback!(stream, nil, nil)
            pulse.stream_set_underflow_callback!(stream, nil, nil)
            _ = pulse.stream_disconnect!(stream)
            pulse.stream_unref!(stream)
        }
        stream = nil
        if let context {
            pulse.context_set_state_callback!(context, nil, nil)
            pulse.context_disconnect!(context)
            pulse.context_unref!(context)
        }
        context = nil
    }
}
