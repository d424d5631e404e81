import IntervalEngine
import WorkoutValues

/// Reads a Zwift workout file (`.zwo`): `Warmup` and `Cooldown` become warm-up and
/// cool-down steps, `SteadyState`, `Ramp`, `FreeRide` and `MaxEffort` work, `IntervalsT`
/// a repeat of work and rest; power (a fraction of FTP) becomes `power` in percent,
/// cadence `cadence`, text events timed prompts (a `FreeRide` has no target, so no `info`).
/// A step's `Zone="2"` becomes `zone = "Z2"` beside its power, and its `Text` a prompt at
/// its start. An element it does not know is a warning naming its line, and is skipped.
///
/// `workout export` adds `Name` and `Kind` attributes (`OnName`, `OffName`, `OnKind`,
/// `OffKind` on `IntervalsT`) where Zwift's elements cannot say what a segment is; they
/// are read back here, and other tools pass over attributes they do not know.
///
/// A run (`<sportType>run</sportType>`) gives power as a fraction of threshold pace, kept
/// as `pace`; with `<durationType>distance</durationType>` its durations are metres and its
/// steps distance steps (`ZwiftDistance`). Text events placed by distance (`distoffset`)
/// are a warning: a routine's cues are placed by time.
public enum ZwiftReader {
    public static func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        var reading = Reading(reader: XMLReader(bytes, file: file), file: file)
        try reading.document()
        return (reading.result, reading.warnings.lines)
    }
}

/// One element of `<workout>` as read: a single step, or an `IntervalsT`'s pair repeated.
private struct Piece {
    var steps: [WorkoutFile.Step]
    var count: Int
    var start: Double
    var element: String
    var line: Int
    /// Prompts of each repetition, for each of its steps.
    var prompts: [[[WorkoutFile.Prompt]]]

    var period: Double { steps.reduce(0) { $0 + $1.duration } }
    var end: Double { start + period * Double(count) }
}

private struct Reading {
    var reader: XMLReader
    let file: String
    var warnings: WorkoutFileWarnings
    var result = WorkoutFile()
    var pieces: [Piece] = []
    /// Text events placed directly in `<workout>`: their offset counts from the workout's start.
    var loose: [(offset: Double, text: String, line: Int)] = []
    var isRun = false
    /// `<durationType>distance</durationType>`: every duration is metres (`ZwiftDistance`).
    var byDistance = false
    var workoutLine = 1

    init(reader: XMLReader, file: String) {
        self.reader = reader
        self.file = file
        warnings = WorkoutFileWarnings(file: file)
    }

    func fail(_ message: String, line: Int) -> WorkoutFileError {
        WorkoutFileError(file: file, line: line, message)
    }

    /// Catalogue fields of Zwift's own files that say nothing about the workout itself.
    static let catalogue: Set<String> = [
        "activitysavename", "author_alias", "authoricon", "category", "categoryindex", "entid", "overridehash",
        "painindex", "showcp20", "skippable", "subcategory", "visibleaftertime", "visibleoutsideplan",
        "workoutlength", "workoutplan",
    ]

    mutating func document() throws(WorkoutFileError) {
        guard case let .start(root, _, line)? = try nextMarkup() else {
            throw fail("expected <workout_file>", line: reader.line)
        }
        guard root.lowercased() == "workout_file" else {
            throw fail("expected <workout_file> as the outermost element, got <\(root)>", line: line)
        }
        var sawWorkout = false
        while let event = try nextMarkup() {
            guard case let .start(name, _, line) = event else { break }
            switch name.lowercased() {
            case "name": result.name = try text(of: name)
            case "description": result.description = try text(of: name)
            case "author": result.author = try text(of: name)
            case "sporttype": isRun = try text(of: name)?.lowercased() == "run"
            case "durationtype": try durationType(name, line: line, afterWorkout: sawWorkout)
            case "tags": try tags()
            case "workout":
                sawWorkout = true
                workoutLine = line
                try workout(line: line)
            case let other where Reading.catalogue.contains(other): try skip(name)
            default:
                warnings.add("<\(name)> is not part of a workout file workout knows; skipped", line: line)
                try skip(name)
            }
        }
        // Only comments and space may follow the root; the reader refuses anything else.
        _ = try reader.next()
        guard sawWorkout else { throw fail("expected a <workout> element holding the steps", line: reader.line) }
        try assemble()
    }

    /// The next start or end, passing over text between elements.
    mutating func nextMarkup() throws(WorkoutFileError) -> XMLReader.Event? {
        while let event = try reader.next() {
            if case .text = event { continue }
            return event
        }
        return nil
    }

    /// The text inside a simple element, up to its end; nil when empty.
    mutating func text(of element: String) throws(WorkoutFileError) -> String? {
        var text = ""
        while let event = try reader.next() {
            switch event {
            case .text(let chunk, _): text += chunk
            case .end: return text.trimmingWhitespace().isEmpty ? nil : text.trimmingWhitespace()
            case let .start(inner, _, line):
                warnings.add("<\(inner)> inside <\(element)> is not expected; skipped", line: line)
                try skip(inner)
            }
        }
        return nil
    }

    /// Passes over an element whose start was just read, with everything inside it.
    mutating func skip(_ element: String) throws(WorkoutFileError) {
        var depth = 1
        while depth > 0, let event = try reader.next() {
            switch event {
            case .start: depth += 1
            case .end: depth -= 1
            case .text: break
            }
        }
    }

    /// `time` (as a file without it) or `distance`; it says how `<workout>`'s durations are
    /// read, so it must come before it, as Zwift and zwo-editor write it.
    mutating func durationType(_ name: String, line: Int, afterWorkout: Bool) throws(WorkoutFileError) {
        let value = try text(of: name)
        switch value?.lowercased() {
        case "distance" where afterWorkout, "time" where afterWorkout:
            throw fail("<\(name)> comes after <workout>: it must come before, as it says how the steps' durations are read", line: line)
        case "distance": byDistance = true
        case "time": byDistance = false
        default:
            throw fail("<\(name)> \"\(value ?? "")\": expected time or distance", line: line)
        }
    }

    mutating func tags() throws(WorkoutFileError) {
        while let event = try nextMarkup() {
            guard case let .start(name, attributes, line) = event else { return }
            if name.lowercased() == "tag", let tag = attribute("name", in: attributes), !tag.isEmpty {
                result.tags.append(tag)
            } else {
                warnings.add("<\(name)> inside <tags> is not a <tag name=\"…\"/>; skipped", line: line)
            }
            try skip(name)
        }
    }

    // MARK: - Steps

    mutating func workout(line: Int) throws(WorkoutFileError) {
        var time = 0.0
        while let event = try nextMarkup() {
            guard case let .start(name, attributes, line) = event else { return }
            let element = name.lowercased()
            if element == "textevent" || element == "textnotification" {
                if let (offset, text) = try textEvent(name, attributes, line: line) { loose.append((offset, text, line)) }
                try skip(name)
                continue
            }
            guard var piece = try self.piece(name, element: element, attributes, line: line).map(measured) else {
                warnings.add("<\(name)> is not a step workout knows (Warmup, SteadyState, IntervalsT, Ramp, FreeRide, MaxEffort, Cooldown); skipped", line: line)
                try skip(name)
                continue
            }
            piece.start = time
            try readPrompts(into: &piece)
            time = piece.end
            pieces.append(piece)
        }
    }

    /// In a distance workout, the piece's steps as distance steps; its text events are then
    /// placed by the steps' expected times.
    func measured(_ piece: Piece) -> Piece {
        guard byDistance else { return piece }
        var piece = piece
        piece.steps = piece.steps.map(ZwiftDistance.step)
        return piece
    }

    /// The text events inside a step's element, up to its end.
    mutating func readPrompts(into piece: inout Piece) throws(WorkoutFileError) {
        while let event = try nextMarkup() {
            guard case let .start(name, attributes, line) = event else { return }
            let element = name.lowercased()
            if element == "textevent" || element == "textnotification" {
                if let (offset, text) = try textEvent(name, attributes, line: line) {
                    place(offset, text, in: &piece, line: line)
                }
            } else {
                warnings.add("<\(name)> inside <\(piece.element)> is not a text event; skipped", line: line)
            }
            try skip(name)
        }
    }

    /// A text event's offset in seconds and its message; nil (with a warning) when it has
    /// neither, or is placed by distance.
    mutating func textEvent(_ name: String, _ attributes: [String: String], line: Int) throws(WorkoutFileError) -> (Double, String)? {
        guard let message = attribute("message", in: attributes) ?? attribute("text", in: attributes),
              !message.trimmingWhitespace().isEmpty else {
            warnings.add("<\(name)> has no message; skipped", line: line)
            return nil
        }
        guard let raw = attribute("timeoffset", in: attributes) else {
            let why = attribute("distoffset", in: attributes) != nil ? "is placed by distance, which a timer cannot follow"
                                                                    : "has no timeoffset"
            warnings.add("<\(name)> \(why); skipped", line: line)
            return nil
        }
        guard let offset = WorkoutFileRules.decimal(raw.trimmingWhitespace()) else {
            throw fail("<\(name)> timeoffset=\"\(raw)\": expected a plain decimal number of seconds, such as 30 or 2.5", line: line)
        }
        return (offset, message.trimmingWhitespace())
    }

    /// Puts a prompt `offset` seconds into the piece on the repetition and step it falls in.
    mutating func place(_ offset: Double, _ text: String, in piece: inout Piece, line: Int) {
        guard offset < piece.period * Double(piece.count) else {
            warnings.add("a text event at \(Number.format(offset)) s is past the end of <\(piece.element)> (\(Number.format(piece.period * Double(piece.count))) s); skipped", line: line)
            return
        }
        let repetition = min(piece.count - 1, Int(offset / piece.period))
        var within = offset - Double(repetition) * piece.period
        for index in piece.steps.indices {
            if within < piece.steps[index].duration || index == piece.steps.count - 1 {
                // Subtracting the steps before leaves float noise (88.058 - 1.058 is not 87).
                let offset = Number.rounded(within, places: 6)
                piece.prompts[repetition][index].append(WorkoutFile.Prompt(offset: offset, text: text))
                return
            }
            within -= piece.steps[index].duration
        }
    }

    /// Text events in `<workout>` itself go to the step playing at their time.
    mutating func placeLoose() {
        for (offset, text, line) in loose {
            // The pieces follow each other: the last one starting at or before the offset.
            var low = 0
            var high = pieces.count
            while low < high {
                let middle = (low + high) / 2
                if pieces[middle].start <= offset { low = middle + 1 } else { high = middle }
            }
            guard low > 0, offset < pieces[low - 1].end, case let index = low - 1 else {
                warnings.add("a text event at \(Number.format(offset)) s is past the end of the workout; skipped", line: line)
                continue
            }
            var piece = pieces[index]
            place(offset - piece.start, text, in: &piece, line: line)
            pieces[index] = piece
        }
    }

    /// Repetitions of an `IntervalsT` with the same prompts stay one repeat; one whose
    /// prompts differ (a "last one!" in the final round) is written out on its own.
    mutating func assemble() throws(WorkoutFileError) {
        placeLoose()
        for piece in pieces {
            var repetition = 0
            while repetition < piece.count {
                let prompts = piece.prompts[repetition]
                var same = 1
                while repetition + same < piece.count, piece.prompts[repetition + same] == prompts { same += 1 }
                var steps = piece.steps
                for index in steps.indices {
                    steps[index].prompts = prompts[index].sorted { $0.offset < $1.offset }
                    if isRun, let power = steps[index].targets[.power] {
                        steps[index].targets[.power] = nil
                        steps[index].targets[.pace] = power
                    }
                }
                if same == 1 || piece.count == 1 {
                    result.parts += steps.map { .step($0) }
                } else {
                    result.parts.append(.repeats(count: same, name: nil, steps: steps))
                }
                repetition += same
            }
        }
        if let line = result.lineOverSegmentLimit() { throw fail(WorkoutFile.tooManySegments, line: line) }
        guard !result.parts.isEmpty else {
            throw fail("<workout> holds no steps (Warmup, SteadyState, IntervalsT, Ramp, FreeRide, MaxEffort, Cooldown)",
                       line: workoutLine)
        }
    }
}

// MARK: - Elements

extension Reading {
    /// Zwift spells attributes inconsistently (`timeoffset`, `TimeOffset`): any case goes.
    func attribute(_ name: String, in attributes: [String: String]) -> String? {
        if let exact = attributes[name] { return exact }
        return attributes.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// A plain decimal (`WorkoutFileRules`): `0x3C`, `1e-300`, `-1` or `inf` is an error
    /// naming the element and attribute.
    func number(_ name: String, in attributes: [String: String], element: String, line: Int) throws(WorkoutFileError) -> Double? {
        guard let raw = attribute(name, in: attributes) else { return nil }
        guard let value = WorkoutFileRules.decimal(raw.trimmingWhitespace()) else {
            throw fail("<\(element)> \(name)=\"\(raw)\": expected a plain decimal number of 0 or more, such as 60 or 0.75", line: line)
        }
        return value
    }

    func duration(_ name: String, in attributes: [String: String], element: String, line: Int) throws(WorkoutFileError) -> Double {
        guard let value = try number(name, in: attributes, element: element, line: line) else {
            throw fail("<\(element)> needs \(name), its length in \(byDistance ? "metres" : "seconds")", line: line)
        }
        if let problem = byDistance ? ZwiftDistance.problem(value) : WorkoutFileRules.durationProblem(value) {
            throw fail("<\(element)> \(name)=\"\(Number.format(value))\": \(problem)", line: line)
        }
        return value
    }

    /// Zwift's fraction of FTP as a percent, without float noise (`0.75449997` → 75.45;
    /// four places, as many as `workout export` writes).
    func percent(_ name: String, in attributes: [String: String], element: String, line: Int) throws(WorkoutFileError) -> Double? {
        guard let fraction = try number(name, in: attributes, element: element, line: line) else { return nil }
        let percent = Number.rounded(fraction * 100, places: 4)
        // A run's power is a fraction of threshold pace's speed: 0 would be standing still.
        if isRun, percent <= 0, let (range, _) = WorkoutFileRules.range(.pace) {
            throw fail("<\(element)> \(name)=\"\(Number.format(fraction))\": expected above 0 and at most "
                       + "\(Number.format(range.upperBound / 100)) (in a run, a fraction of threshold pace: 1 is threshold pace)", line: line)
        }
        if let (range, _) = WorkoutFileRules.range(isRun ? .pace : .power), !range.contains(percent) {
            let unit = isRun ? "in a run, a fraction of threshold pace: 1 is threshold pace" : "a fraction of FTP: 1 is 100 %"
            throw fail("<\(element)> \(name)=\"\(Number.format(fraction))\": expected \(Number.format(range.lowerBound / 100)) "
                       + "to \(Number.format(range.upperBound / 100)) (\(unit))", line: line)
        }
        return percent
    }

    func rpm(_ name: String, in attributes: [String: String], element: String, line: Int) throws(WorkoutFileError) -> Double? {
        guard let value = try number(name, in: attributes, element: element, line: line) else { return nil }
        if let problem = WorkoutFileRules.targetProblem(.cadence, value) {
            throw fail("<\(element)> \(name)=\"\(Number.format(value))\": \(problem)", line: line)
        }
        return value
    }

    /// A number, or a range when the two ends differ (a ramp when `ramp`).
    func target(low: Double?, high: Double?, single: Double?) -> Targets.Value? {
        if let low, let high { return low == high ? .number(low) : .range(low: low, high: high) }
        return (single ?? low ?? high).map { .number($0) }
    }

    func cadence(_ attributes: [String: String], element: String, line: Int, resting: Bool = false) throws(WorkoutFileError) -> Targets.Value? {
        if resting { return try rpm("CadenceResting", in: attributes, element: element, line: line).map { .number($0) } }
        return target(low: try rpm("CadenceLow", in: attributes, element: element, line: line),
                      high: try rpm("CadenceHigh", in: attributes, element: element, line: line),
                      single: try rpm("Cadence", in: attributes, element: element, line: line))
    }

    /// The step (or steps) an element of `<workout>` stands for; nil for an element that is
    /// not a step.
    mutating func piece(_ name: String, element: String, _ attributes: [String: String], line: Int) throws(WorkoutFileError) -> Piece? {
        func step(_ kind: String, _ defaultName: String, _ duration: Double, _ targets: Targets,
                  nameKey: String = "Name", kindKey: String = "Kind") -> WorkoutFile.Step {
            let kind = attribute(kindKey, in: attributes).flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 } ?? kind
            let named = attribute(nameKey, in: attributes).flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
            return WorkoutFile.Step(kind: kind, name: named ?? Routine.defaultName(defaultName), duration: duration,
                                    targets: targets, line: line)
        }
        // A step's own `Text` shows as it starts.
        let text = attribute("Text", in: attributes)?.trimmingWhitespace()
        let prompts = text.flatMap { $0.isEmpty ? nil : [WorkoutFile.Prompt(offset: 0, text: $0)] } ?? []
        func single(_ step: WorkoutFile.Step) -> Piece {
            Piece(steps: [step], count: 1, start: 0, element: name, line: line, prompts: [[prompts]])
        }
        var targets = Targets()
        targets[.cadence] = try cadence(attributes, element: name, line: line)
        if element != "intervalst" { targets[.zone] = zone(name, attributes, line: line) }
        switch element {
        case "warmup", "cooldown", "ramp", "steadystate":
            let duration = try self.duration("Duration", in: attributes, element: name, line: line)
            let low = try percent("PowerLow", in: attributes, element: name, line: line)
            let high = try percent("PowerHigh", in: attributes, element: name, line: line)
            targets[.power] = target(low: low, high: high, single: try percent("Power", in: attributes, element: name, line: line))
            if element != "steadystate", case .range? = targets[.power] { targets[.ramp] = .flag }
            let (kind, title) = switch element {
            case "warmup": ("warmup", "warmup")
            case "cooldown": ("cooldown", "cooldown")
            case "ramp": ("work", "ramp")
            default: ("work", "work")
            }
            return single(step(kind, title, duration, targets))
        case "freeride":
            // No target is what a free ride is: its name says it, and info stays empty.
            let duration = try self.duration("Duration", in: attributes, element: name, line: line)
            return single(step("work", "free ride", duration, targets))
        case "maxeffort":
            let duration = try self.duration("Duration", in: attributes, element: name, line: line)
            targets[.maxEffort] = .flag
            return single(step("work", "max effort", duration, targets))
        case "intervalst":
            return try intervals(name, attributes, line: line, step: step)
        default:
            return nil
        }
    }

    /// `Zone="2"`, the power zone Zwift shows for a step, as `"Z2"`; anything but a whole
    /// number from 1 to 10 is a warning, and skipped.
    mutating func zone(_ name: String, _ attributes: [String: String], line: Int) -> Targets.Value? {
        guard let raw = attribute("Zone", in: attributes)?.trimmingWhitespace() else { return nil }
        guard let number = WorkoutFileRules.decimal(raw), number.rounded() == number, ZwiftZone.numbers.contains(number) else {
            warnings.add("<\(name)> Zone=\"\(raw)\": expected a zone from 1 to 10; skipped", line: line)
            return nil
        }
        return .text(ZwiftZone.text(Int(number)))
    }

    /// `IntervalsT`: `Repeat` times `OnDuration` at `OnPower`, then `OffDuration` at `OffPower`.
    func intervals(_ name: String, _ attributes: [String: String], line: Int,
                   step: (String, String, Double, Targets, String, String) -> WorkoutFile.Step) throws(WorkoutFileError) -> Piece {
        guard let repeats = try number("Repeat", in: attributes, element: name, line: line) else {
            throw fail("<\(name)> needs Repeat, how many times the pair of intervals runs", line: line)
        }
        guard repeats >= 1, repeats <= 10_000, repeats.rounded() == repeats else {
            throw fail("<\(name)> Repeat=\"\(Number.format(repeats))\": expected a whole number from 1 to 10000", line: line)
        }
        var on = Targets()
        var off = Targets()
        on[.power] = target(low: try percent("PowerOnLow", in: attributes, element: name, line: line),
                            high: try percent("PowerOnHigh", in: attributes, element: name, line: line),
                            single: try percent("OnPower", in: attributes, element: name, line: line))
        off[.power] = target(low: try percent("PowerOffLow", in: attributes, element: name, line: line),
                             high: try percent("PowerOffHigh", in: attributes, element: name, line: line),
                             single: try percent("OffPower", in: attributes, element: name, line: line))
        on[.cadence] = try cadence(attributes, element: name, line: line)
        off[.cadence] = try cadence(attributes, element: name, line: line, resting: true)
        let steps = [
            step("work", "work", try duration("OnDuration", in: attributes, element: name, line: line), on, "OnName", "OnKind"),
            step("rest", "rest", try duration("OffDuration", in: attributes, element: name, line: line), off, "OffName", "OffKind"),
        ]
        let count = Int(repeats)
        return Piece(steps: steps, count: count, start: 0, element: name, line: line,
                     prompts: Array(repeating: [[], []], count: count))
    }
}
