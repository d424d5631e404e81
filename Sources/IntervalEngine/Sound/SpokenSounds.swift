import Foundation
import Platform
import Synchronization

/// `--voice` on time: the words of every planned moment (a countdown number, "Next: …",
/// the next segment's name, a text cue) are rendered ahead with `espeak-ng --stdout` and
/// handed to the sound player for the moment's deadline, so "three, two, one" starts on
/// the seconds instead of a synthesizer's start-up later.
///
/// Rendering runs on a serial queue of its own; nothing on the run-loop thread waits for
/// espeak-ng, which reads the text (cut to `HeardLimits.longestText` bytes) on standard
/// input. Renderings are kept by text, so the countdown numbers are rendered once, up to
/// `keptSamples` and `keptTexts` in all (the least recently used are forgotten and
/// rendered again if needed). Once the workout is over (`stop`), what waits on the queue
/// is dropped unrendered. A moment that also has a tone is handed over as one sound under
/// the moment's id, which replaces the tone the `SoundListener` scheduled: a countdown
/// number is mixed with its pip (both start on the second); a segment's name follows its
/// start sound. A withdrawn moment is cancelled.
///
/// Every text is said once, never twice: words not ready (or not renderable) by their
/// moment, and a hook's `say()` that cannot be rendered, go to `fallback` (spd-say or
/// espeak-ng speaking aloud, through `SystemAlerts`). A hook's `say()` that renders is
/// played as soon as it is ready.
///
/// Shared by the main thread (the session's listener) and its rendering queue: what both
/// touch is one value under a `Mutex`, and the output is `Sendable`, so the compiler
/// checks that the class is.
public final class SpokenSounds: SessionListener, Sendable {
    private let output: any SoundOutput & Sendable
    private let renderer: String
    private let fallback: @Sendable (String) -> Void
    private let warn: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "workout.spoken-sounds")

    /// What became of a planned moment's words.
    private enum Fate {
        case rendering
        case handedOver
        case spokenAloud
    }

    private struct Entry {
        var text: String
        var tone: Sound?
        var offset: Double
        var deadline: UInt64
        var fate: Fate
    }

    /// What the main thread and the queue share.
    private struct Shared {
        var entries: [UInt64: Entry] = [:]
        /// Renderings by text (nil: it could not be rendered), the least recently used
        /// first in `renderedOrder`.
        var rendered: [String: Speech?] = [:]
        var renderedOrder: [String] = []
        var renderedSamples = 0
        var warned = false
        /// The workout is over: nothing more is rendered, played, said or warned about.
        var stopped = false

        /// The rendering of `text` if it is kept, now the most recently used.
        mutating func kept(_ text: String) -> Speech?? {
            guard let known = rendered[text] else { return nil }
            if let index = renderedOrder.lastIndex(of: text), index != renderedOrder.count - 1 {
                renderedOrder.remove(at: index)
                renderedOrder.append(text)
            }
            return .some(known)
        }

        /// Keeps a rendering, forgetting the least recently used beyond `keptSamples`
        /// (the newest is always kept).
        mutating func keep(_ speech: Speech?, for text: String) {
            if let old = rendered[text] {
                renderedSamples -= old?.samples.count ?? 0
            } else {
                renderedOrder.append(text)
            }
            rendered[text] = .some(speech)
            renderedSamples += speech?.samples.count ?? 0
            while renderedSamples > SpokenSounds.keptSamples || renderedOrder.count > SpokenSounds.keptTexts,
                  renderedOrder.count > 1 {
                let oldest = renderedOrder.removeFirst()
                renderedSamples -= rendered.removeValue(forKey: oldest)??.samples.count ?? 0
            }
        }
    }

    private let shared = Mutex(Shared())

    /// Words ready later than this before their moment are said aloud instead: the
    /// player needs its lead to place them on time.
    static let minimumLead: UInt64 = 50_000_000
    /// A rendering that takes longer is killed; the words are said aloud.
    static let renderTimeout = 10.0
    /// Enough for a minute of speech at 22,050 Hz.
    static let outputLimit = 3 * 1024 * 1024
    /// Renderings kept for words said again: two minutes at 22,050 Hz (about 10 MiB).
    static let keptSamples = 22_050 * 120
    /// And at most this many texts (those that could not be rendered hold no samples).
    static let keptTexts = 256

    /// `renderer`: the path of espeak-ng. `fallback` says words aloud (the synthesizer itself, through `SystemAlerts`).
    public init(output: any SoundOutput & Sendable, renderer: String, fallback: @escaping @Sendable (String) -> Void,
                warn: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.renderer = renderer
        self.fallback = fallback
        self.warn = warn
    }

    /// The words a moment will say, and how far into its sound they start.
    /// A segment's name follows its start sound, or the first `fileLead` seconds of a
    /// sound file (a gong rings out for seconds; the name is wanted at the boundary);
    /// other words start on the moment, with the countdown's pip.
    static func words(of moment: PlannedMoment) -> (text: String, offset: Double)? {
        guard let words = moment.words else { return nil }
        let text = HeardLimits.cut(words)
        if case .boundary = moment.kind {
            return (text, moment.sound.map { ($0.file == nil ? $0.seconds : min($0.seconds, fileLead)) + 0.05 } ?? 0)
        }
        return (text, 0)
    }

    static let fileLead = 1.0

    public func planned(_ moment: PlannedMoment) {
        guard let (text, offset) = Self.words(of: moment), output.isWorking else { return }
        let entry = Entry(text: text, tone: moment.sound, offset: offset, deadline: moment.deadline, fate: .rendering)
        let known = shared.withLock { shared -> Speech?? in
            shared.entries[moment.id] = entry
            return shared.kept(text)
        }
        if let known {
            handOver(moment.id, known)
        } else {
            queue.async { [self] in
                handOver(moment.id, speech(for: text))
            }
        }
    }

    public func withdrawn(_ moment: PlannedMoment) {
        let handed = shared.withLock { $0.entries.removeValue(forKey: moment.id)?.fate == .handedOver }
        if handed { output.cancel(moment.id) }
    }

    public func receive(_ event: Event) {
        guard case let .alert(.say, said, detail) = event.kind, detail != .unheard else { return }
        let text = HeardLimits.cut(said)
        if case let .spoken(id)? = detail {
            let fate = shared.withLock { shared -> Fate? in
                guard let entry = shared.entries[id], entry.text == text else { return nil }
                shared.entries[id] = nil
                return entry.fate == .rendering ? .spokenAloud : entry.fate
            }
            switch fate {
            case .handedOver?: return
            case .spokenAloud?: return fallback(text)
            default: break
            }
        }
        // Said on the spot (a hook's say(), the first segment's name): rendered, then
        // played as soon as it can be.
        queue.async { [self] in
            guard !shared.withLock({ $0.stopped }) else { return }
            let speech = output.isWorking ? speech(for: text) : nil
            guard !shared.withLock({ $0.stopped }) else { return }
            if let speech {
                output.play(Sound(name: text, notes: [], speech: speech))
            } else {
                fallback(text)
            }
        }
    }

    /// The workout is over (its renderers are about to be killed with every other child):
    /// what is still rendering is dropped, not said aloud and not warned about.
    public func stop() {
        shared.withLock { $0.stopped = true }
    }

    /// Returns once everything queued so far has been rendered or dropped (tests).
    func waitUntilIdle() {
        queue.sync {}
    }

    /// On the queue, or at once from the cache: gives the moment's sound, with `speech`
    /// (its words rendered), to the output if it is still wanted and there is time to
    /// place it.
    private func handOver(_ id: UInt64, _ speech: Speech?) {
        shared.withLock { shared in
            guard !shared.stopped, var entry = shared.entries[id], entry.fate == .rendering, let speech,
                  output.isWorking, Clocks.system.monotonic() &+ Self.minimumLead < entry.deadline else { return }
            var sound = entry.tone ?? Sound(name: entry.text, notes: [])
            sound.speech = speech.starting(at: entry.offset)
            entry.fate = .handedOver
            shared.entries[id] = entry
            // Under the lock, so a withdrawal's cancel cannot overtake it.
            output.schedule(id, sound, at: entry.deadline)
        }
    }

    /// On the queue: the rendering of `text`, made once while it is kept; nothing once
    /// the workout is over.
    private func speech(for text: String) -> Speech? {
        if let known = shared.withLock({ $0.stopped ? .some(nil) : $0.kept(text) }) { return known }
        let made: Speech?
        switch ChildProcess.capture(renderer, ["--stdout", "--stdin"], input: Array(text.utf8),
                                    timeout: Self.renderTimeout, limit: Self.outputLimit) {
        case let .exited(0, bytes):
            do {
                made = try SpeechWAV.speech(from: bytes)
            } catch {
                made = nil
                warnOnce("espeak-ng printed no usable sound (\(error)); speech is said aloud instead")
            }
        case let .exited(status, _):
            made = nil
            warnOnce("espeak-ng failed (exit \(status)); speech is said aloud instead")
        case .timedOut, .failedToStart:
            made = nil
            warnOnce("espeak-ng could not render speech; speech is said aloud instead")
        }
        shared.withLock { $0.keep(made, for: text) }
        return made
    }

    private func warnOnce(_ text: String) {
        let first = shared.withLock { shared -> Bool in
            defer { shared.warned = true }
            return !shared.warned && !shared.stopped
        }
        if first { warn(text) }
    }
}
