import FIT
import Foundation
import IntervalEngine
import WorkoutValues

/// A session as a FIT activity file, the format Strava, Garmin Connect, intervals.icu,
/// TrainingPeaks and GoldenCheetah all take. The messages, with field numbers from
/// Garmin's FIT profile (21.x): file_id (an activity, by manufacturer "development"),
/// device_info, workout and one workout_step a lap (the lap message has no name field,
/// so a lap's name is its step's, by `wkt_step_index`), event (the timer's start, its
/// stops and starts around each pause, its final stop), a record a second from the
/// samples, a lap a segment (start, elapsed and timer time, heart rate, power and
/// cadence, intensity from the kind), then session and activity with the totals.
public enum FITActivity {
    /// The program that wrote it, as device_info and file_id name it.
    public struct Creator: Sendable {
        public var name: String
        /// Hundredths, as FIT's software_version: major.minor read as a decimal number,
        /// so 0.1.0 is 10 (0.10) and 2.15.1 is 215.
        public var version: Int

        public init(name: String, version: String) {
            self.name = name
            let parts = version.split(separator: ".", maxSplits: 2).prefix(2).joined(separator: ".")
            self.version = Int(((Double(parts) ?? 0) * 100).rounded())
        }
    }

    private enum Local {
        static let fileID: UInt8 = 0, deviceInfo: UInt8 = 1, event: UInt8 = 2, record: UInt8 = 3, lap: UInt8 = 4
        static let session: UInt8 = 5, activity: UInt8 = 6, workout: UInt8 = 7, step: UInt8 = 8
    }

    /// FIT's numbers for the values written (profile types event, event_type, sport…).
    private enum Code {
        static let activityFile: UInt64 = 4, development: UInt64 = 255, product: UInt64 = 1
        static let timer: UInt64 = 0, session: UInt64 = 8, lap: UInt64 = 9, activity: UInt64 = 26
        static let start: UInt64 = 0, stop: UInt64 = 1, stopAll: UInt64 = 4
        static let cycling: UInt64 = 2, training: UInt64 = 10, indoorCycling: UInt64 = 6, generic: UInt64 = 0
        static let running: UInt64 = 1, treadmill: UInt64 = 1, rowing: UInt64 = 15, indoorRowing: UInt64 = 14
        static let lapByTime: UInt64 = 1, sessionEnd: UInt64 = 7, activityEnd: UInt64 = 0, manualActivity: UInt64 = 0
        static let durationTime: UInt64 = 0
    }

    public static func encode(_ activity: Activity, creator: Creator) -> [UInt8] {
        var fit = FITEncoder()
        let start = FITEncoder.time(activity.start.timeIntervalSince1970)
        let end = FITEncoder.time(activity.end.timeIntervalSince1970)
        let (sport, subSport) = switch activity.sport {
        case .rowing?: (Code.rowing, Code.indoorRowing)
        case .running?: (Code.running, Code.treadmill)
        case .cycling?: (Code.cycling, Code.indoorCycling)
        case nil: (Code.training, Code.generic)
        }

        fit.define(local: Local.fileID, global: 0, [.init(0, .enumeration), .init(1, .uint16), .init(2, .uint16),
                                                     .init(3, .uint32z), .init(4, .uint32), .init(8, .string, size: 16)])
        fit.message(local: Local.fileID, [.number(Code.activityFile), .number(Code.development), .number(Code.product),
                                          .number(start & 0xFFFF_FFFF | 1), .number(start), .text(creator.name)])
        fit.define(local: Local.deviceInfo, global: 23, [.init(253, .uint32), .init(0, .uint8), .init(2, .uint16),
                                                         .init(4, .uint16), .init(5, .uint16), .init(27, .string, size: 16)])
        fit.message(local: Local.deviceInfo, [.number(start), .number(0), .number(Code.development), .number(Code.product),
                                              .number(UInt64(max(0, creator.version))), .text(creator.name)])
        writeWorkout(activity, sport: sport, subSport: subSport, into: &fit)

        fit.define(local: Local.event, global: 21, [.init(253, .uint32), .init(0, .enumeration), .init(1, .enumeration),
                                                    .init(4, .uint8)])
        func timer(_ type: UInt64, at time: UInt64) {
            fit.message(local: Local.event, [.number(time), .number(Code.timer), .number(type), .number(0)])
        }
        timer(Code.start, at: start)

        let recordFields = defineRecord(activity, into: &fit)
        defineLap(into: &fit)
        // Records, pauses and laps in the order of their moments; at the same second a
        // record comes first, then a pause's events, then the lap that ends there.
        var records = activity.records[...]
        var pauses = activity.pauses[...]
        for (number, lap) in activity.laps.enumerated() {
            while let record = records.first, record.time < lap.end || number == activity.laps.count - 1 {
                writeRecord(record, fields: recordFields, into: &fit)
                records = records.dropFirst()
            }
            while let pause = pauses.first, pause.start < lap.end || number == activity.laps.count - 1 {
                timer(Code.stop, at: FITEncoder.time(pause.start.timeIntervalSince1970))
                timer(Code.start, at: FITEncoder.time(pause.end.timeIntervalSince1970))
                pauses = pauses.dropFirst()
            }
            writeLap(lap, number: number, sport: sport, subSport: subSport, into: &fit)
        }
        timer(Code.stopAll, at: end)

        let figures = activity.figures
        let sessionFigures = figureFields(\.session)
        var sessionFields: [FITEncoder.Field] = [
            .init(254, .uint16), .init(253, .uint32), .init(0, .enumeration), .init(1, .enumeration), .init(2, .uint32),
            .init(5, .enumeration), .init(6, .enumeration), .init(7, .uint32), .init(8, .uint32),
        ]
        sessionFields += sessionFigures.map(\.field)
        sessionFields += [.init(25, .uint16), .init(26, .uint16), .init(28, .enumeration)]
        // The athlete's rating, as a Garmin writes it after its own prompt: workout_rpe
        // (193) is RPE × 10; workout_feel (192) runs 0 (very weak) to 100 (very strong) in
        // steps of 25, where intervals.icu's feel runs 1 (strong) to 5 (weak).
        let rating: [(FITEncoder.Field, UInt64)] = [
            activity.feel.map { (.init(192, .uint8), UInt64(max(0, min(100, (5 - $0) * 25)))) },
            activity.rpe.map { (.init(193, .uint8), UInt64(max(0, min(100, $0 * 10)))) },
        ].compactMap { $0 }
        sessionFields += rating.map(\.0)
        fit.define(local: Local.session, global: 18, sessionFields)
        var session: [FITEncoder.Value] = [
            .number(0), .number(end), .number(Code.session), .number(Code.stop), .number(start),
            .number(sport), .number(subSport), milliseconds(activity.elapsed), milliseconds(activity.timer),
        ]
        session += sessionFigures.map { value(figures[$0.quantity, $0.figure], $0.quantity) }
        session += [.number(0), .number(UInt64(activity.laps.count)), .number(Code.activityEnd)]
        session += rating.map { .number($0.1) }
        fit.message(local: Local.session, session)
        fit.define(local: Local.activity, global: 34, [.init(253, .uint32), .init(0, .uint32), .init(1, .uint16),
                                                       .init(2, .enumeration), .init(3, .enumeration),
                                                       .init(4, .enumeration), .init(5, .uint32)])
        let offset = TimeZone.current.secondsFromGMT(for: activity.end)
        fit.message(local: Local.activity, [.number(end), milliseconds(activity.timer), .number(1),
                                            .number(Code.manualActivity), .number(Code.activity), .number(Code.stop),
                                            .number(UInt64(max(0, Int64(end) + Int64(offset))))])
        return fit.finished()
    }

    /// The routine as a workout, one step a lap: the names the laps show.
    private static func writeWorkout(_ activity: Activity, sport: UInt64, subSport: UInt64, into fit: inout FITEncoder) {
        fit.define(local: Local.workout, global: 26, [.init(4, .enumeration), .init(6, .uint16),
                                                      .init(8, .string, size: 32), .init(11, .enumeration)])
        fit.message(local: Local.workout, [.number(sport), .number(UInt64(activity.laps.count)), .text(activity.name),
                                           .number(subSport)])
        fit.define(local: Local.step, global: 27, [.init(254, .uint16), .init(0, .string, size: 32), .init(1, .enumeration),
                                                   .init(2, .uint32), .init(7, .enumeration)])
        for (number, lap) in activity.laps.enumerated() {
            fit.message(local: Local.step, [.number(UInt64(number)), .text(lap.name), .number(Code.durationTime),
                                            milliseconds(lap.timer),
                                            .number(UInt64(FITIntensity(kind: lap.kind).rawValue))])
        }
    }

    /// The quantities the records carry (those some sample gave and FIT holds: `SensorQuantity.fit`),
    /// in the order of their field numbers.
    private static func defineRecord(_ activity: Activity, into fit: inout FITEncoder) -> [SensorQuantity] {
        let present = SensorQuantity.allCases.filter { quantity in
            quantity.fit != nil && activity.records.contains { $0.sample[quantity] != nil }
                // A stroke rate goes in `cadence` only when no cadence does.
                && !(quantity == .strokeRate && activity.has(.cadence))
        }.sorted { $0.fit!.record < $1.fit!.record }
        var fields: [FITEncoder.Field] = [.init(253, .uint32)]
        fields += present.map { FITEncoder.Field($0.fit!.record, baseType($0.fit!)) }
        fit.define(local: Local.record, global: 20, fields)
        return present
    }

    private static func writeRecord(_ record: ActivityRecord, fields: [SensorQuantity], into fit: inout FITEncoder) {
        var values: [FITEncoder.Value] = [.number(FITEncoder.time(record.time.timeIntervalSince1970))]
        values += fields.map { value(record.sample[$0], $0) }
        fit.message(local: Local.record, values)
    }

    /// The figures a lap or a session message holds (`FITForm.lap`, `FITForm.session`): each
    /// quantity's average and maximum field, in the order of their numbers.
    private static func figureFields(_ message: KeyPath<FITForm, (average: UInt8, maximum: UInt8)?>) -> [FigureField] {
        var fields: [FigureField] = []
        for quantity in SensorQuantity.allCases {
            guard let form = quantity.fit, let numbers = form[keyPath: message] else { continue }
            fields.append((FITEncoder.Field(numbers.average, baseType(form)), quantity, .average))
            fields.append((FITEncoder.Field(numbers.maximum, baseType(form)), quantity, .maximum))
        }
        return fields.sorted { $0.field.number < $1.field.number }
    }

    /// A figure's field, and the quantity and figure it holds.
    private typealias FigureField = (field: FITEncoder.Field, quantity: SensorQuantity, figure: SensorQuantity.Figure)

    /// FIT's type of a quantity's width: unsigned, or sint16 for a signed one (the grade).
    private static func baseType(_ form: FITForm) -> FITEncoder.BaseType {
        if form.signed { return .sint16 }
        return switch form.bytes {
        case 1: .uint8
        case 2: .uint16
        default: .uint32
        }
    }

    /// A quantity's value as its field holds it: in the file's unit, times its scale,
    /// rounded; none without one.
    private static func value(_ value: Double?, _ quantity: SensorQuantity) -> FITEncoder.Value {
        guard let value, let form = quantity.fit else { return .none }
        let scaled = Int64((value * quantity.inActivityFiles * form.scale).rounded())
        return .number(form.signed ? UInt64(bitPattern: scaled) : UInt64(max(0, scaled)))
    }

    private static var lapFigures: [FigureField] { figureFields(\.lap) }

    private static func defineLap(into fit: inout FITEncoder) {
        var fields: [FITEncoder.Field] = [
            .init(254, .uint16), .init(253, .uint32), .init(0, .enumeration), .init(1, .enumeration), .init(2, .uint32),
            .init(7, .uint32), .init(8, .uint32),
        ]
        fields += lapFigures.map(\.field)
        fields += [.init(23, .enumeration), .init(24, .enumeration), .init(25, .enumeration), .init(39, .enumeration), .init(71, .uint16)]
        fit.define(local: Local.lap, global: 19, fields)
    }

    private static func writeLap(_ lap: Activity.Lap, number: Int, sport: UInt64, subSport: UInt64,
                                 into fit: inout FITEncoder) {
        let figures = lap.figures
        var values: [FITEncoder.Value] = [
            .number(UInt64(number)), .number(FITEncoder.time(lap.end.timeIntervalSince1970)), .number(Code.lap),
            .number(Code.stop), .number(FITEncoder.time(lap.start.timeIntervalSince1970)),
            milliseconds(lap.elapsed), milliseconds(lap.timer),
        ]
        values += lapFigures.map { value(figures[$0.quantity, $0.figure], $0.quantity) }
        values += [.number(UInt64(FITIntensity(kind: lap.kind).rawValue)), .number(Code.lapByTime),
                   .number(sport), .number(subSport), .number(UInt64(number))]
        fit.message(local: Local.lap, values)
    }

    private static func milliseconds(_ seconds: Double) -> FITEncoder.Value {
        .number(UInt64(max(0, (seconds * 1000).rounded())))
    }

}
