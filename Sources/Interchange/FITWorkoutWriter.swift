import FIT
import IntervalEngine
import WorkoutValues

/// Writes a FIT workout file (file type 5), what a Garmin watch or bike computer runs:
/// `file_id`, `workout` (name, sport, step count) and one `workout_step` per step — its
/// name, intensity from the kind, duration in milliseconds or `open` (the lap button
/// ends it), one target and a second one (cadence beside power, say), notes — with a
/// repeat as a step of type `repeat_until_steps_cmplt` after its block, pointing back to
/// the block's first step with the count. Bytes through `FITEncoder`, the activity
/// files' encoder. Same workout, same bytes: no creation time, and a serial number from
/// the steps, so a device tells two workouts apart.
public enum FITWorkoutWriter {
    /// FIT's sports a workout can be for (profile type `sport`).
    public enum Sport: String, CaseIterable, Sendable {
        case cycling, running, rowing, training, generic

        var code: UInt64 {
            switch self {
            case .generic: 0
            case .running: 1
            case .cycling: 2
            case .training: 10
            case .rowing: 15
            }
        }

        /// Cycling for a workout with power or cadence targets; rowing for a split
        /// (`/500m`); running for pace or distance steps; else training.
        static func implied(by workout: WorkoutFile) -> Sport {
            let steps = workout.unrolled
            let keys = Set(steps.flatMap { $0.targets.ordered.map(\.key) })
            if !keys.isDisjoint(with: [.power, .watts, .zone, .cadence]) { return .cycling }
            if steps.contains(where: { if case .text(let text)? = $0.targets[.pace] { PaceText(text)?.per == "500m" } else { false } }) {
                return .rowing
            }
            if !keys.isDisjoint(with: [.pace, .paceZone]) || steps.contains(where: { $0.distance != nil }) { return .running }
            return .training
        }
    }

    enum Local {
        static let fileID: UInt8 = 0, workout: UInt8 = 1, step: UInt8 = 2
    }

    /// The numbers of the FIT profile's types used here.
    enum Code {
        static let workoutFile: UInt64 = 5, activityFile: UInt64 = 4, development: UInt64 = 255, product: UInt64 = 1
        // wkt_step_duration
        static let time: UInt64 = 0, distance: UInt64 = 1, open: UInt64 = 5, repeatSteps: UInt64 = 6
        // wkt_step_target
        static let speed: UInt64 = 0, heartRate: UInt64 = 1, noTarget: UInt64 = 2, cadence: UInt64 = 3, power: UInt64 = 4
        // intensity
        static let active: UInt64 = 0, rest: UInt64 = 1, warmup: UInt64 = 2, cooldown: UInt64 = 3, recovery: UInt64 = 4
        /// Custom power above this is watts + 1000; at most, percent of FTP. Heart rate
        /// above `bpmOffset` is bpm + 100; at most, percent of maximum.
        static let wattsOffset = 1000.0, bpmOffset = 100.0
    }

    /// Message numbers and field numbers of the profile (21.x).
    enum Field {
        static let fileID: UInt16 = 0, workout: UInt16 = 26, step: UInt16 = 27
        static let name: UInt8 = 0, durationType: UInt8 = 1, durationValue: UInt8 = 2, targetType: UInt8 = 3
        static let targetValue: UInt8 = 4, low: UInt8 = 5, high: UInt8 = 6, intensity: UInt8 = 7, notes: UInt8 = 8
        static let secondType: UInt8 = 19, secondValue: UInt8 = 20, secondLow: UInt8 = 21, secondHigh: UInt8 = 22
        static let messageIndex: UInt8 = 254
        static let workoutSport: UInt8 = 4, workoutSteps: UInt8 = 6, workoutName: UInt8 = 8
    }

    /// Room for a step's name and a workout's name, and for notes (NUL included).
    static let nameRoom = 64, notesRoom = 255

    public static func bytes(_ workout: WorkoutFile, sport: Sport? = nil) -> (bytes: [UInt8], dropped: [String]) {
        var notes = Notes()
        var steps: [[FITEncoder.Value]] = []
        for part in workout.parts {
            switch part {
            case .step(let step):
                steps.append(notes.step(step, index: steps.count))
            case let .repeats(count, name, block):
                let first = steps.count
                for step in block { steps.append(notes.step(step, index: steps.count)) }
                steps.append(repeatStep(count: count, from: first, name: name, index: steps.count))
            }
        }
        var fit = FITEncoder()
        let serial = UInt64(FITEncoder.crc(stepsText(steps)[...])) << 16 | 1
        fit.define(local: Local.fileID, global: Field.fileID, [.init(0, .enumeration), .init(1, .uint16), .init(2, .uint16),
                                                                .init(3, .uint32z)])
        fit.message(local: Local.fileID, [.number(Code.workoutFile), .number(Code.development), .number(Code.product),
                                          .number(serial)])
        fit.define(local: Local.workout, global: Field.workout, [.init(Field.workoutSport, .enumeration),
                                                                 .init(Field.workoutSteps, .uint16),
                                                                 .init(Field.workoutName, .string, size: nameRoom)])
        fit.message(local: Local.workout, [.number((sport ?? Sport.implied(by: workout)).code), .number(UInt64(steps.count)),
                                           workout.name.map { .text($0) } ?? .none])
        fit.define(local: Local.step, global: Field.step, [
            .init(Field.messageIndex, .uint16), .init(Field.name, .string, size: nameRoom),
            .init(Field.durationType, .enumeration), .init(Field.durationValue, .uint32),
            .init(Field.targetType, .enumeration), .init(Field.targetValue, .uint32),
            .init(Field.low, .uint32), .init(Field.high, .uint32), .init(Field.intensity, .enumeration),
            .init(Field.notes, .string, size: notesRoom), .init(Field.secondType, .enumeration),
            .init(Field.secondValue, .uint32), .init(Field.secondLow, .uint32), .init(Field.secondHigh, .uint32),
        ])
        for values in steps { fit.message(local: Local.step, values) }
        var dropped = notes.dropped()
        if let name = workout.name, !fits(name, room: nameRoom) {
            dropped.append("the end of the workout's name (FIT keeps \(nameRoom - 1) bytes)")
        }
        return (fit.finished(), dropped)
    }

    private static func repeatStep(count: Int, from first: Int, name: String?, index: Int) -> [FITEncoder.Value] {
        [.number(UInt64(index)), name.map { .text($0) } ?? .none, .number(Code.repeatSteps), .number(UInt64(first)),
         .none, .number(UInt64(count)), .none, .none, .none, .none, .none, .none, .none, .none]
    }

    /// The steps' values as text, for the serial number.
    private static func stepsText(_ steps: [[FITEncoder.Value]]) -> [UInt8] {
        Array(steps.map { $0.map { value -> String in
            switch value {
            case .number(let number): String(number)
            case .text(let text): text
            case .none: "-"
            }
        }.joined(separator: ",") }.joined(separator: ";").utf8)
    }

    /// FIT's intensity from a kind: warm-up, cool-down, recovery their own; rest and prep rest; else active.
    static func intensity(_ kind: String) -> UInt64 {
        switch kind.lowercased() {
        case "recover", "recovery": Code.recovery
        default: UInt64(FITIntensity(kind: kind).rawValue)
        }
    }

    /// What the steps held that FIT cannot, counted as they are written.
    private struct Notes {
        var unwritten: [String: Int] = [:]
        var kinds: [String: String] = [:]
        var names = 0

        mutating func step(_ step: WorkoutFile.Step, index: Int) -> [FITEncoder.Value] {
            let intensity = FITWorkoutWriter.intensity(step.kind)
            let back = FITWorkoutReader.kind(intensity)
            if back != step.kind { kinds[step.kind] = back }
            if !FITWorkoutWriter.fits(step.name, room: nameRoom) { names += 1 }
            let (first, second) = targets(step.targets)
            var notes = step.notes
            if notes == nil && !step.prompts.isEmpty {
                notes = step.prompts.map(\.text).joined(separator: " · ")
                if step.prompts.contains(where: { $0.offset > 0 }) { unwritten["the times of cues (a step's notes show from its start)", default: 0] += 1 }
            }
            if let text = notes, !FITWorkoutWriter.fits(text, room: notesRoom) { unwritten["the end of notes longer than \(notesRoom - 1) bytes", default: 0] += 1 }
            // duration_distance is in centimetres (metres, scale 100).
            let duration: [FITEncoder.Value] = if let metres = step.distance {
                [.number(Code.distance), .number(UInt64((metres * 100).rounded()))]
            } else if step.open {
                [.number(Code.open), .none]
            } else {
                [.number(Code.time), .number(UInt64((step.duration * 1000).rounded()))]
            }
            return [.number(UInt64(index)), .text(step.name)] + duration + first
                + [.number(intensity), notes.map { .text($0) } ?? .none] + second
        }

        /// The first target (type, value, low, high) and a second (cadence beside power).
        mutating func targets(_ targets: Targets) -> (first: [FITEncoder.Value], second: [FITEncoder.Value]) {
            var written: [[FITEncoder.Value]] = []
            var used = Set<Targets.Key>()
            func add(_ key: Targets.Key, _ values: [FITEncoder.Value]) {
                used.insert(key)
                if written.count < 2 { written.append(values) } else { unwritten["\(key.rawValue) as a third target", default: 0] += 1 }
            }
            if let (low, high) = targets.bounds(.power) {
                add(.power, custom(Code.power, low, high))
            } else if let (low, high) = targets.bounds(.watts) {
                add(.watts, offset(Code.power, low, high, by: Code.wattsOffset, "watts"))
            } else if let zone = zone(targets[.zone]) {
                add(.zone, [.number(Code.power), .number(zone), .none, .none])
            }
            if let (low, high) = targets.bounds(.hr), high <= Code.bpmOffset {
                add(.hr, custom(Code.heartRate, low, high))
            } else if let (low, high) = targets.bounds(.bpm) {
                add(.bpm, offset(Code.heartRate, low, high, by: Code.bpmOffset, "bpm"))
            } else if let zone = zone(targets[.hrZone]) {
                add(.hrZone, [.number(Code.heartRate), .number(zone), .none, .none])
            }
            if let (low, high) = targets.bounds(.cadence) { add(.cadence, custom(Code.cadence, low, high)) }
            // A pace as text is a speed target: custom_target_speed_low/high in mm/s (m/s, scale 1000).
            if case .text(let text)? = targets[.pace], let pace = PaceText(text) {
                let speed = UInt64((pace.metres / pace.seconds * 1000).rounded())
                add(.pace, [.number(Code.speed), .number(0), .number(speed), .number(speed)])
            }
            if targets.has(.freeride) { used.insert(.freeride) }
            for (key, _) in targets.ordered where !used.contains(key) {
                let what: String = switch key {
                case .ramp: "ramps (written as a range from low to high)"
                case .hr: "hr above 100% (FIT reads it as bpm)"
                case .zone, .hrZone: "\(key.rawValue) other than one zone Z1…Z7"
                default: key.rawValue
                }
                unwritten[what, default: 0] += 1
            }
            let none: [FITEncoder.Value] = [.none, .none, .none, .none]
            let first = written.first ?? [.number(Code.noTarget), .none, .none, .none]
            return (first, written.count > 1 ? written[1] : none)
        }

        /// Watts or bpm with the profile's offset; under 1 they would read as percent, so 1.
        mutating func offset(_ type: UInt64, _ low: Double, _ high: Double, by offset: Double, _ unit: String) -> [FITEncoder.Value] {
            if low < 1 { unwritten["\(unit) under 1 (FIT reads them as percent; written as 1)", default: 0] += 1 }
            return custom(type, max(low, 1) + offset, max(high, 1) + offset)
        }

        mutating func custom(_ type: UInt64, _ low: Double, _ high: Double) -> [FITEncoder.Value] {
            if low.rounded() != low || high.rounded() != high { unwritten["fractions of targets (rounded)", default: 0] += 1 }
            return [.number(type), .number(0), .number(UInt64(low.rounded())), .number(UInt64(high.rounded()))]
        }

        /// `Z3` → 3 (FIT's zones are numbers 1 to 7 set on the device).
        func zone(_ value: Targets.Value?) -> UInt64? {
            guard case .text(let text)? = value, text.count == 2, text.uppercased().hasPrefix("Z"),
                  let digit = text.last?.wholeNumberValue, (1...7).contains(digit) else { return nil }
            return UInt64(digit)
        }

        func dropped() -> [String] {
            var notes = unwritten.sorted { $0.key < $1.key }.map { "\($0.key) (\(RoutineExport.plural($0.value, "step")))" }
            if !kinds.isEmpty {
                notes.append("kinds FIT has no intensity for: " + kinds.sorted { $0.key < $1.key }
                    .map { "\($0.key) (written as \($0.value))" }.joined(separator: ", "))
            }
            if names > 0 { notes.append("the end of names longer than \(nameRoom - 1) bytes (\(RoutineExport.plural(names, "step")))") }
            return notes
        }
    }

    static func fits(_ text: String, room: Int) -> Bool {
        String(decoding: FITEncoder.text(text, room: room).prefix { $0 != 0 }, as: UTF8.self) == text
    }
}
