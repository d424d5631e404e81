import Foundation
import Synchronization

/// `/class/events`: the class page's Server-Sent Events. Each viewer gets the whole
/// roster first (`event: roster`, what `/class.json` gives), then each participant the
/// moment a message of theirs is kept (`event: participant`, one member of the roster's
/// list), pushed from the broker's network thread where the roster hears it; the whole
/// roster again every `rosterEvery` seconds, so that a participant gone silent shows as
/// away, and a viewer gone without a word fails a write and is forgotten. Nothing here
/// touches the main thread: a class of 256 costs the timers nothing.
///
/// Shared by the broker's thread, the server's tasks and its own timer: its state is one
/// value under a `Mutex`, so the compiler checks that it is `Sendable`.
final class ClassFeed: Sendable {
    /// As many as the live page's: a class has a TV or two.
    static let maximumViewers = EventFeed.maximumViewers
    /// Seconds between whole rosters: an away participant (silent for 30 s) is shown so
    /// within this.
    static let rosterEvery = 5.0

    private struct State {
        var viewers = Viewers(most: ClassFeed.maximumViewers)
        var timer: DispatchSourceTimer?
        var finished = false
    }

    private let state = Mutex(State())
    private let roster: @Sendable () -> String

    /// `roster`: `/class.json`'s text, read on any thread.
    init(roster: @escaping @Sendable () -> String) {
        self.roster = roster
    }

    /// A new viewer, starting with the roster and the browser's reconnection delay; nil
    /// once the workout is over. The roster is read under the feed's lock, as the timer's is: a change kept while
    /// it is read is pushed after it (perhaps twice), never lost or overtaken by an older
    /// roster. (The roster calls `changed` outside its own lock, so the two locks are only
    /// ever taken in this order.)
    func open() -> FeedStream? {
        state.withLock { state in
            guard !state.finished else { return nil }
            startTimer(&state)
            return state.viewers.admit(first: Array("retry: 1000\n\(rosterMessage())".utf8))
        }
    }

    /// A participant changed (`participant`: their JSON); on any thread.
    func changed(_ participant: String) {
        send(Array("event: participant\ndata: \(participant)\n\n".utf8))
    }

    /// The workout is over: every viewer gets what is queued, then its stream ends.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.timer?.cancel()
            state.timer = nil
            state.viewers.finish()
        }
    }

    private func send(_ bytes: [UInt8]) {
        state.withLock { state in
            guard !state.viewers.isEmpty else { return }
            state.viewers.send(bytes)
        }
    }

    private func rosterMessage() -> String {
        "event: roster\ndata: \(roster())\n\n"
    }

    /// Under the feed's lock (`state` is its value).
    private func startTimer(_ state: inout State) {
        guard state.timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + Self.rosterEvery, repeating: Self.rosterEvery, leeway: .milliseconds(500))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.state.withLock { state in
                guard !state.viewers.isEmpty else { return }
                state.viewers.send(Array(rosterMessage().utf8))
            }
        }
        timer.resume()
        state.timer = timer
    }
}
