import Foundation
import IntervalEngine
import WorkoutValues

/// Writes intervals.icu workout text: the name and description as free text, then one
/// `- text DURATION targets` line per step, repeats as a `Name Nx` header over their
/// steps with blank lines around. intervals.icu has no kinds: a step's kind goes into its
/// text (`Rest: Walk`), unless the name already says it (`Recovery`), or it is work.
/// Prompts follow as `<!> 30^Halfway`. An open step (the athlete ends it) gets `press
/// lap` after its expected length.
public enum IntervalsWriter {
    public static func text(_ workout: WorkoutFile) -> (text: String, dropped: [String]) {
        var lines: [String] = []
        var writer = TextWriting()
        if let name = workout.name { lines.append(TextWriting.freeText(name)) }
        if let description = workout.description {
            lines += description.split(separator: "\n").map { TextWriting.freeText(String($0)) }
        }
        if !lines.isEmpty { lines.append("") }
        for part in workout.parts {
            switch part {
            case .step(let step):
                lines.append(writer.line(step))
            case let .repeats(count, name, steps):
                if lines.last.map({ !$0.isEmpty }) == true { lines.append("") }
                let title = name.map { TextWriting.plain($0) + " " } ?? ""
                lines.append("\(title)\(count)x")
                lines += steps.map { writer.line($0) }
                lines.append("")
            }
        }
        while lines.last == "" { lines.removeLast() }
        return (lines.joined(separator: "\n") + "\n", writer.dropped())
    }
}

struct TextWriting {
    var maxEffort = 0
    var bpm = 0
    var incline = 0
    var mmp = 0
    var unreadable: [String] = []

    func dropped() -> [String] {
        var notes: [String] = []
        if maxEffort > 0 { notes.append("max_effort (\(RoutineExport.plural(maxEffort, "step"))): intervals.icu text has no all-out target") }
        if incline > 0 { notes.append("incline (\(RoutineExport.plural(incline, "step"))): intervals.icu text has no incline target") }
        if bpm > 0 { notes.append("bpm (\(RoutineExport.plural(bpm, "step"))): written here as heart rate in percent only") }
        if mmp > 0 { notes.append("mmp (\(RoutineExport.plural(mmp, "step"))): not of the form \"60% MMP 5m\"") }
        if !unreadable.isEmpty {
            notes.append("names that intervals.icu text would read differently (they hold a duration or a target): "
                         + unreadable.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return notes
    }

    /// One line of text: no line breaks, no `<!>` (which starts a prompt), and a leading
    /// `-` would make a step of it.
    static func plain(_ text: String) -> String {
        var line = ImportedRoutine.oneLine(text).replacingOccurrences(of: "<!>", with: "< ! >")
        while line.hasPrefix("-") { line.removeFirst() }
        return line.trimmingWhitespace()
    }

    /// An `mmp` target as written (`60% MMP 5m`) when it reads back as the same; nil else.
    static func mmp(_ value: Targets.Value) -> String? {
        guard case .text(let text) = value, case let line = plain(text),
              let (file, _) = try? IntervalsReader.read(Array("- 1s \(line)".utf8), file: "-"),
              file.unrolled.first?.targets[.mmp] == .text(line) else { return nil }
        return line
    }

    /// A line of the name or description: one that ends like a repeat's header
    /// (`Tempo 2x`) gets a full stop, or it would repeat the steps after it.
    static func freeText(_ text: String) -> String {
        let line = plain(text)
        guard let (file, _) = try? IntervalsReader.read(Array("\(line)\n- 1s".utf8), file: "-"),
              case .repeats? = file.parts.first else { return line }
        return line + "."
    }

    /// The text that gives the step's kind and name back when read.
    static func label(_ step: WorkoutFile.Step) -> String {
        let name = plain(step.name)
        let said = IntervalsText.kind(of: name)?.kind
        if step.kind == "work" {
            if said == nil { return name == "Work" ? "" : name }
            return "Work: \(name)"
        }
        if said == step.kind && IntervalsText.kind(of: name)?.name == name { return name }
        let kind = Routine.defaultName(step.kind)
        return name == kind ? "\(kind):" : "\(kind): \(name)"
    }

    /// The text goes first, as people write it; when it holds what reads as a duration
    /// (`Hold 30s`), after the targets, where it cannot take the duration's place.
    mutating func line(_ step: WorkoutFile.Step) -> String {
        let label = TextWriting.label(step)
        let lap = step.open ? ["press lap"] : []
        let length = step.distance.map { IntervalsText.format(metres: $0) } ?? IntervalsText.format(step.duration)
        let timing = ([length] + lap + targets(step.targets)).joined(separator: " ")
        let prompts = step.prompts.map { " <!> \(Number.format($0.offset))^\(TextWriting.plain($0.text))" }.joined()
        guard !label.isEmpty else { return "- " + timing + prompts }
        let first = "- \(label) \(timing)\(prompts)"
        if readsBack(first, step) { return first }
        let last = "- \(timing) \(label)\(prompts)"
        if readsBack(last, step) { return last }
        // Neither reads back: at least keep the duration. The name may hold what reads as
        // a duration or as a target out of range (`55555580%`, an error when read); then
        // only the kind is written.
        unreadable.append(step.name)
        let holdsDuration = label.split(separator: " ").contains { IntervalsText.duration(String($0)) != nil }
        for line in holdsDuration ? [last, first] : [first, last] where keepsDuration(line, step) { return line }
        let kindOnly = step.kind == "work" ? "" : Routine.defaultName(step.kind) + ": "
        return "- \(kindOnly)\(timing)\(prompts)"
    }

    /// Whether `workout import` would read the line as one step of the step's duration.
    func keepsDuration(_ line: String, _ step: WorkoutFile.Step) -> Bool {
        guard let (file, _) = try? IntervalsReader.read(Array(line.utf8), file: "-"),
              case .step(let read)? = file.parts.first else { return false }
        return read.duration == step.duration && read.distance == step.distance
    }

    /// Whether `workout import` would read the step's kind and name from the line.
    func readsBack(_ line: String, _ step: WorkoutFile.Step) -> Bool {
        guard let (file, _) = try? IntervalsReader.read(Array(line.utf8), file: "-"),
              case .step(let read)? = file.parts.first else { return false }
        return read.kind == step.kind && read.name == step.name
    }

    mutating func targets(_ targets: Targets) -> [String] {
        func amount(_ value: Targets.Value, _ unit: String) -> String {
            switch value {
            case .number(let number): Number.format(number) + unit
            case let .range(low, high): Number.format(low) + "-" + Number.format(high) + unit
            case .text(let text): TextWriting.plain(text).replacingOccurrences(of: " ", with: "")
            case .flag: ""
            }
        }
        var words: [String] = []
        for (key, value) in targets.ordered {
            var ramp = ""
            if targets.has(.ramp), case .range = value { ramp = "ramp " }
            switch key {
            case .power: words.append(ramp + amount(value, "%"))
            case .watts: words.append(ramp + amount(value, "w"))
            case .zone: words.append(amount(value, ""))
            case .hr: words.append(ramp + amount(value, "% HR"))
            case .lthr: words.append(ramp + amount(value, "% LTHR"))
            case .hrZone: words.append(amount(value, "") + " HR")
            case .pace: words.append(ramp + amount(value, "%") + (value == .flag ? "" : " Pace"))
            case .paceZone: words.append(amount(value, "") + " Pace")
            case .mmp:
                if let text = TextWriting.mmp(value) { words.append(text) } else { mmp += 1 }
            case .cadence: words.append(amount(value, "rpm"))
            case .freeride: words.append("freeride")
            case .maxEffort: maxEffort += 1
            case .bpm: bpm += 1
            case .incline: incline += 1
            case .ramp: break
            }
        }
        return words
    }
}
