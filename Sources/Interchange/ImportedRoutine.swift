import IntervalEngine
import WorkoutValues

/// The Lua routine `workout import` writes: what a person would write by hand — the
/// constructors (`warmup`, `work`, `rest`, `rounds`), durations as `"5:00"`, targets in
/// each segment's `info`, comments saying where it came from — and a hook that shows the
/// targets on screen as each segment starts.
public enum ImportedRoutine {
    /// `routineName` is the file's name without `.lua`; `source` the file it came from.
    public static func text(_ workout: WorkoutFile, routineName: String, source: String, format: WorkoutFormat) -> String {
        let title = oneLine(workout.name ?? "") .isEmpty ? routineName : oneLine(workout.name!)
        return text(workout, title: title, heading: "\(routineName).lua: \"\(title)\", imported from \(source) (\(format.codec.title)) "
                    + "by `workout import`. An ordinary routine now: change it as you like, then `workout check \(routineName)`.")
    }

    /// The routine of a workout planned on the intervals.icu calendar (its `workout_doc`),
    /// which `workout run today` loads as it would load a file, never written anywhere.
    public static func planned(_ workout: WorkoutFile, event: String) -> String {
        let title = oneLine(workout.name ?? "").isEmpty ? "today" : oneLine(workout.name!)
        return text(workout, title: title, heading: "\"\(title)\", planned on the intervals.icu calendar (\(event)).")
    }

    private static func text(_ workout: WorkoutFile, title: String, heading: String) -> String {
        var lines: [String] = []
        lines += wrap(heading).map(comment)
        if let description = workout.description {
            lines.append("--")
            for paragraph in description.split(separator: "\n") {
                lines += wrap(oneLine(String(paragraph))).map(comment)
            }
        }
        var about: [String] = []
        if let author = workout.author.map(oneLine), !author.isEmpty { about.append("By \(author).") }
        if !workout.tags.isEmpty { about.append("Tags: " + workout.tags.map(oneLine).joined(separator: ", ") + ".") }
        if !about.isEmpty {
            lines.append("--")
            lines += wrap(about.joined(separator: " ")).map(comment)
        }
        let keys = Set(workout.unrolled.flatMap { $0.targets.ordered.map(\.key) })
        if !keys.isEmpty {
            let ranges = workout.unrolled.contains { step in
                step.targets.ordered.contains { if case .range = $0.value { true } else { false } }
            }
            lines.append("--")
            lines += TargetText.explanation(keys, ranges: ranges).map(comment)
            lines.append("")
            lines += TargetText.luaFunctions(keys)
        }
        lines.append("")
        lines.append("return workout {")
        lines.append("  name = \(lua(title)),")
        if let description = workout.description.map(oneLine), !description.isEmpty {
            // A long one in pieces joined with .., so that no line is longer than 100.
            let pieces = wrap(description, width: 80, keepSpaces: true).map(lua)
            lines.append("  description = " + pieces.joined(separator: " ..\n    ") + ",")
        }
        lines.append("")
        for part in Repeats.tidied(workout.parts) {
            switch part {
            case .step(let step):
                lines += self.step(step, indent: "  ")
            case let .repeats(count, name, steps):
                lines.append("  rounds(\(count), {")
                for step in steps { lines += self.step(step, indent: "    ") }
                let options = name.map(oneLine).flatMap { $0.isEmpty ? nil : ", { name = \(lua($0)) }" } ?? ""
                lines.append("  }\(options)),")
            }
        }
        if !keys.isEmpty {
            lines.append("")
            lines.append("  -- Shows what to aim for as each segment starts.")
            lines.append("  on_segment_start = function(seg)")
            lines.append("    if seg.info then print(aim(seg.info)) end")
            lines.append("  end,")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static let constructors: Set<String> = ["prep", "warmup", "work", "rest", "cooldown"]

    /// The step's lines, each ending in a comma: one, or the full form's fields one to a
    /// line when they would not fit on one.
    static func step(_ step: WorkoutFile.Step, indent: String) -> [String] {
        let (call, fields) = self.step(step)
        guard let fields, indent.count + call.count > 100 else { return [indent + call + ","] }
        return [indent + "segment {"] + fields.map { indent + "  " + $0 + "," } + [indent + "},"]
    }

    /// `work("5:00", "Over", { power = 105 })`, or the full form for prompts and other
    /// kinds, with its fields.
    static func step(_ step: WorkoutFile.Step) -> (call: String, fields: [String]?) {
        let kind = oneLine(step.kind).isEmpty ? "work" : oneLine(step.kind)
        let name = oneLine(step.name)
        let named = name.isEmpty || name == Routine.defaultName(kind) ? nil : name
        let info = step.targets.isEmpty && step.notes == nil ? nil : table(step.targets, notes: step.notes)
        if step.prompts.isEmpty && !step.open && step.distance == nil && constructors.contains(kind) {
            let arguments = [duration(step.duration), named.map(lua), info].compactMap { $0 }
            return ("\(kind)(\(arguments.joined(separator: ", ")))", nil)
        }
        // An open step (FIT's lap button) is an open segment: the athlete ends it; a
        // distance step ends on the machine's distance.
        var fields = ["kind = \(lua(kind))"]
        if let metres = step.distance {
            fields.append("distance = \(number(metres))")
        } else {
            fields.append(step.open ? "open = true" : "duration = \(duration(step.duration))")
        }
        if let named { fields.append("name = \(lua(named))") }
        // An open step's length (`- 9m Z2 press lap`) is what it is expected to take.
        if step.open && step.distance == nil && step.duration != OpenEnd.standardExpect {
            fields.append("expect = \(duration(step.duration))")
        }
        if let info { fields.append("info = \(info)") }
        if !step.prompts.isEmpty { fields.append("cues = \(cues(step.prompts))") }
        return ("segment { " + fields.joined(separator: ", ") + " }", fields)
    }

    /// Prompts at the same second share one cue.
    static func cues(_ prompts: [WorkoutFile.Prompt]) -> String {
        var texts: [(Double, String)] = []
        var at: [Double: Int] = [:]
        for prompt in prompts {
            let text = oneLine(prompt.text)
            guard !text.isEmpty else { continue }
            if let index = at[prompt.offset] {
                texts[index].1 += " · " + text
            } else {
                at[prompt.offset] = texts.count
                texts.append((prompt.offset, text))
            }
        }
        return "{ " + texts.map { "[\(number($0.0))] = \(lua($0.1))" }.joined(separator: ", ") + " }"
    }

    /// The targets and the step's notes (a FIT step's text) as the segment's `info`.
    static func table(_ targets: Targets, notes: String? = nil) -> String {
        var fields = targets.ordered.map { key, value -> String in
            let written: String = switch value {
            case .number(let value): number(value)
            case let .range(low, high): "{ low = \(number(low)), high = \(number(high)) }"
            case .text(let text): lua(oneLine(text))
            case .flag: "true"
            }
            return "\(key.rawValue) = \(written)"
        }
        if let notes { fields.append("notes = \(lua(notes))") }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// Whole seconds under a minute as a number, longer as `"5:00"`; fractions as a number.
    static func duration(_ seconds: Double) -> String {
        guard seconds.rounded() == seconds, seconds >= 60 else { return number(seconds) }
        return lua(TimeText.clock(seconds))
    }

    static func number(_ value: Double) -> String { Number.format(value) }

    /// A Lua string literal; control characters never reach the file as they are.
    static func lua(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case _ where VisibleText.isControl(scalar):
                output += scalar.value > 0xFF ? "\\u{\(String(scalar.value, radix: 16))}" : "\\\(scalar.value)"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// Names, kinds and cue texts may not hold control characters: line breaks and tabs
    /// become spaces, other controls go.
    static func oneLine(_ text: String) -> String {
        var output = ""
        var space = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == " " {
                space = true
            } else if !VisibleText.isControl(scalar) {
                if space && !output.isEmpty { output += " " }
                space = false
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func comment(_ text: String) -> String {
        text.isEmpty ? "--" : "-- " + VisibleText.escape(text)
    }

    /// Words in lines of at most `width` characters (a longer word has a line of its own).
    /// With `keepSpaces` each line but the last keeps the space it was cut at, so that the
    /// lines joined give the text back.
    static func wrap(_ text: String, width: Int = 86, keepSpaces: Bool = false) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(keepSpaces ? line + " " : line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
