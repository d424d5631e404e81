import Foundation

/// What the sensors give at a moment: the values a recorder keeps, each nil when no
/// sensor gives it. A plain value, so that any source (a Bluetooth sensor's `sample`
/// event, a test) hands it to `ActivityRecorder.record(_:at:)` as it is.
public struct Sample: Sendable, Equatable {
    /// Beats per minute.
    public var hr: Int?
    /// Watts.
    public var power: Int?
    /// Revolutions (or steps) per minute.
    public var cadence: Double?
    /// Metres per second.
    public var speed: Double?

    public init(hr: Int? = nil, power: Int? = nil, cadence: Double? = nil, speed: Double? = nil) {
        self.hr = hr
        self.power = power
        self.cadence = cadence
        self.speed = speed
    }

    /// Whether it carries no value at all.
    public var isEmpty: Bool { hr == nil && power == nil && cadence == nil && speed == nil }

    /// The values a record can hold (`ActivityRecord.bounds`); any other (a strap's 0
    /// when it loses contact, a glitch) is no value.
    var bounded: Sample {
        let bounds = ActivityRecord.bounds
        return Sample(hr: hr.flatMap { bounds.hr.contains($0) ? $0 : nil },
                      power: power.flatMap { bounds.power.contains($0) ? $0 : nil },
                      cadence: cadence.flatMap { $0.isFinite && bounds.cadence.contains($0) ? $0 : nil },
                      speed: speed.flatMap { $0.isFinite && bounds.speed.contains($0) ? $0 : nil })
    }

    /// `other`'s values where it has them, this one's elsewhere: two sensors' samples
    /// within one second make one record.
    func merged(with other: Sample) -> Sample {
        Sample(hr: other.hr ?? hr, power: other.power ?? power, cadence: other.cadence ?? cadence,
               speed: other.speed ?? speed)
    }
}

/// One second of a session in its activity file: `t` the workout second it stands for,
/// `time` the wall-clock moment of its latest sample, `segment` the segment under way.
public struct ActivityRecord: Sendable, Equatable {
    public var t: Double
    public var time: Date
    public var segment: Int
    public var sample: Sample

    public init(t: Double, time: Date, segment: Int, sample: Sample) {
        self.t = t
        self.time = time
        self.segment = segment
        self.sample = sample
    }

    /// The values a file may hold: anything else in a line is damage, not a reading.
    static let bounds = (hr: 1...300, power: 0...5_000, cadence: 0.0...300.0, speed: 0.0...100.0)

    /// `12,1764098077.250,3,142,250,90,` — as `ActivityFile.header` names the columns;
    /// an empty cell where no sensor gave the value.
    var line: String {
        let cells = [Number.format(t), String(format: "%.3f", time.timeIntervalSince1970), String(segment),
                     sample.hr.map(String.init) ?? "", sample.power.map(String.init) ?? "",
                     sample.cadence.map { Number.format(Number.rounded($0, places: 1)) } ?? "",
                     sample.speed.map { Number.format(Number.rounded($0, places: 3)) } ?? ""]
        return cells.joined(separator: ",") + "\n"
    }

    /// Reads a line back; nil for a line that is not a whole record (the header, a line
    /// cut short, values out of range).
    init?(line: Substring) {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard cells.count == 7, let t = Double(cells[0]), t >= 0, t <= HistoryEntry.largest,
              let seconds = Double(cells[1]), seconds.isFinite, let segment = Int(cells[2]), segment >= 0 else { return nil }
        func value<T: LosslessStringConvertible & Comparable>(_ cell: Substring, _ range: ClosedRange<T>) -> T?? {
            if cell.isEmpty { return .some(nil) }
            guard let number = T(String(cell)), range.contains(number) else { return nil }
            return .some(number)
        }
        guard let hr = value(cells[3], Self.bounds.hr), let power = value(cells[4], Self.bounds.power),
              let cadence = value(cells[5], Self.bounds.cadence), let speed = value(cells[6], Self.bounds.speed) else {
            return nil
        }
        self.init(t: t, time: Date(timeIntervalSince1970: seconds), segment: segment,
                  sample: Sample(hr: hr, power: power, cadence: cadence, speed: speed))
    }
}
