import Foundation
import History
import IntervalEngine

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

    /// Reads a line back (its bytes, without the newline); nil for a line that is not a
    /// whole record (the header, a line cut short, values out of range). Bytes, not
    /// `String.split`: an hour is 3,600 lines, and splitting strings took most of an
    /// export's time.
    init?(line: ArraySlice<UInt8>) {
        var cells: [ArraySlice<UInt8>] = []
        cells.reserveCapacity(7)
        var start = line.startIndex
        for index in line.indices where line[index] == UInt8(ascii: ",") {
            cells.append(line[start..<index])
            start = index + 1
        }
        cells.append(line[start...])
        guard cells.count == 7, let t = Self.decimal(cells[0]), t >= 0, t <= HistoryEntry.largest,
              let seconds = Self.decimal(cells[1]), seconds.isFinite, let segment = Self.whole(cells[2]) else { return nil }
        // Each value: empty (none), or a number within its bounds; anything else is damage.
        func whole(_ cell: ArraySlice<UInt8>, _ range: ClosedRange<Int>) -> Int?? {
            if cell.isEmpty { return .some(nil) }
            guard let number = Self.whole(cell), range.contains(number) else { return nil }
            return .some(number)
        }
        func decimal(_ cell: ArraySlice<UInt8>, _ range: ClosedRange<Double>) -> Double?? {
            if cell.isEmpty { return .some(nil) }
            guard let number = Self.decimal(cell), range.contains(number) else { return nil }
            return .some(number)
        }
        guard let hr = whole(cells[3], Self.bounds.hr), let power = whole(cells[4], Self.bounds.power),
              let cadence = decimal(cells[5], Self.bounds.cadence), let speed = decimal(cells[6], Self.bounds.speed) else {
            return nil
        }
        self.init(t: t, time: Date(timeIntervalSince1970: seconds), segment: segment,
                  sample: Sample(hr: hr, power: power, cadence: cadence, speed: speed))
    }

    /// Digits only, at most nine of them.
    private static func whole(_ cell: ArraySlice<UInt8>) -> Int? {
        guard !cell.isEmpty, cell.count <= 9 else { return nil }
        var value = 0
        for byte in cell {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A short decimal (`Double`'s own parsing, on a string small enough to need no allocation).
    private static func decimal(_ cell: ArraySlice<UInt8>) -> Double? {
        guard !cell.isEmpty, cell.count <= 32 else { return nil }
        return Double(String(decoding: cell, as: UTF8.self))
    }
}
