import Foundation
import IntervalEngine
import Platform
import WorkoutValues

/// The sessions waiting to go to the calendar: `$XDG_STATE_HOME/workout/intervals-uploads`,
/// one FIT file each (`2026-11-28T07-00-00.fit`) with a note beside it (`….json`: the
/// planned event it ran, to pair it with). A session is put here first and sent from here,
/// so nothing is lost when the service is unreachable or busy (5xx, 429): it waits for
/// `workout intervals sync` or the next run. A file leaves only when the service has it
/// (2xx, or 409: it had it already, as after a send whose answer was lost), so nothing is
/// sent twice either; two senders at once take turns (a lock on the folder).
public struct UploadQueue: Sendable {
    public let folder: String

    public init(_ directories: UserDirectories) {
        folder = directories.state("intervals-uploads")
    }

    /// One waiting session.
    public struct Waiting: Sendable, Equatable {
        /// The FIT file's path.
        public var path: String
        public var event: Int?
        /// The athlete's rating, sent to the activity once it is on the calendar.
        public var rpe: Int?
        public var feel: Int?
        public var name: String { (path as NSString).lastPathComponent }
    }

    /// Puts a session's FIT file in the queue: the note first, then the file, so that a
    /// file in the queue always has its note.
    /// Two sessions started in the same second (runs side by side) get `-2`, `-3`…
    public func add(_ fit: [UInt8], name: String, event: Int?, rpe: Int? = nil, feel: Int? = nil) throws(IntervalsProblem) -> Waiting {
        let stem = (name as NSString).deletingPathExtension
        var path = (folder as NSString).appendingPathComponent(name)
        var number = 1
        while FileManager.default.fileExists(atPath: path) || FileManager.default.fileExists(atPath: Self.notePath(path)) {
            number += 1
            path = (folder as NSString).appendingPathComponent("\(stem)-\(number).fit")
        }
        do throws(SavedFile.Failure) {
            try SavedFile.makeFolder(folder, mode: 0o700)
            let note: JSONValue = .object([("paired_event_id", .from(event)), ("icu_rpe", .from(rpe)), ("feel", .from(feel))])
            try SavedFile.write(Array(note.text.utf8), to: Self.notePath(path), mode: 0o600)
            try SavedFile.write(fit, to: path, mode: 0o600)
        } catch {
            throw IntervalsProblem("the session could not wait for the upload: \(error)")
        }
        return Waiting(path: path, event: event, rpe: rpe, feel: feel)
    }

    /// The waiting sessions, oldest first.
    public func waiting() -> [Waiting] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { $0.hasSuffix(".fit") && !$0.hasPrefix(".") }.sorted().map { name in
            let path = (folder as NSString).appendingPathComponent(name)
            let note = (try? BoundedFile.read(Self.notePath(path), maximumSize: 4096)).flatMap { bytes in
                bytes.withUnsafeBufferPointer { JSONReader.value($0) }
            }
            return Waiting(path: path, event: note?["paired_event_id"]?.wholeValue, rpe: note?["icu_rpe"]?.wholeValue,
                           feel: note?["feel"]?.wholeValue)
        }
    }

    static func notePath(_ path: String) -> String {
        ((path as NSString).deletingPathExtension) + ".json"
    }

    /// What one send did with each waiting session.
    public struct Outcome: Sendable, Equatable {
        public enum Result: Sendable, Equatable {
            /// On the calendar now, as this activity; `rating`: why the rating did not
            /// reach it (it is in the FIT file all the same).
            case sent(activity: String?, rating: String?)
            /// It was there already (409).
            case alreadyThere
            /// Still waiting, and why.
            case waiting(String)
        }

        public var name: String
        public var result: Result
    }

    /// Sends every waiting session, oldest first, removing each the service has. A
    /// problem that would stop the rest too (no connection, a refused key, 429, 5xx)
    /// leaves them all waiting; one the service refuses (422) waits and the next goes.
    public func send(with service: IntervalsService) -> [Outcome] {
        let lock = (folder as NSString).appendingPathComponent(".lock")
        let descriptor = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        var outcomes: [Outcome] = []
        var stopped: String?
        for session in waiting() {
            if let stopped {
                outcomes.append(Outcome(name: session.name, result: .waiting(stopped)))
                continue
            }
            do throws(IntervalsProblem) {
                let activity = try service.upload(session)
                remove(session)
                var rating: String?
                if let activity, session.rpe != nil || session.feel != nil {
                    do throws(IntervalsProblem) {
                        try service.rate(activity: activity, rpe: session.rpe, feel: session.feel)
                    } catch {
                        rating = error.message
                    }
                }
                outcomes.append(Outcome(name: session.name, result: .sent(activity: activity, rating: rating)))
            } catch where error.status == 409 {
                remove(session)
                outcomes.append(Outcome(name: session.name, result: .alreadyThere))
            } catch {
                outcomes.append(Outcome(name: session.name, result: .waiting(error.message)))
                if error.retry || error.status == 401 || error.status == 403 { stopped = error.message }
            }
        }
        return outcomes
    }

    private func remove(_ session: Waiting) {
        unlink(session.path)
        unlink(Self.notePath(session.path))
    }
}

extension IntervalsService {
    /// Uploads a waiting session's FIT file (`POST /api/v1/athlete/0/activities`, the file
    /// as `file`, with `paired_event_id`: pairing marks the planned event done, so it is
    /// never marked besides, which would count its load twice). The new activity's id.
    public func upload(_ session: UploadQueue.Waiting) throws(IntervalsProblem) -> String? {
        let bytes: [UInt8]
        do throws(BoundedFile.Problem) {
            bytes = try BoundedFile.read(session.path, maximumSize: 64 << 20)
        } catch {
            throw IntervalsProblem("\(VisibleText.escape(session.path)): \(error.explanation(what: "a FIT file"))")
        }
        let file = HTTPRequest.FormPart(name: "file", bytes: bytes, fileName: session.name, type: "application/octet-stream")
        // A parameter of the request, as the API's reference lists it beside `name` and
        // `external_id`.
        let pairing = session.event.map { "?paired_event_id=\($0)" } ?? ""
        let answer = try send(.post, "/api/v1/athlete/0/activities" + pairing, body: .form([file]))
        guard case .string(let id)? = answer.body.withUnsafeBufferPointer({ JSONReader.value($0) })?["id"] else { return nil }
        return id
    }
}

extension IntervalsService {
    /// The athlete's rating of an activity (`PUT /api/v1/activity/{id}` with `icu_rpe` and
    /// `feel`).
    public func rate(activity: String, rpe: Int?, feel: Int?) throws(IntervalsProblem) {
        var fields: [(String, JSONValue)] = []
        if let rpe { fields.append(("icu_rpe", .integer(rpe))) }
        if let feel { fields.append(("feel", .integer(feel))) }
        let id = activity.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? activity
        _ = try send(.put, "/api/v1/activity/\(id)", body: .json(Array(JSONValue.object(fields).text.utf8)))
    }
}
