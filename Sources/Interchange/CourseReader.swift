import IntervalEngine
import WorkoutValues

/// Reads a `.erg` or `.mrc` course (GoldenCheetah, TrainerRoad, Wahoo): the header's
/// units line says watts or percent of FTP, `[COURSE DATA]` holds points of minutes and
/// power, and each pair of points with time between them is a step — at one power, or a
/// ramp from one to the other; 0 is no target. A `[COURSE TEXT]` line at a step's start
/// names it (`Rest: Easy` gives the kind, as in intervals.icu text), later ones are its
/// prompts. Repeats are found again by `ImportedRoutine`.
public enum CourseReader {
    public static func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        func fail(_ message: String, line: Int) -> WorkoutFileError { WorkoutFileError(file: file, line: line, message) }
        var warnings = WorkoutFileWarnings(file: file)
        var workout = WorkoutFile()
        var section = ""
        var unit: Targets.Key?
        var points: [(minutes: Double, value: Double, line: Int)] = []
        var texts: [(seconds: Double, text: String, line: Int)] = []
        for (index, raw) in TextLines.lines(bytes).enumerated() {
            let number = index + 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                let name = line.uppercased()
                switch name {
                case "[COURSE HEADER]", "[COURSE DATA]", "[COURSE TEXT]": section = name
                case "[END COURSE HEADER]", "[END COURSE DATA]", "[END COURSE TEXT]": section = ""
                default:
                    warnings.add("\(line) is not a section workout knows; skipped", line: number)
                    section = "skip"
                }
                continue
            }
            switch section {
            case "[COURSE HEADER]":
                let upper = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                if upper == "MINUTES WATTS" { unit = .watts; continue }
                if upper == "MINUTES PERCENT" { unit = .power; continue }
                guard let equals = line.firstIndex(of: "=") else {
                    warnings.add("\"\(line)\" is not a header line workout knows; skipped", line: number)
                    continue
                }
                let key = String(line[..<equals]).trimmingWhitespace().uppercased()
                let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
                switch key {
                case "DESCRIPTION": workout.description = value.isEmpty ? nil : value
                case "FILE NAME":
                    // GoldenCheetah writes the file's name, extension and all.
                    let lower = value.lowercased()
                    let name = lower.hasSuffix(".erg") || lower.hasSuffix(".mrc") ? String(value.dropLast(4)) : value
                    workout.name = name.isEmpty ? nil : name
                default: break
                }
            case "[COURSE DATA]":
                guard unit != nil else {
                    throw fail("expected MINUTES WATTS or MINUTES PERCENT in [COURSE HEADER] before the data", line: number)
                }
                let columns = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard columns.count >= 2 else {
                    throw fail("expected minutes and power, such as \"5.5 200\", got \"\(columns.joined(separator: " "))\"", line: number)
                }
                guard let minutes = WorkoutFileRules.decimal(columns[0]) else {
                    throw fail("expected minutes (a plain decimal), got \"\(columns[0])\"", line: number)
                }
                guard let value = WorkoutFileRules.decimal(columns[1]) else {
                    throw fail("expected \(unit == .watts ? "watts" : "percent of FTP") (a plain decimal), got \"\(columns[1])\"", line: number)
                }
                if let last = points.last, minutes < last.minutes {
                    throw fail("\(Number.format(minutes)) minutes is before the point on line \(last.line) "
                               + "(\(Number.format(last.minutes))): expected times in order", line: number)
                }
                if let unit, let problem = WorkoutFileRules.targetProblem(unit, value) {
                    throw fail("\(Number.format(value)): \(problem)", line: number)
                }
                points.append((minutes, value, number))
            case "[COURSE TEXT]":
                let columns = line.split(separator: "\t", omittingEmptySubsequences: true)
                guard columns.count >= 2, let seconds = WorkoutFileRules.decimal(String(columns[0]).trimmingWhitespace()) else {
                    throw fail("expected seconds, a tab and the text, got \"\(columns.joined(separator: " "))\"", line: number)
                }
                texts.append((seconds, String(columns[1]).trimmingWhitespace(), number))
            case "skip":
                continue
            default:
                warnings.add("\"\(line)\" is outside any section; skipped", line: number)
            }
        }
        guard let unit else { throw fail("expected MINUTES WATTS or MINUTES PERCENT in a [COURSE HEADER]", line: 1) }
        var steps: [WorkoutFile.Step] = []
        var starts: [Double] = []
        for (from, to) in zip(points, points.dropFirst()) where to.minutes > from.minutes {
            // Milliseconds: the minutes are written to six places.
            let seconds = ((to.minutes - from.minutes) * 60 * 1000).rounded() / 1000
            if let problem = WorkoutFileRules.durationProblem(seconds) {
                throw fail("a step of \(Number.format(seconds)) s: \(problem)", line: to.line)
            }
            var step = WorkoutFile.Step(kind: "work", name: "Work", duration: seconds, line: from.line)
            if from.value == to.value {
                if from.value > 0 { step.targets[unit] = .number(from.value) }
            } else {
                step.targets[unit] = .range(low: from.value, high: to.value)
                step.targets[.ramp] = .flag
            }
            starts.append((from.minutes * 60 * 1000).rounded() / 1000)
            steps.append(step)
            if steps.count > Routine.maximumSegments { throw fail(WorkoutFile.tooManySegments, line: to.line) }
        }
        guard !steps.isEmpty else { throw fail("[COURSE DATA] holds no steps (two points with time between them)", line: points.last?.line ?? 1) }
        var named = Set<Int>()
        for text in texts {
            // The step the text falls in; a text at a step's rounded start is in that step.
            guard let index = lastStep(startingBy: text.seconds, starts) else {
                warnings.add("a text at \(Number.format(text.seconds)) s, before the first step; skipped", line: text.line)
                continue
            }
            let end = starts[index] + steps[index].duration
            guard text.seconds < end.rounded() || index == steps.count - 1 else { continue }
            if text.seconds == starts[index].rounded() && !named.contains(index) {
                named.insert(index)
                if let (kind, name) = IntervalsText.kind(of: text.text) {
                    steps[index].kind = kind
                    steps[index].name = name.isEmpty ? Routine.defaultName(kind) : name
                } else {
                    steps[index].name = text.text
                }
            } else {
                let offset = max(0, text.seconds - starts[index])
                guard offset < steps[index].duration else { continue }
                steps[index].prompts.append(WorkoutFile.Prompt(offset: offset, text: text.text))
            }
        }
        workout.parts = steps.map { .step($0) }
        return (workout, warnings.lines)
    }

    /// The last step whose rounded start is at `seconds` or before, by halving: the starts
    /// are in order (the points are), so a text costs the log of the steps, not all of
    /// them (60,000 texts in a 1 MB file took minutes searched one by one).
    static func lastStep(startingBy seconds: Double, _ starts: [Double]) -> Int? {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].rounded() <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
