import IntervalEngine
import WorkoutValues

/// The retained `PREFIX/timeline` as the coach's timeline grows: a routine that makes its
/// segments as it goes (`generate`) knows at the start only those before its first
/// generator, so the timeline is published again whenever the session has made more, with
/// every segment made so far and whether more may come (`more`). A follower appends what
/// it lacks; one that joins late reads all of it from the retained message.
///
/// The segments' entries are written once each and kept, so a republish costs the copy of
/// the text, not the routine's `info` read again from Lua for every segment; past
/// `largest` bytes it says only that it was too large, as the first one does.
struct PublishedTimeline {
    let largest: Int
    /// The entries of the segments written so far, comma-separated.
    private var entries = ""
    private var written = 0
    private var tooLarge = false
    /// What the latest payload said of more to come; nil before the first.
    private var saidMore: Bool?

    init(largest: Int) {
        self.largest = largest
    }

    /// The payload when the timeline has changed since the last one (more segments, or
    /// none will come now); nil when it has not.
    mutating func payload(_ routine: Routine) -> String? {
        guard !tooLarge else { return nil }
        let timeline = routine.timeline
        let more = timeline.isOpenEnded && !timeline.isComplete
        guard timeline.count != written || more != saidMore else { return nil }
        saidMore = more
        while written < timeline.count, entries.utf8.count <= largest {
            if written > 0 { entries += "," }
            routine.writePlanEntry(timeline.segments[written], forFollowers: true, into: &entries)
            written += 1
        }
        let head = routine.planHead(forFollowers: true)
        // Said once: every later change would say it again.
        guard head.utf8.count + entries.utf8.count <= largest else {
            tooLarge = true
            entries = ""
            return JSONValue.object([("name", .string(routine.name)), ("too_large", .bool(true))]).text
        }
        return head + "\"segments\":[" + entries + "]}"
    }
}
