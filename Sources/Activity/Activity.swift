import Foundation
import History
import IntervalEngine
import PastSessions
import WorkoutValues

/// A session from the history, with its samples, as an activity file shows it: laps on
/// the wall clock, each with its heart rate, power and cadence figures, and the session's
/// totals. Workout seconds become real ones (a session at `--speed 10` took a tenth).
/// The sports an activity file names.
public enum ActivitySport: Sendable {
    case cycling, running, rowing
}

public struct Activity: Sendable {
    public struct Lap: Sendable, Equatable {
        public var name: String
        public var kind: String
        public var start: Date
        public var end: Date
        /// Real seconds, pauses included.
        public var elapsed: Double
        /// Real seconds, pauses excluded.
        public var timer: Double
        public var figures: Figures
    }

    /// Averages and maxima of the records in a span, by quantity: none where no record has
    /// the value. Averages are over the records that have it (a second without heart rate
    /// is not a heart rate of 0).
    public struct Figures: Sendable, Equatable {
        public var averages: [SensorQuantity: Double] = [:]
        public var maxima: [SensorQuantity: Double] = [:]

        init(_ records: ArraySlice<ActivityRecord>) {
            for quantity in SensorQuantity.allCases {
                let values = records.compactMap { $0.sample[quantity] }
                guard let maximum = values.max() else { continue }
                averages[quantity] = values.reduce(0, +) / Double(values.count)
                maxima[quantity] = maximum
            }
        }

        /// A figure: `average` or `maximum`.
        public subscript(quantity: SensorQuantity, figure: SensorQuantity.Figure) -> Double? {
            figure == .average ? averages[quantity] : maxima[quantity]
        }
    }

    public var name: String
    public var start: Date
    public var end: Date
    public var elapsed: Double
    public var timer: Double
    public var laps: [Lap]
    /// Pauses on the wall clock: when each began and ended.
    public var pauses: [(start: Date, end: Date)]
    public var records: [ActivityRecord]
    public var figures: Figures
    /// The athlete's rating of the session (`HistoryEntry.rpe`, `feel`).
    public var rpe: Int?
    public var feel: Int?

    /// With power, a ride (Strava and intervals.icu file it as one); else training.
    public var hasPower: Bool { records.contains { $0.sample[.power] != nil } }

    /// Whether some record has `quantity`.
    public func has(_ quantity: SensorQuantity) -> Bool { records.contains { $0.sample[quantity] != nil } }

    /// What the session was, by its samples: rowing (a stroke rate or a split), running (a
    /// pace: a treadmill or a foot pod), cycling (power), else nil.
    public var sport: ActivitySport? {
        if has(.strokeRate) || has(.split) { return .rowing }
        if has(.pace) { return .running }
        return hasPower ? .cycling : nil
    }

    public init(entry: HistoryEntry, records: [ActivityRecord] = []) {
        let speed = entry.speed
        func wall(_ t: Double) -> Date { entry.started.addingTimeInterval(t / speed) }
        name = entry.program
        start = entry.started
        elapsed = entry.elapsed / speed
        end = wall(entry.elapsed)
        timer = (entry.active ?? entry.elapsed) / speed
        rpe = entry.rpe
        feel = entry.feel
        self.records = records.sorted { $0.t < $1.t }
        figures = Figures(self.records[...])
        // A line written before laps were kept: the whole session is one lap.
        let laps = entry.laps.isEmpty
            ? [SessionLap(index: 1, name: entry.program, kind: "work", start: 0, elapsed: entry.elapsed,
                          timer: entry.active ?? entry.elapsed)]
            : entry.laps
        var position = self.records.startIndex
        let sorted = self.records
        self.laps = laps.map { lap in
            let from = position
            while position < sorted.endIndex, sorted[position].t < lap.start + lap.elapsed { position += 1 }
            let inside = sorted[from..<position].drop { $0.t < lap.start }
            return Lap(name: lap.name, kind: lap.kind, start: wall(lap.start), end: wall(lap.start + lap.elapsed),
                       elapsed: lap.elapsed / speed, timer: lap.timer / speed, figures: Figures(inside))
        }
        pauses = entry.pauses.map { (wall($0.at), wall($0.at + $0.seconds)) }
    }
}
