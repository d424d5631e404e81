import Foundation
import IntervalEngine
import WorkoutValues

/// Reads intervals.icu workout text: steps `- [text] DURATION [targets]`, section headers
/// (`Main set 5x` repeats the steps under it, up to a blank line), and free text, whose
/// first line before any step is the workout's name and the rest its description.
///
/// Targets go into `info` (see `Targets`): `75%` or `95-105%` of FTP, `250w`, `Z2`,
/// `70% HR`, `95% LTHR`, `Z2 HR`, `80% Pace`, `5:00/km Pace`, `Z2 Pace`, `ramp 50-75%`,
/// `freeride`, `90rpm`, `60% MMP 5m` (kept as text: see `Targets`). `press lap` makes the
/// step open, ended by the athlete; its duration, if any, is what it is expected to take.
/// The step's text becomes the segment's name; a word before a colon
/// (`Rest: Walk`) or a leading `Rest`, `Recovery`, `Warm up` or `Cooldown` gives its kind,
/// and so does a `Warmup` or `Cooldown` section; else it is work. Timed prompts follow the
/// step, each after `<!>`: `<!> 30^Halfway` shows "Halfway" 30 seconds in.
public enum IntervalsReader {
    public static func read(_ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        var reading = TextReading(file: file)
        var number = 0
        for raw in TextLines.lines(bytes) {
            number += 1
            try reading.line(raw.trimmingWhitespace(), at: number)
        }
        try reading.finish(at: number)
        return (reading.result, reading.warnings.lines)
    }
}

private struct TextReading {
    let file: String
    var warnings: WorkoutFileWarnings
    var result = WorkoutFile()
    /// Text seen on its own line: a header if steps follow, else free text.
    var pending: (text: String, line: Int)?
    var header: Header?
    var repeated: [WorkoutFile.Step] = []
    var freeText: [String] = []
    var sawStep = false

    struct Header {
        var name: String?
        var count: Int?
        var kind: String?
        var line: Int
        /// A count of the header's shape (`20000x`, `0x`) outside the repeats' range: why.
        var badCount: String?
    }

    init(file: String) {
        self.file = file
        warnings = WorkoutFileWarnings(file: file)
    }

    func fail(_ message: String, line: Int) -> WorkoutFileError {
        WorkoutFileError(file: file, line: line, message)
    }

    mutating func line(_ text: String, at number: Int) throws(WorkoutFileError) {
        if text.isEmpty {
            // A repeat's header may stand apart from its steps; other text before a blank
            // line is free text, and the blank line ends the section.
            if let pending, case let header = TextReading.header(pending.text, line: pending.line),
               header.count != nil || header.badCount != nil { return }
            takePendingAsText()
            try endSection()
        } else if text.hasPrefix("-") {
            if let pending {
                try endSection()
                header = TextReading.header(pending.text, line: pending.line)
                self.pending = nil
                if let header, let badCount = header.badCount { throw fail(badCount, line: header.line) }
            }
            let step = try self.step(String(text.dropFirst()).trimmingWhitespace(), line: number)
            sawStep = true
            if header?.count != nil {
                repeated.append(step)
            } else {
                result.parts.append(.step(step))
            }
        } else {
            takePendingAsText()
            pending = (text, number)
        }
    }

    mutating func takePendingAsText() {
        guard let pending else { return }
        if !sawStep && result.name == nil && freeText.isEmpty {
            result.name = pending.text
        } else {
            freeText.append(pending.text)
        }
        self.pending = nil
    }

    mutating func endSection() throws(WorkoutFileError) {
        defer {
            header = nil
            repeated = []
        }
        guard let header, let count = header.count else { return }
        guard !repeated.isEmpty else {
            throw fail("the repeat \(count)x has no steps under it (expected lines such as \"- 30s 120%\")", line: header.line)
        }
        result.parts.append(.repeats(count: count, name: header.name, steps: repeated))
    }

    mutating func finish(at line: Int) throws(WorkoutFileError) {
        takePendingAsText()
        try endSection()
        if !freeText.isEmpty { result.description = freeText.joined(separator: "\n") }
        if let line = result.lineOverSegmentLimit() { throw fail(WorkoutFile.tooManySegments, line: line) }
        guard !result.parts.isEmpty else {
            throw fail("no steps found (expected lines such as \"- 10m 60%\")", line: max(1, line))
        }
    }

    /// `Main set 5x`: a name, a repeat count, and for `Warmup` or `Cooldown` the kind of
    /// the steps under it.
    static func header(_ text: String, line: Int) -> Header {
        var words = text.split(separator: " ").map(String.init)
        var count: Int?
        var badCount: String?
        // Digits only: Int("+5") would take a sign. A count out of range is not a name
        // (its steps would be imported once, silently): the reader refuses it.
        if let last = words.last?.lowercased(), last.hasSuffix("x"), case let digits = last.dropLast(),
           !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            if digits.count <= 5, let number = Int(digits), WorkoutFileRules.repeats.contains(number) {
                count = number
                words.removeLast()
            } else {
                badCount = "the repeat \(digits)x: expected \(WorkoutFileRules.repeats.lowerBound) to "
                    + "\(WorkoutFileRules.repeats.upperBound) times"
            }
        }
        let name = IntervalsText.trim(words.joined(separator: " "), ":")
        let squeezed = name.lowercased().filter { $0.isLetter }
        let kind = ["warmup": "warmup", "cooldown": "cooldown"][squeezed]
        return Header(name: name.isEmpty ? nil : name, count: count, kind: kind, line: line, badCount: badCount)
    }

    // MARK: - A step

    mutating func step(_ text: String, line: Int) throws(WorkoutFileError) -> WorkoutFile.Step {
        var parts = text.components(separatedBy: "<!>")
        let body = parts.removeFirst()
        var tokens = TextReading.tokens(body)
        let open = TextReading.takePressLap(&tokens)
        // The duration after `MMP` is the mean maximal power's, not the step's.
        let timeAt = tokens.indices.first { IntervalsText.duration(tokens[$0]) != nil && ($0 == 0 || tokens[$0 - 1].lowercased() != "mmp") }
        var duration = OpenEnd.standardExpect
        // A runner's or rower's step: `- 400mtr 4:00/km Pace` ends on the distance.
        let distanceAt = timeAt == nil ? tokens.indices.first { IntervalsText.distance(tokens[$0]) != nil } : nil
        let at = timeAt ?? distanceAt
        if let distanceAt, let metres = IntervalsText.distance(tokens[distanceAt]) {
            duration = DistanceText.expectedSeconds(metres, pace: nil)
        } else if let at {
            duration = IntervalsText.duration(tokens[at])!
            if let problem = WorkoutFileRules.durationProblem(duration) {
                throw fail("\(tokens[at]): \(problem)", line: line)
            }
        } else if !open {
            if let distance = tokens.first(where: IntervalsText.isDistance) {
                throw fail("\(distance): expected a distance above 0 and at most 100 km, such as 400mtr, 1km or 2mi", line: line)
            }
            throw fail("expected a duration such as 10m, 30s, 1m30 or 5' (or press lap) in this step", line: line)
        }
        // Without a duration the targets and text follow the dash: `- Press lap 95%`.
        var rest = at.map { Array(tokens[($0 + 1)...]) } ?? tokens
        let targets = try self.targets(&rest, line: line)
        var words = at.map { tokens[..<$0].joined(separator: " ") } ?? ""
        if words.isEmpty {
            words = IntervalsText.trim(rest.joined(separator: " "), ",;-")
        }
        let header = header
        var kind = header?.kind ?? "work"
        var name = words
        if let (named, left) = IntervalsText.kind(of: words) {
            kind = named
            name = left
        }
        if name.isEmpty { name = Routine.defaultName(kind) }
        var step = WorkoutFile.Step(kind: kind, name: name, duration: duration, targets: targets, open: open, line: line)
        if let distanceAt, let metres = IntervalsText.distance(tokens[distanceAt]) {
            step.distance = metres
            if case .text(let text)? = targets[.pace] { step.duration = DistanceText.expectedSeconds(metres, pace: PaceText(text)) }
        }
        for part in parts {
            prompt(part.trimmingWhitespace(), into: &step, line: line)
        }
        return step
    }

    /// `30^Halfway` (at 30 s; `1m^…` works too), or plain text at the start.
    mutating func prompt(_ text: String, into step: inout WorkoutFile.Step, line: Int) {
        var offset = 0.0
        var message = text
        if let caret = text.firstIndex(of: "^") {
            let at = String(text[..<caret]).trimmingWhitespace()
            guard let seconds = IntervalsText.decimal(at) ?? IntervalsText.duration(at) else {
                warnings.add("the prompt \"\(text)\": expected seconds before ^ (30^Halfway); skipped", line: line)
                return
            }
            offset = seconds
            message = String(text[text.index(after: caret)...]).trimmingWhitespace()
        }
        guard !message.isEmpty else { return }
        guard offset < step.duration else {
            warnings.add("the prompt \"\(message)\" at \(Number.format(offset)) s is past the end of its \(IntervalsText.format(step.duration)) step; skipped", line: line)
            return
        }
        step.prompts.append(WorkoutFile.Prompt(offset: offset, text: message))
    }

    /// Takes `press lap` (any case, anywhere in the step) out of the step's words: the step
    /// is open, ended by the athlete's lap button (`done` here); a duration beside it is
    /// how long it is expected to take.
    static func takePressLap(_ tokens: inout [String]) -> Bool {
        guard let at = tokens.indices.dropLast().first(where: {
            tokens[$0].lowercased() == "press" && tokens[$0 + 1].lowercased() == "lap"
        }) else { return false }
        tokens.removeSubrange(at...(at + 1))
        return true
    }

    /// Words, with `200 - 240w` joined into one range, `200-240w`.
    static func tokens(_ text: String) -> [String] {
        func endsAmount(_ token: String) -> Bool {
            guard let last = token.lowercased().last else { return false }
            return last.isNumber || last == "%" || last == "w"
        }
        var tokens: [String] = []
        for word in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            let startsNumber = word.first?.isNumber == true
            if startsNumber, tokens.count >= 2, tokens[tokens.count - 1] == "-", endsAmount(tokens[tokens.count - 2]) {
                tokens.removeLast()
                tokens[tokens.count - 1] += "-" + word
            } else if word.count > 1, word.hasPrefix("-"), word.dropFirst().first?.isNumber == true,
                      let previous = tokens.last, endsAmount(previous) {
                tokens[tokens.count - 1] += word
            } else {
                tokens.append(word)
            }
        }
        return tokens
    }
}

// MARK: - Targets

extension TextReading {
    /// Reads the targets after the duration, taking them out of `tokens`; what is left is
    /// text. A target outside its range (`100000%`) is an error naming the line.
    mutating func targets(_ tokens: inout [String], line: Int) throws(WorkoutFileError) -> Targets {
        var targets = Targets()
        var left: [String] = []
        var ramp = false
        var index = 0
        func next() -> String? { index + 1 < tokens.count ? tokens[index + 1].lowercased() : nil }
        while index < tokens.count {
            let token = tokens[index]
            let lower = token.lowercased()
            var taken: (Targets.Key, Targets.Value)?
            if lower == "ramp" {
                ramp = true
            } else if lower == "freeride" {
                targets[.freeride] = .flag
            } else if lower.hasSuffix("rpm"), let value = TextReading.amount(lower, unit: "rpm") {
                taken = (.cadence, value)
            } else if next() == "rpm", let value = TextReading.amount(lower) {
                taken = (.cadence, value)
                index += 1
            } else if lower.hasSuffix("%"), let value = TextReading.amount(lower, unit: "%") {
                switch next() {
                case "hr": taken = (.hr, value); index += 1
                case "lthr": taken = (.lthr, value); index += 1
                case "pace": taken = (.pace, value); index += 1
                case "ftp": taken = (.power, value); index += 1
                case "mmp":
                    // `60% MMP 5m`: a percent of the best power for 5 minutes, kept as written.
                    var text = "\(token) MMP"
                    index += 1
                    if let window = next(), IntervalsText.duration(window) != nil {
                        text += " " + tokens[index + 1]
                        index += 1
                    }
                    if let problem = WorkoutFileRules.targetProblem(.power, value) {
                        throw fail("\(token): \(problem)", line: line)
                    }
                    taken = (.mmp, .text(text))
                default: taken = (.power, value)
                }
            } else if lower.hasSuffix("w"), let value = TextReading.amount(lower, unit: "w") {
                taken = (.watts, value)
            } else if TextReading.isZone(lower) {
                switch next() {
                case "hr": taken = (.hrZone, .text(token.uppercased())); index += 1
                case "pace": taken = (.paceZone, .text(token.uppercased())); index += 1
                default: taken = (.zone, .text(token.uppercased()))
                }
            } else if next() == "pace", lower.first?.isNumber == true, lower.contains(":") {
                taken = (.pace, .text(token))
                index += 1
            } else if TextReading.looksLikeAmount(lower) {
                throw fail("\(token): expected a plain decimal number or a range such as 95-105%", line: line)
            } else {
                left.append(token)
            }
            if let (key, value) = taken {
                if let problem = WorkoutFileRules.targetProblem(key, value) {
                    throw fail("\(token): \(problem)", line: line)
                }
                if targets.has(key) {
                    warnings.add("a second \(key.rawValue) target (\(token)) in one step; the first is kept", line: line)
                } else {
                    targets[key] = value
                    if ramp, case .range = value, key != .cadence { targets[.ramp] = .flag }
                }
            }
            index += 1
        }
        tokens = left
        return targets
    }

    /// `75`, `95-105`, `95%-105%` (with `unit` `%`): a number or a range.
    static func amount(_ text: String, unit: String = "") -> Targets.Value? {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { end in
            unit.isEmpty || !end.hasSuffix(unit) ? String(end) : String(end.dropLast(unit.count))
        }
        switch ends.count {
        case 1: return IntervalsText.decimal(ends[0]).map { .number($0) }
        case 2:
            guard let low = IntervalsText.decimal(ends[0]), let high = IntervalsText.decimal(ends[1]) else { return nil }
            return .range(low: low, high: high)
        default: return nil
        }
    }

    /// `400…0%`, `1.2.3w`: the shape of a target whose numbers are not plain decimals
    /// (or too big to be finite), which is an error rather than a step's text.
    static func looksLikeAmount(_ text: String) -> Bool {
        guard text.first?.isASCII == true, text.first?.isNumber == true,
              let unit = ["%", "w", "rpm"].first(where: text.hasSuffix) else { return false }
        return text.dropLast(unit.count).allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
    }

    /// `z2`, `z2-z3`, and custom zones `cz1`.
    static func isZone(_ text: String) -> Bool {
        text.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { part in
            let digits = part.hasPrefix("cz") ? part.dropFirst(2) : part.hasPrefix("z") ? part.dropFirst() : ""
            return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }
}
