import Foundation
import History
import IntervalEngine
import PastSessions
import WorkoutValues

/// What the sensors give at a moment: the values a recorder keeps, by quantity
/// (`SensorQuantity`, whose units these are). A plain value, so that any source (a
/// Bluetooth sensor's `sample` event, a test) hands it to `ActivityRecorder.record(_:at:)`
/// as it is.
public struct Sample: Sendable, Equatable {
    public var values: [SensorQuantity: Double]

    public init(values: [SensorQuantity: Double] = [:]) {
        self.values = values
    }

    /// A sample by its quantities' names, as the tests write one.
    public init(hr: Int? = nil, power: Int? = nil, cadence: Double? = nil, speed: Double? = nil) {
        self.init(values: SensorSample(sensor: "", name: "", hr: hr, power: power, cadence: cadence, speed: speed).values)
    }

    public subscript(quantity: SensorQuantity) -> Double? { values[quantity] }

    /// Whether it carries no value at all.
    public var isEmpty: Bool { values.isEmpty }

    /// The values a record can hold (`SensorQuantity.recordable`); any other (a strap's 0
    /// when it loses contact, a glitch) is no value.
    var bounded: Sample {
        Sample(values: values.filter { $0.value.isFinite && $0.key.recordable.contains($0.value) })
    }

    /// `other`'s values where it has them, this one's elsewhere: two sensors' samples
    /// within one second make one record.
    func merged(with other: Sample) -> Sample {
        Sample(values: values.merging(other.values) { $1 })
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

    /// `12,1764098077.250,3,142,250,90,` — as `ActivityFile.header` names the columns (a
    /// quantity's value to its `recordedPlaces`); an empty cell where no sensor gave it.
    /// Empty cells past the first four quantities are left off (a bike's line is as it
    /// was before the runner's quantities: `fewestColumns`).
    var line: String {
        var cells = [Number.format(t), String(format: "%.3f", time.timeIntervalSince1970), String(segment)]
            + SensorQuantity.allCases.map { quantity in
                sample[quantity].map { Number.format(Number.rounded($0, places: quantity.recordedPlaces)) } ?? ""
            }
        while cells.count > Self.fewestColumns, cells.last == "" { cells.removeLast() }
        return cells.joined(separator: ",") + "\n"
    }

    /// Reads a line back (its bytes, without the newline); nil for a line that is not a
    /// whole record (the header, a line cut short, values out of range). Bytes, not
    /// `String.split`: an hour is 3,600 lines, and splitting strings took most of an
    /// export's time.
    init?(line: ArraySlice<UInt8>) {
        var cells: [ArraySlice<UInt8>] = []
        cells.reserveCapacity(Self.columns)
        var start = line.startIndex
        for index in line.indices where line[index] == UInt8(ascii: ",") {
            cells.append(line[start..<index])
            start = index + 1
        }
        cells.append(line[start...])
        guard (Self.fewestColumns...Self.columns).contains(cells.count), let t = Self.decimal(cells[0]), t >= 0, t <= HistoryEntry.largest,
              let seconds = Self.decimal(cells[1]), seconds.isFinite, let segment = Self.whole(cells[2]) else { return nil }
        // Each value: empty (none), or a number within its bounds (digits only for a whole
        // quantity); anything else is damage.
        var values: [SensorQuantity: Double] = [:]
        for (quantity, cell) in zip(SensorQuantity.allCases, cells[3...]) where !cell.isEmpty {
            let number = quantity.recordedPlaces == 0 ? Self.whole(cell).map(Double.init) : Self.decimal(cell)
            guard let number, quantity.recordable.contains(number) else { return nil }
            values[quantity] = number
        }
        self.init(t: t, time: Date(timeIntervalSince1970: seconds), segment: segment, sample: Sample(values: values))
    }

    /// t, time, segment, then a column per quantity.
    static let columns = 3 + SensorQuantity.allCases.count
    /// A line written before the runner's quantities (distance, pace, …) were added at the
    /// end has only the first four (hr, power, cadence, speed): the rest are none.
    static let fewestColumns = 3 + 4

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
