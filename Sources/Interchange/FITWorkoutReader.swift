import FIT
import IntervalEngine
import WorkoutValues

/// Reads a FIT workout file (file type 5) — one `FITWorkoutWriter` wrote, or one from
/// Garmin Connect or another tool — into a `WorkoutFile`: each `workout_step` a step
/// (kind from its intensity, duration from `time` or `open`, its targets into `Targets`,
/// its notes), each `repeat_until_steps_cmplt` step a repeat of the steps it points back
/// to. An activity file, a damaged one (its CRCs are checked) or a step a timer cannot
/// follow (a distance, calories) is refused; a FIT file has no lines, so messages name
/// the step.
public enum FITWorkoutReader {
    typealias Code = FITWorkoutWriter.Code
    typealias Field = FITWorkoutWriter.Field

    public static func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        func fail(_ message: String) -> WorkoutFileError { WorkoutFileError(file: file, line: 0, message) }
        // The messages are visited, not kept: only the file's id, the workout's name and
        // its steps are, and past `mostSteps` the reading stops.
        var id: FITDecoder.Message?
        var name: String?
        var sport: UInt64?
        var steps: [FITDecoder.Message] = []
        do throws(FITDecoder.Problem) {
            try FITDecoder.forEachMessage(bytes) { message throws(FITDecoder.Problem) in
                switch message.global {
                case Field.fileID where id == nil: id = message
                case Field.workout where name == nil:
                    name = message.texts[Field.workoutName]
                    sport = message.numbers[Field.workoutSport]
                case Field.step:
                    guard steps.count < mostSteps else {
                        throw FITDecoder.Problem(message: "the FIT workout has more than \(mostSteps) steps, more than a FIT workout numbers")
                    }
                    steps.append(message)
                default: break
                }
            }
        } catch {
            throw fail(error.message)
        }
        guard let id else {
            throw fail("the FIT file has no file_id message, so it cannot say it is a workout")
        }
        guard id.numbers[0] == Code.workoutFile else {
            let what = id.numbers[0] == Code.activityFile ? "an activity (a recorded session)" : "FIT file type \(id.numbers[0].map(String.init) ?? "unknown")"
            throw fail("this FIT file is \(what), not a workout (type 5); workout import reads workout files")
        }
        var warnings = WorkoutFileWarnings(file: file)
        var workout = WorkoutFile()
        if let name, !name.isEmpty { workout.name = name }
        guard !steps.isEmpty else { throw fail("the FIT workout has no steps (workout_step messages)") }
        // Parts with the index of the FIT step each starts at, for repeats to point back to.
        var parts: [(index: Int, part: WorkoutFile.Part)] = []
        // Steps written out of nested repeats so far: each outer repeat copies its inner
        // ones again, so a file of many repeats of one large block is bounded here.
        var writtenOut = 0
        for (position, message) in steps.enumerated() {
            let number = position + 1
            // Any number may come in a field of 64 bits: none is converted without a check.
            guard let index = message.numbers[Field.messageIndex].map({ Int(exactly: $0) ?? Int.max }) ?? Optional(position),
                  index < mostSteps else {
                throw fail("step \(number) has message_index \(message.numbers[Field.messageIndex] ?? 0), more than a FIT workout numbers")
            }
            let name = message.texts[Field.name] ?? ""
            switch message.numbers[Field.durationType] ?? Code.open {
            case Code.repeatSteps:
                guard let back = message.numbers[Field.durationValue].flatMap({ Int(exactly: $0) }), back <= index,
                      let first = firstPart(from: back, in: parts) else {
                    throw fail("step \(number) repeats from a step that is not before it")
                }
                let times = message.numbers[Field.targetValue] ?? 0
                guard let count = Int(exactly: times), WorkoutFileRules.repeats.contains(count) else {
                    throw fail("step \(number) repeats \(times) times: expected \(WorkoutFileRules.repeats.lowerBound) to \(WorkoutFileRules.repeats.upperBound)")
                }
                var block: [WorkoutFile.Step] = []
                for (_, part) in parts[first...] {
                    switch part {
                    case .step(let step): block.append(step)
                    case let .repeats(inner, _, innerSteps):
                        warnings.add("step \(number): a repeat inside a repeat, written out \(inner) times in the outer one", line: 0)
                        // Written out, nested repeats grow by their product: no more than a routine holds.
                        writtenOut += inner * innerSteps.count
                        guard block.count + inner * innerSteps.count <= Routine.maximumSegments,
                              writtenOut <= Self.mostWrittenOut else {
                            throw fail("step \(number): repeats inside repeats written out to more than "
                                       + "\(Self.mostWrittenOut) steps; \(WorkoutFile.tooManySegments)")
                        }
                        block += (0..<inner).flatMap { _ in innerSteps }
                    }
                }
                let start = parts[first].index
                parts.removeSubrange(first...)
                parts.append((start, .repeats(count: count, name: name.isEmpty ? nil : name, steps: block)))
            case let type:
                let step = try self.step(message, number: number, type: type, rowing: sport == FITWorkoutWriter.Sport.rowing.code,
                                         warnings: &warnings, fail: fail)
                parts.append((index, .step(step)))
            }
        }
        workout.parts = parts.map(\.part)
        if workout.lineOverSegmentLimit() != nil { throw fail(WorkoutFile.tooManySegments) }
        if let problem = WorkoutFileRules.problems(workout).first {
            throw fail("step \(problem.line): \(problem.message)")
        }
        return (workout, warnings.lines)
    }

    private static func step(_ message: FITDecoder.Message, number: Int, type: UInt64, rowing: Bool, warnings: inout WorkoutFileWarnings,
                             fail: (String) -> WorkoutFileError) throws(WorkoutFileError) -> WorkoutFile.Step {
        let kind = self.kind(message.numbers[Field.intensity] ?? Code.active)
        var step = WorkoutFile.Step(kind: kind, name: message.texts[Field.name] ?? "", duration: OpenEnd.standardExpect,
                                    notes: message.texts[Field.notes].flatMap { $0.isEmpty ? nil : $0 }, line: number)
        if step.name.isEmpty { step.name = Routine.defaultName(kind) }
        switch type {
        case Code.time:
            step.duration = Double(message.numbers[Field.durationValue] ?? 0) / 1000
        case Code.open:
            step.open = true
        case Code.distance:
            // duration_distance: centimetres.
            guard let metres = DistanceText.checked(Double(message.numbers[Field.durationValue] ?? 0) / 100) else {
                throw fail("step \(number) ends by a distance of \(message.numbers[Field.durationValue] ?? 0) cm: expected above 0, at most 100 km")
            }
            step.distance = metres
            step.duration = DistanceText.expectedSeconds(metres, pace: nil)
        default:
            throw fail("step \(number) ends by \(durationName(type)), not by time, distance or the lap button: a timer cannot follow it")
        }
        for (typeField, valueField, lowField, highField) in [(Field.targetType, Field.targetValue, Field.low, Field.high),
                                                             (Field.secondType, Field.secondValue, Field.secondLow, Field.secondHigh)] {
            guard let target = message.numbers[typeField] else { continue }
            let zone = message.numbers[valueField] ?? 0
            let low = message.numbers[lowField].map { Double($0) }, high = message.numbers[highField].map { Double($0) }
            func value(_ offset: Double = 0) -> Targets.Value? {
                guard let low, let high else { return nil }
                return low == high ? .number(low - offset) : .range(low: low - offset, high: high - offset)
            }
            switch target {
            case Code.power where zone > 0: step.targets[.zone] = .text("Z\(zone)")
            case Code.power where (low ?? 0) > Code.wattsOffset: step.targets[.watts] = value(Code.wattsOffset)
            case Code.power: step.targets[.power] = value()
            case Code.heartRate where zone > 0: step.targets[.hrZone] = .text("Z\(zone)")
            case Code.heartRate where (low ?? 0) > Code.bpmOffset: step.targets[.bpm] = value(Code.bpmOffset)
            case Code.heartRate: step.targets[.hr] = value()
            case Code.cadence: step.targets[.cadence] = value()
            case Code.speed where zone == 0 && (low ?? 0) > 0 && (high ?? 0) > 0:
                // custom_target_speed_low/high, mm/s: held as the pace of their middle, a
                // rower's a 500 m split, a runner's a kilometre.
                let metresPerSecond = (low! + high!) / 2 / 1000
                let per = rowing ? 500.0 : 1000.0
                let pace = PaceText(seconds: (per / metresPerSecond).rounded(), metres: per, per: rowing ? "500m" : "km")
                step.targets[.pace] = .text(pace.text)
                if let metres = step.distance { step.duration = DistanceText.expectedSeconds(metres, pace: pace) }
            case Code.noTarget: break
            default: warnings.add("step \(number): a target of FIT type \(target) (speed, grade, resistance…) is not one workout keeps; skipped", line: 0)
            }
        }
        return step
    }

    /// A step's kind from FIT's intensity.
    static func kind(_ intensity: UInt64) -> String {
        switch intensity {
        case Code.rest: "rest"
        case Code.warmup: "warmup"
        case Code.cooldown: "cooldown"
        case Code.recovery: "recovery"
        default: "work"
        }
    }

    /// A FIT workout numbers its steps with a 16-bit `message_index` (0xFFFF is "none"):
    /// past this many it is not one, and the reading stops there.
    public static let mostSteps = 0xFFFF
    /// Steps written out of nested repeats, all told: twice what a routine holds.
    static let mostWrittenOut = 2 * Routine.maximumSegments

    /// The first part of the block a repeat pointing back to FIT step `back` repeats: the
    /// parts at its end whose steps are at `back` or after. Searched from the end, so the
    /// search costs the block it finds (which the repeat then takes away), not every part
    /// before it; nil when no part is.
    static func firstPart(from back: Int, in parts: [(index: Int, part: WorkoutFile.Part)]) -> Int? {
        var first = parts.endIndex
        while first > parts.startIndex, parts[first - 1].index >= back { first -= 1 }
        return first == parts.endIndex ? nil : first
    }

    private static func durationName(_ type: UInt64) -> String {
        let names = [1: "distance", 2: "heart rate below", 3: "heart rate above", 4: "calories", 7: "repeat until a time",
                     8: "repeat until a distance", 9: "repeat until calories"]
        return Int(exactly: type).flatMap { names[$0] }.map { "\($0) (duration type \(type))" } ?? "duration type \(type)"
    }
}
