import IntervalEngine
import WorkoutValues

/// Writes the trainer course formats GoldenCheetah, TrainerRoad and Wahoo read: `.erg`
/// (minutes and watts) and `.mrc` (minutes and percent of FTP). A header (`[COURSE HEADER]`
/// with the name, the description and the units line), then `[COURSE DATA]`, two points a
/// step — its start and its end, so a ramp is a line from low to high and a step change
/// two points at one time — and `[COURSE TEXT]`: each step's kind and name at its start
/// (`Rest: Easy`, as intervals.icu text writes them) and its prompts, in whole seconds.
/// The formats have no repeats, no heart rate, pace or cadence: those are named.
public enum CourseWriter {
    /// How long a step's name stays on screen, at most.
    static let labelSeconds = 10.0

    /// `ftp` turns percent of FTP into watts for `.erg` (and watts into percent for `.mrc`);
    /// nil when the file needs no conversion. Throws the steps that need one when it is missing.
    public static func text(_ workout: WorkoutFile, format: CourseFormat, ftp: Double?) throws(WorkoutExportProblem)
        -> (text: String, dropped: [String]) {
        var lines = ["[COURSE HEADER]", "VERSION = 2", "UNITS = ENGLISH"]
        if let description = workout.description.map(plain), !description.isEmpty { lines.append("DESCRIPTION = \(description)") }
        if let name = workout.name.map(plain), !name.isEmpty { lines.append("FILE NAME = \(name)") }
        if format == .erg, let ftp { lines.append("FTP = \(Number.format(ftp))") }
        lines += [format.unitsLine, "[END COURSE HEADER]", "[COURSE DATA]"]
        var texts: [String] = []
        var unwritten: [String: Int] = [:]
        var needFTP = 0
        var start = 0.0
        for step in workout.unrolled {
            let (low, high, key) = power(step.targets, unwritten: &unwritten)
            var values = (low, high)
            if let key, key != format.key {
                if let ftp {
                    values = format == .erg ? (low * ftp / 100, high * ftp / 100) : (low / ftp * 100, high / ftp * 100)
                    values = (Number.rounded(values.0, places: 2), Number.rounded(values.1, places: 2))
                    // What import would refuse is not written (WorkoutFileRules).
                    if let problem = WorkoutFileRules.targetProblem(format.key, max(values.0, values.1)) {
                        throw WorkoutExportProblem("line \(step.line): \(Number.format(max(values.0, values.1))) "
                                                   + "at an FTP of \(Number.format(ftp)) W: \(problem)")
                    }
                } else {
                    needFTP += 1
                }
            }
            let end = start + step.duration
            lines.append("\(minutes(start))\t\(Number.format(values.0))")
            lines.append("\(minutes(end))\t\(Number.format(values.1))")
            let label = TextWriting.label(step)
            texts.append(text(at: start, label.isEmpty ? "Work" : label, for: min(step.duration, labelSeconds)))
            for prompt in step.prompts {
                if prompt.offset.rounded() != prompt.offset { unwritten["cue times other than whole seconds (rounded)", default: 0] += 1 }
                texts.append(text(at: start + prompt.offset, prompt.text, for: min(step.duration - prompt.offset, labelSeconds)))
            }
            start = end
        }
        if needFTP > 0 { throw WorkoutExportProblem(needingFTP: needFTP, format) }
        lines += ["[END COURSE DATA]", "[COURSE TEXT]"] + texts + ["[END COURSE TEXT]"]
        var dropped = unwritten.sorted { $0.key < $1.key }.map { "\($0.key) (\(RoutineExport.plural($0.value, "step")))" }
        if workout.parts.contains(where: { if case .repeats = $0 { true } else { false } }) {
            dropped.append("repeats (written out step by step; import finds them again)")
        }
        return (lines.joined(separator: "\n") + "\n", dropped)
    }

    /// The step's power as the two ends of its line, and the key it came from (nil: none, 0).
    static func power(_ targets: Targets, unwritten: inout [String: Int]) -> (Double, Double, Targets.Key?) {
        let key: Targets.Key? = targets.has(.power) ? .power : targets.has(.watts) ? .watts : nil
        for (other, _) in targets.ordered where ![.power, .watts, .ramp, .freeride].contains(other) {
            unwritten[other.rawValue, default: 0] += 1
        }
        if key == nil && !targets.has(.freeride) { unwritten["steps without a power target (written at 0)", default: 0] += 1 }
        guard let key, let (low, high) = targets.bounds(key) else { return (0, 0, nil) }
        if low == high || targets.has(.ramp) { return (low, high, key) }
        unwritten["ranges without a ramp (written as their middle)", default: 0] += 1
        let middle = (low + high) / 2
        return (middle, middle, key)
    }

    /// Minutes to six places: a millisecond is 0.0000167 minutes.
    static func minutes(_ seconds: Double) -> String {
        Number.format(Number.rounded(seconds / 60, places: 6))
    }

    static func text(at seconds: Double, _ text: String, for duration: Double) -> String {
        "\(Int(seconds.rounded()))\t\(plain(text))\t\(max(1, Int(duration.rounded())))"
    }

    /// One line without tabs (they separate the columns).
    static func plain(_ text: String) -> String {
        ImportedRoutine.oneLine(text.replacingOccurrences(of: "\t", with: " "))
    }
}

/// `.erg` or `.mrc`: what the numbers of `[COURSE DATA]` count.
public enum CourseFormat: Sendable {
    case erg, mrc

    var unitsLine: String { self == .erg ? "MINUTES WATTS" : "MINUTES PERCENT" }
    var key: Targets.Key { self == .erg ? .watts : .power }
}

/// Why a workout is not written: a course with power in the other unit and no FTP to
/// convert it, or converted out of the range import takes.
public struct WorkoutExportProblem: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    init(needingFTP steps: Int, _ format: CourseFormat) {
        let (have, holds, other) = format == .erg ? ("percent of FTP", "watts", "mrc") : ("watts", "percent of FTP", "erg")
        description = "\(RoutineExport.plural(steps, "step")) \(steps == 1 ? "has" : "have") power in \(have), and a .\(format) "
            + "file holds \(holds): give --ftp WATTS to convert, or export --format \(other)"
    }
}
