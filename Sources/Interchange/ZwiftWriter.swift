import IntervalEngine
import WorkoutValues

/// Writes a Zwift workout file. A repeated work/rest pair with power targets becomes an
/// `IntervalsT`; any other repeat is written out round by round (Zwift has no general
/// repeat). A step with a power ramp is a `Warmup`, `Cooldown` or `Ramp`, one with a power
/// target a `SteadyState` (a warm-up or cool-down at one power stays a `Warmup` or
/// `Cooldown`), one without a `FreeRide`. Prompts become text events.
///
/// Zwift's elements do not name segments, nor know kinds such as prep or rest outside an
/// `IntervalsT`: where the element alone would read back differently, `Name` and `Kind`
/// attributes say it (`OnName`, `OffName`, `OnKind`, `OffKind` on `IntervalsT`), which
/// `workout import` reads and other tools pass over.
///
/// A workout with pace and no power targets, or of distance steps only, is a run
/// (`sportType` run, power the fraction of threshold pace); distance steps only are written
/// in metres (`durationType` distance, `ZwiftDistance`), a mix of them and timed steps as
/// the time each is expected to take, with a warning: the measure is the whole file's.
public enum ZwiftWriter {
    public static func text(_ workout: WorkoutFile) -> (text: String, dropped: [String]) {
        var writer = Writing()
        let steps = workout.unrolled
        // A run workout (Zwift's sportType run) gives pace where a ride gives power.
        writer.measure = ZwiftDistance.measure(steps)
        writer.isRun = writer.measure == .distance
            || (steps.contains { if case .number? = $0.targets[.pace] { true } else { false } }
                && !steps.contains { $0.targets.has(.power) })
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, "<workout_file>"]
        if let author = workout.author { lines.append("    <author>\(XMLText.escape(author))</author>") }
        lines.append("    <name>\(XMLText.escape(workout.name ?? "Workout"))</name>")
        if let description = workout.description { lines.append("    <description>\(XMLText.escape(description))</description>") }
        lines.append("    <sportType>\(writer.isRun ? "run" : "bike")</sportType>")
        // A ride has always been timed: only a run says how it is measured.
        if writer.isRun { lines.append("    <durationType>\(writer.measure == .distance ? "distance" : "time")</durationType>") }
        if !workout.tags.isEmpty {
            lines.append("    <tags>")
            lines += workout.tags.map { "        <tag name=\"\(XMLText.escape($0))\"/>" }
            lines.append("    </tags>")
        }
        lines.append("    <workout>")
        for part in workout.parts {
            switch part {
            case .step(let step):
                lines += writer.element(step)
            case let .repeats(count, _, steps):
                if let intervals = writer.intervals(count, steps) {
                    lines += intervals
                } else {
                    for _ in 0..<count { for step in steps { lines += writer.element(step) } }
                }
            }
        }
        lines += ["    </workout>", "</workout_file>"]
        return (lines.joined(separator: "\n") + "\n", writer.dropped())
    }
}

private struct Writing {
    var isRun = false
    var measure = ZwiftDistance.Measure.time
    /// Distance steps whose cues could not be written (Zwift places them by distance).
    var uncuedSteps = 0
    /// Targets Zwift has no attribute for, with how many steps had them.
    var unwritten: [Targets.Key: Int] = [:]

    func dropped() -> [String] {
        var dropped: [String] = []
        if case .mixed(let distanceSteps) = measure { dropped.append(ZwiftDistance.mixedWarning(distanceSteps)) }
        if uncuedSteps > 0 { dropped.append(ZwiftDistance.cuesWarning(uncuedSteps)) }
        guard !unwritten.isEmpty else { return dropped }
        return dropped + ["targets Zwift has no place for: " + Targets.Key.allCases.compactMap { key in
            unwritten[key].map { "\(key.rawValue) (\(RoutineExport.plural($0, "step")))" }
        }.joined(separator: ", ")]
    }

    /// A `Duration` attribute's value: metres in a distance workout, else seconds.
    func length(_ step: WorkoutFile.Step) -> String {
        Number.format(measure == .distance ? step.distance ?? step.duration : step.duration)
    }

    /// The step's prompts as they can be written: none in a distance workout.
    mutating func prompts(_ step: WorkoutFile.Step, times: Int = 1) -> [WorkoutFile.Prompt] {
        guard measure == .distance else { return step.prompts }
        if !step.prompts.isEmpty { uncuedSteps += times }
        return []
    }

    /// The target written as Zwift's power: power, or pace in a run workout.
    var powerKey: Targets.Key { isRun ? .pace : .power }

    func fraction(_ percent: Double) -> String { Number.format(Number.rounded(percent / 100, places: 6)) }

    mutating func note(_ targets: Targets, written: Set<Targets.Key>) {
        for (key, _) in targets.ordered where !written.contains(key) {
            unwritten[key, default: 0] += 1
        }
    }

    func cadence(_ targets: Targets) -> String {
        switch targets[.cadence] {
        case .number(let rpm)?: " Cadence=\"\(Number.format(rpm))\""
        case let .range(low, high)?: " CadenceLow=\"\(Number.format(low))\" CadenceHigh=\"\(Number.format(high))\""
        default: ""
        }
    }

    /// One step as one element, with its prompts as text events inside.
    mutating func element(_ step: WorkoutFile.Step) -> [String] {
        let targets = step.targets
        var written: Set<Targets.Key> = [.cadence]
        let element: String
        var attributes = "Duration=\"\(length(step))\""
        let power = targets[powerKey].flatMap { value -> Targets.Value? in if case .text = value { nil } else { value } }
        if targets.has(.maxEffort) {
            element = "MaxEffort"
            written.insert(.maxEffort)
        } else if let power, let (low, high) = targets.bounds(powerKey) {
            written.insert(powerKey)
            let ramp = targets.has(.ramp) && low != high
            if ramp { written.insert(.ramp) }
            // A warm-up or cool-down at one power is still a Warmup or Cooldown; at a
            // range without a ramp it is a SteadyState, which reads back as a range.
            switch (step.kind, ramp, low == high) {
            case ("warmup", true, _), ("warmup", _, true): element = "Warmup"
            case ("cooldown", true, _), ("cooldown", _, true): element = "Cooldown"
            case (_, true, _): element = "Ramp"
            default: element = "SteadyState"
            }
            if element == "SteadyState", case .number = power {
                attributes += " Power=\"\(fraction(low))\""
            } else {
                attributes += " PowerLow=\"\(fraction(low))\" PowerHigh=\"\(fraction(high))\""
            }
        } else {
            element = "FreeRide"
            written.insert(.freeride)
        }
        if let zone = ZwiftZone.number(targets[.zone]) {
            attributes += " Zone=\"\(zone)\""
            written.insert(.zone)
        }
        note(targets, written: written)
        attributes += cadence(targets)
        attributes += labels(step, implied: Writing.implied(element))
        let prompts = self.prompts(step)
        guard !prompts.isEmpty else { return ["        <\(element) \(attributes)/>"] }
        return ["        <\(element) \(attributes)>"]
            + prompts.map { textEvent(at: $0.offset, $0.text) }
            + ["        </\(element)>"]
    }

    /// What `workout import` makes of an element without `Name` or `Kind`.
    static func implied(_ element: String) -> (kind: String, name: String) {
        switch element {
        case "Warmup": ("warmup", "Warmup")
        case "Cooldown": ("cooldown", "Cooldown")
        case "Ramp": ("work", "Ramp")
        case "FreeRide": ("work", "Free ride")
        case "MaxEffort": ("work", "Max effort")
        default: ("work", "Work")
        }
    }

    func labels(_ step: WorkoutFile.Step, implied: (kind: String, name: String), prefix: String = "") -> String {
        var text = ""
        if step.name != implied.name { text += " \(prefix)Name=\"\(XMLText.escape(step.name))\"" }
        if step.kind != implied.kind { text += " \(prefix)Kind=\"\(XMLText.escape(step.kind))\"" }
        return text
    }

    func textEvent(at offset: Double, _ text: String) -> String {
        "            <textevent timeoffset=\"\(Number.format(offset))\" message=\"\(XMLText.escape(text))\"/>"
    }

    /// `IntervalsT` for a repeated pair whose targets it can hold: power (a number or a
    /// range, no ramp) and cadence as a number; nil otherwise.
    mutating func intervals(_ count: Int, _ steps: [WorkoutFile.Step]) -> [String]? {
        guard steps.count == 2 else { return nil }
        let (on, off) = (steps[0], steps[1])
        let allowed: Set<Targets.Key> = [powerKey, .cadence]
        for step in steps {
            guard step.targets.has(powerKey), !step.targets.has(.ramp),
                  step.targets.ordered.allSatisfy({ allowed.contains($0.key) }) else { return nil }
            if case .text? = step.targets[powerKey] { return nil }
            if case .range? = step.targets[.cadence] { return nil }
        }
        var attributes = "Repeat=\"\(count)\" OnDuration=\"\(length(on))\" OffDuration=\"\(length(off))\""
        for (step, side) in [(on, "On"), (off, "Off")] {
            switch step.targets[powerKey] {
            case .number(let percent)?: attributes += " \(side)Power=\"\(fraction(percent))\""
            case let .range(low, high)?: attributes += " Power\(side)Low=\"\(fraction(low))\" Power\(side)High=\"\(fraction(high))\""
            default: break
            }
        }
        if case .number(let rpm)? = on.targets[.cadence] { attributes += " Cadence=\"\(Number.format(rpm))\"" }
        if case .number(let rpm)? = off.targets[.cadence] { attributes += " CadenceResting=\"\(Number.format(rpm))\"" }
        attributes += labels(on, implied: ("work", "Work"), prefix: "On")
        attributes += labels(off, implied: ("rest", "Rest"), prefix: "Off")
        // Text events in an IntervalsT count from its start, across the repetitions.
        let period = on.duration + off.duration
        var events: [String] = []
        let (onPrompts, offPrompts) = (prompts(on, times: count), prompts(off, times: count))
        for repetition in 0..<count {
            let start = Double(repetition) * period
            events += onPrompts.map { textEvent(at: start + $0.offset, $0.text) }
            events += offPrompts.map { textEvent(at: start + on.duration + $0.offset, $0.text) }
        }
        guard !events.isEmpty else { return ["        <IntervalsT \(attributes)/>"] }
        return ["        <IntervalsT \(attributes)>"] + events + ["        </IntervalsT>"]
    }
}

/// Zwift's `Zone="2"` and the `zone = "Z2"` it is kept as, for its reader and writer.
enum ZwiftZone {
    static let numbers: ClosedRange<Double> = 1...10

    static func text(_ number: Int) -> String { "Z\(number)" }

    /// The number of a single zone (`"Z2"`, any case) Zwift can hold; nil for others.
    static func number(_ value: Targets.Value?) -> Int? {
        guard case .text(let text)? = value, text.count > 1, text.first?.lowercased() == "z",
              text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text.dropFirst()),
              numbers.contains(Double(number)) else { return nil }
        return number
    }
}
