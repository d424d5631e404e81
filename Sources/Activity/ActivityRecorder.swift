import Foundation
import History
import IntervalEngine
import Platform

/// Keeps a session's samples in its activity file (`ActivityFile`), one record a second:
/// the samples of one workout second are merged, and the record is written when the
/// next second's first sample comes (or the workout ends). The file is made at the first
/// sample, so a session without sensors has none. Each record is one `write` on an
/// `O_APPEND` descriptor and then `fdatasync`, so a crash or a power cut keeps every
/// second before it; a write cut short (a full disk) is cut back off, as the history's
/// appends are, so the file stays whole lines, and the next second tries again.
///
/// The `write` is on the main thread (it only copies into the page cache); each
/// `fdatasync` waits for the disk, so it runs on a serial queue of its own, in order, and
/// the workout's end waits for the last one before the file is closed.
public final class ActivityRecorder: SessionListener, SessionSamplesFile {
    private let syncing = DispatchQueue(label: "workout.activity-sync")
    private let directory: String
    private let clock: () -> Date
    private var started: Date?
    private var segment = 0
    /// The second being gathered: its latest sample's moment and the segment then under way.
    private var pending: (second: Double, time: Date, segment: Int, sample: Sample)?
    private var descriptor: Int32 = -1
    /// Set when no file could be made: the session goes on without one.
    private var gaveUp = false
    /// The file's name in the activities folder, once it is made.
    public private(set) var name: String?
    /// The file's path, once it is made.
    public private(set) var path: String?
    /// Records written whole.
    public private(set) var written = 0
    /// Why some seconds were not kept, if any were not: shown once the run is over.
    public private(set) var failure: String?

    public init(directory: String, clock: @escaping () -> Date = Date.init) {
        self.directory = directory
        self.clock = clock
    }

    /// Samples go to `activities/` beside `history`.
    public convenience init(beside history: HistoryFile, clock: @escaping () -> Date = Date.init) {
        self.init(directory: ActivityFile.directory(beside: history), clock: clock)
    }

    deinit {
        closeFile()
    }

    public func receive(_ event: Event) {
        switch event.kind {
        case .workoutStart:
            started = clock()
        case let .segmentStart(summary, _):
            segment = summary.index
        case let .sample(reading):
            // What a sensor reported: kept for the session's activity file, one line a second.
            record(Sample(values: reading.values), at: event.t)
        case .workoutEnd:
            flush()
            closeFile()
        default:
            break
        }
    }

    /// A sample at workout second `t` (an event's `t`).
    public func record(_ sample: Sample, at t: Double) {
        let sample = sample.bounded
        guard !sample.isEmpty, t.isFinite, t >= 0 else { return }
        let second = t.rounded(.down)
        if let pending, pending.second == second {
            self.pending = (second, clock(), segment, pending.sample.merged(with: sample))
            return
        }
        flush()
        pending = (second, clock(), segment, sample)
    }

    private func flush() {
        guard let (second, time, segment, sample) = pending else { return }
        pending = nil
        guard open() else { return }
        write(ActivityRecord(t: second, time: time, segment: segment, sample: sample).line)
    }

    /// Closes the file once every record's `fdatasync` is done.
    private func closeFile() {
        guard descriptor >= 0 else { return }
        syncing.sync {}
        close(descriptor)
        descriptor = -1
    }

    /// Opens a new file named after the session's start, `-2`, `-3`… after it when two
    /// sessions start in the same second.
    private func open() -> Bool {
        if descriptor >= 0 { return true }
        guard !gaveUp else { return false }
        do {
            try HistoryFile.makeDirectories(directory)
        } catch {
            failure = "the session's samples were not kept: \(error)"
            gaveUp = true
            return false
        }
        let stem = ActivityFile.stem(started ?? clock())
        for attempt in 1...100 {
            let name = stem + (attempt == 1 ? "" : "-\(attempt)") + ".csv"
            let candidate = (directory as NSString).appendingPathComponent(name)
            let opened = Glibc.open(candidate, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if opened < 0 && errno == EEXIST { continue }
            guard opened >= 0 else { break }
            descriptor = opened
            self.name = name
            path = candidate
            write(ActivityFile.header, counted: false)
            return true
        }
        failure = "the session's samples were not kept: cannot create a file in \(directory): \(HistoryFile.errnoText())"
        gaveUp = true
        return false
    }

    private func write(_ text: String, counted: Bool = true) {
        let bytes = Array(text.utf8)
        var count = -1
        repeat {
            count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count == bytes.count else {
            let reason = count < 0 ? HistoryFile.errnoText() : "only \(count) of \(bytes.count) bytes written"
            if count > 0 { LastResort.cutBack(descriptor, written: count) }
            failure = "some seconds of the session's samples were not kept: \(path ?? directory): \(reason)"
            return
        }
        let file = descriptor
        syncing.async { _ = fdatasync(file) }
        if counted { written += 1 }
    }
}
