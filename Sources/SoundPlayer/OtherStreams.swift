import CPulse
import Foundation
import IntervalEngine

/// The other applications' playing streams on the sound server (PulseAudio's sink inputs,
/// which pipewire-pulse serves too): the music, whatever plays it — a browser tab, Spotify,
/// a player without MPRIS or whose MPRIS volume cannot be set. `playing` finds every stream
/// that is playing (not corked), `lower` turns them down to a share of their volume;
/// `restore` puts back each one
/// that still has the volume it was given (a stream the user turned up or down meanwhile is
/// left as the user left it, one that ended is gone). workout's own streams (its process
/// id) are never touched.
///
/// A connection of its own, on a threaded main loop of its own, so that music comes back
/// whether or not the sound player is on or already closed. Every call returns at once:
/// the work runs on the loop's thread, and `done` is called there. That thread and the
/// caller's share it under libpulse's loop lock, which the compiler cannot see: hence
/// `@unchecked Sendable`.
public final class OtherStreams: @unchecked Sendable {
    /// One stream lowered: what to put back, and how to know it is still the same stream
    /// at the volume it was given.
    public struct Lowered: Sendable, Equatable {
        public var index: UInt32
        /// The process that plays it (its `application.process.id`), when the server says.
        public var process: Int32?
        /// Per channel, as the server counts volume (`PA_VOLUME_NORM` is 100 %).
        public var volume: [UInt32]
        public var lowered: [UInt32]

        public init(index: UInt32, process: Int32?, volume: [UInt32], lowered: [UInt32]) {
            self.index = index
            self.process = process
            self.volume = volume
            self.lowered = lowered
        }
    }

    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    private let ready = DispatchSemaphore(value: 0)
    private var failed = false
    // The loop thread's own: the operation under way.
    private var found: [Lowered] = []
    private var share = 1.0
    private var loweredDone: (@Sendable ([Lowered]) -> Void)?
    private var restoring: [UInt32: Lowered] = [:]
    private var restoreDone: (@Sendable () -> Void)?
    private var answers = 0
    /// Answers still awaited: one per stream asked about, and one per volume put back,
    /// so that `done` comes once the server has the volumes (a run that exits right after
    /// must not leave them unsent in libpulse's queue).
    private var awaited = 0

    /// Roles of streams that are not music.
    static let notMusic: Set<String> = ["event", "phone", "a11y"]
    /// Programs that speak workout's words.
    static let speech = ["speech-dispatcher", "speechd", "espeak"]

    /// The largest volume the server takes (`PA_VOLUME_MAX`).
    public static let largestVolume = UInt32.max / 2

    /// A volume this close to the one given (in the server's units, of 65,536 for 100 %)
    /// is still it: a server may round what it is given.
    static let sameVolume: UInt32 = 328

    /// Connects to the sound server (`PULSE_SERVER`, else the user's runtime directory;
    /// never starting one), waiting at most `timeout` seconds; nil without libpulse or a
    /// server (then nothing happens, and nothing is said).
    public static func connect(timeout: Double = 2) -> OtherStreams? {
        guard pulseLibrary != nil, let mainloop = pulse.threaded_mainloop_new!() else { return nil }
        let streams = OtherStreams(mainloop: mainloop)
        let api = pulse.threaded_mainloop_get_api!(mainloop)!
        pulse.threaded_mainloop_lock!(mainloop)
        streams.context = newContext(api, name: "workout music")
        pulse.context_set_state_callback!(streams.context, { context, me in
            let streams = OtherStreams.from(me)
            switch pulse.context_get_state!(context) {
            case PA_CONTEXT_READY: streams.ready.signal()
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
                streams.failed = true
                streams.ready.signal()
            default: break
            }
        }, streams.me)
        var started = pulse.context_connect!(streams.context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0
        if started { started = pulse.threaded_mainloop_start!(mainloop) >= 0 }
        pulse.threaded_mainloop_unlock!(mainloop)
        if started && streams.ready.wait(timeout: .now() + timeout) == .success && !streams.failed {
            return streams
        }
        streams.close()
        return nil
    }

    private init(mainloop: OpaquePointer) {
        self.mainloop = mainloop
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> OtherStreams {
        Unmanaged<OtherStreams>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The other streams that are playing, each with the volume `share` of its own would
    /// be; nothing is changed yet (the caller notes them first, then calls `lower`).
    public func playing(share: Double, _ done: @escaping @Sendable ([Lowered]) -> Void) {
        locked(else: { done([]) }) {
            self.share = share
            found = []
            loweredDone = done
            let operation = pulse.context_get_sink_input_info_list!(context, { _, info, last, me in
                let streams = OtherStreams.from(me)
                if let info { streams.consider(info.pointee) }
                if last != 0 { streams.listed() }
            }, me)
            if let operation { pulse.operation_unref!(operation) } else { listed() }
        }
    }

    /// Gives each of `streams` its lowered volume.
    public func lower(_ streams: [Lowered]) {
        locked(else: {}) {
            for stream in streams { setVolume(stream.index, stream.lowered) }
        }
    }

    /// `restore`, waiting for it at most `seconds`: at the end of a run, when the main
    /// thread no longer turns.
    public func restoreAndWait(_ streams: [Lowered], within seconds: Double) {
        let finished = DispatchSemaphore(value: 0)
        restore(streams) { finished.signal() }
        _ = finished.wait(timeout: .now() + seconds)
    }

    /// Puts back each of `streams` that is still there at the volume it was given; `done`
    /// is called on the loop's thread once every one has answered.
    public func restore(_ streams: [Lowered], _ done: @escaping @Sendable () -> Void) {
        locked(else: done) {
            restoring = Dictionary(streams.map { ($0.index, $0) }) { first, _ in first }
            restoreDone = done
            answers = 0
            awaited = restoring.count
            guard !restoring.isEmpty else { return finishRestoring() }
            for stream in restoring.values {
                let operation = pulse.context_get_sink_input_info!(context, stream.index, { _, info, last, me in
                    let streams = OtherStreams.from(me)
                    if let info { streams.putBack(info.pointee) }
                    if last != 0 || info == nil { streams.answered() }
                }, me)
                if let operation { pulse.operation_unref!(operation) } else { answered() }
            }
        }
    }

    /// Lets go of the server.
    public func close() {
        pulse.threaded_mainloop_lock!(mainloop)
        if let context {
            pulse.context_set_state_callback!(context, nil, nil)
            pulse.context_disconnect!(context)
            pulse.context_unref!(context)
        }
        context = nil
        pulse.threaded_mainloop_unlock!(mainloop)
        pulse.threaded_mainloop_stop!(mainloop)
        pulse.threaded_mainloop_free!(mainloop)
    }

    /// `body` with the loop locked; `otherwise` when the server has gone.
    private func locked(else otherwise: () -> Void, _ body: () -> Void) {
        pulse.threaded_mainloop_lock!(mainloop)
        let working = context != nil && !failed
        if working { body() }
        pulse.threaded_mainloop_unlock!(mainloop)
        if !working { otherwise() }
    }

    // MARK: On the loop's thread

    private func consider(_ info: pa_sink_input_info) {
        let process = info.proplist.flatMap { pulse.proplist_gets!($0, PA_PROP_APPLICATION_PROCESS_ID) }
            .flatMap { Int32(String(cString: $0)) }
        guard info.corked == 0, info.has_volume != 0, info.volume_writable != 0, process != getpid() else { return }
        // Not music: another program's cues and alerts (`media.role` event, phone, a11y) and
        // the speech that says workout's own words (speech-dispatcher, espeak-ng).
        let property = { (key: String) in info.proplist.flatMap { pulse.proplist_gets!($0, key) }.map { String(cString: $0) } }
        if let role = property(PA_PROP_MEDIA_ROLE), Self.notMusic.contains(role) { return }
        let program = (property(PA_PROP_APPLICATION_PROCESS_BINARY) ?? "") + " " + (property(PA_PROP_APPLICATION_NAME) ?? "")
        if Self.speech.contains(where: { program.lowercased().contains($0) }) { return }
        let volume = Self.values(info.volume)
        guard !volume.isEmpty, volume.contains(where: { $0 > 0 }) else { return }
        let lowered = volume.map { value in
            pulse.sw_volume_from_linear!(pulse.sw_volume_to_linear!(value) * share)
        }
        found.append(Lowered(index: info.index, process: process, volume: volume, lowered: lowered))
    }

    private func listed() {
        let lowered = found
        found = []
        loweredDone?(lowered)
        loweredDone = nil
    }

    private func putBack(_ info: pa_sink_input_info) {
        guard let stream = restoring[info.index] else { return }
        let now = Self.values(info.volume)
        let same = now.count == stream.lowered.count
            && zip(now, stream.lowered).allSatisfy { max($0, $1) - min($0, $1) <= Self.sameVolume }
        let process = info.proplist.flatMap { pulse.proplist_gets!($0, PA_PROP_APPLICATION_PROCESS_ID) }
            .flatMap { Int32(String(cString: $0)) }
        guard same, stream.process == nil || process == stream.process else { return }
        awaited += 1
        setVolume(stream.index, stream.volume, answer: true)
    }

    private func answered() {
        answers += 1
        if answers >= awaited { finishRestoring() }
    }

    private func finishRestoring() {
        restoring = [:]
        restoreDone?()
        restoreDone = nil
    }

    /// Sets a stream's volume; with `answer`, counts the server's answer as one of a
    /// restore's (`answered`), also when the stream has gone meanwhile.
    private func setVolume(_ index: UInt32, _ values: [UInt32], answer: Bool = false) {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(values.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let cells = raw.bindMemory(to: pa_volume_t.self)
            for (channel, value) in values.prefix(cells.count).enumerated() { cells[channel] = value }
        }
        let callback: pa_context_success_cb_t? = answer ? { _, _, me in OtherStreams.from(me).answered() } : nil
        if let operation = pulse.context_set_sink_input_volume!(context, index, &volume, callback, me) {
            pulse.operation_unref!(operation)
        } else if answer {
            answered()
        }
    }

    private static func values(_ volume: pa_cvolume) -> [UInt32] {
        var volume = volume
        let count = min(Int(volume.channels), Int(PA_CHANNELS_MAX))
        return withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: pa_volume_t.self).prefix(count)) }
    }
}
