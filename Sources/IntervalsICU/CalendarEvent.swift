import Foundation
import IntervalEngine
import WorkoutValues

/// A workout put on the athlete's calendar by `workout week --publish`: its day, name,
/// steps as intervals.icu's workout text (which the site reads into its own steps), and an
/// `external_id` that stays the same for the same plan and day, so that publishing again
/// changes the event rather than adding a second.
public struct CalendarEvent: Sendable, Equatable {
    public var date: String
    public var name: String
    public var description: String
    public var type: String
    public var externalID: String

    /// The site refuses a name over 80 characters (422): a longer one is cut.
    public static let longestName = 80

    public init(date: String, name: String, description: String, type: String, externalID: String) {
        self.date = date
        self.name = name.count > Self.longestName ? String(name.prefix(Self.longestName - 1)) + "…" : name
        self.description = description
        self.type = type
        self.externalID = externalID
    }

    var json: JSONValue {
        .object([
            ("category", .string("WORKOUT")), ("start_date_local", .string(date + "T00:00:00")),
            ("type", .string(type)), ("name", .string(name)), ("description", .string(description)),
            ("external_id", .string(externalID)),
        ])
    }
}

extension IntervalsService {
    /// Puts the events on the calendar (`POST /api/v1/athlete/0/events/bulk?upsert=true`):
    /// an event whose `external_id` is there already is changed, never added again.
    public func publish(_ events: [CalendarEvent]) throws(IntervalsProblem) {
        guard !events.isEmpty else { return }
        let body = JSONValue.array(events.map(\.json)).text
        _ = try send(.post, "/api/v1/athlete/0/events/bulk?upsert=true", body: .json(Array(body.utf8)))
    }
}
