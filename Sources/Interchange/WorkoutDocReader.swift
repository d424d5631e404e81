import IntervalEngine
import WorkoutValues

/// Reads an intervals.icu event's `workout_doc`, the structured workout the calendar keeps
/// for a planned workout (what `workout run today` runs): steps with `duration` in seconds,
/// `text`, `warmup`/`cooldown`, `intensity`, `until_lap_press`, `freeride`, `maxeffort`,
/// `ramp`, and targets `power`, `hr`, `pace` and `cadence`, each `{ value | start, end,
/// units }`; a step with `reps` repeats its `steps`, which may themselves repeat. Read
/// rather than the event's ZWO, which drops heart-rate, pace and cadence targets.
///
/// Targets go into `info` as intervals.icu's text does (`IntervalsReader`, `Targets`):
/// `%ftp` is `power`, `w` is `watts`, `power_zone`/`hr_zone`/`pace_zone` are `"Z2"`,
/// `%hr` is `hr`, `%lthr` is `lthr`, `%pace` is `pace`, `%mmp` is `mmp`. With
/// `resolve=true` the service adds the athlete's own numbers (`_power` in watts, `_hr` in
/// beats a minute), kept as `watts` and `bpm` beside the percentages. A repeat inside a
/// repeat is written out in full inside the outer one: a routine's rounds hold steps.
public enum WorkoutDocReader {
    /// `place` names the event in messages (`intervals.icu event 42`).
    public static func read(_ doc: JSONValue, name: String?, place: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
        var reading = DocReading(place: place)
        var file = WorkoutFile()
        file.name = name
        if case .string(let description)? = doc["description"], !description.isEmpty { file.description = description }
        guard case .array(let steps)? = doc["steps"], !steps.isEmpty else {
            throw WorkoutFileError(file: place, line: 0, "the planned workout has no steps (a workout_doc with \"steps\")")
        }
        for (index, step) in steps.enumerated() {
            if let part = try reading.part(step, path: "step \(index + 1)") { file.parts.append(part) }
        }
        guard !file.parts.isEmpty else {
            throw WorkoutFileError(file: place, line: 0, "the planned workout has no step with a duration")
        }
        return (file, reading.warnings)
    }
}

private struct DocReading {
    let place: String
    var warnings: [String] = []

    func fail(_ path: String, _ message: String) -> WorkoutFileError {
        WorkoutFileError(file: place, line: 0, "\(path): \(message)")
    }

    mutating func warn(_ path: String, _ message: String) {
        warnings.append(VisibleText.escape("\(place): \(path): \(message)"))
    }

    mutating func part(_ json: JSONValue, path: String) throws(WorkoutFileError) -> WorkoutFile.Part? {
        guard case .object = json else { throw fail(path, "a step is a JSON object") }
        if json["reps"] != nil || json["steps"] != nil {
            guard let count = whole(json["reps"]), (1...10_000).contains(count) else {
                throw fail(path, "\"reps\" must be a whole number from 1 to 10000")
            }
            let steps = try flattened(json, path: path)
            guard !steps.isEmpty else { throw fail(path, "a repeat without steps") }
            return .repeats(count: count, name: text(json["text"]), steps: steps)
        }
        return try step(json, path: path).map(WorkoutFile.Part.step)
    }

    /// A repeat's steps, a repeat among them written out `reps` times.
    mutating func flattened(_ json: JSONValue, path: String) throws(WorkoutFileError) -> [WorkoutFile.Step] {
        guard case .array(let children)? = json["steps"] else { throw fail(path, "\"steps\" must be a list of steps") }
        var steps: [WorkoutFile.Step] = []
        for (index, child) in children.enumerated() {
            let childPath = "\(path).\(index + 1)"
            guard case .object = child else { throw fail(childPath, "a step is a JSON object") }
            if child["reps"] != nil || child["steps"] != nil {
                guard let count = whole(child["reps"]), (1...10_000).contains(count) else {
                    throw fail(childPath, "\"reps\" must be a whole number from 1 to 10000")
                }
                let inner = try flattened(child, path: childPath)
                guard inner.count * count <= 10_000 else { throw fail(childPath, "more than 10000 steps once repeated") }
                for _ in 0..<count { steps += inner }
            } else if let step = try step(child, path: childPath) {
                steps.append(step)
            }
        }
        return steps
    }

    /// A step, or nil for one that holds only text (a note between steps).
    mutating func step(_ json: JSONValue, path: String) throws(WorkoutFileError) -> WorkoutFile.Step? {
        let open = json["until_lap_press"] == .bool(true)
        var duration = number(json["duration"])
        if let given = duration, !(given > 0 && given <= 86_400) {
            throw fail(path, "\"duration\" must be seconds from 1 to 86400, got \(Number.format(given))")
        }
        if duration == nil {
            if open {
                duration = OpenEnd.standardExpect
            } else if json["distance"] != nil {
                throw fail(path, "a step measured in distance alone: workout counts time (give the step a duration)")
            } else if json["text"] != nil {
                warn(path, "a step of text alone, left out")
                return nil
            } else {
                throw fail(path, "a step without a duration")
            }
        }
        let name = text(json["text"]) ?? ""
        return WorkoutFile.Step(kind: kind(json), name: name, duration: duration!, targets: try targets(json, path: path),
                                open: open)
    }

    func kind(_ json: JSONValue) -> String {
        if json["warmup"] == .bool(true) { return "warmup" }
        if json["cooldown"] == .bool(true) { return "cooldown" }
        switch json["intensity"] {
        case .string("rest")?, .string("recovery")?: return "rest"
        case .string("warmup")?: return "warmup"
        case .string("cooldown")?: return "cooldown"
        default: return "work"
        }
    }

    mutating func targets(_ json: JSONValue, path: String) throws(WorkoutFileError) -> Targets {
        var targets = Targets()
        let ramp = json["ramp"] == .bool(true)
        if json["freeride"] == .bool(true) { targets[.freeride] = .flag }
        if json["maxeffort"] == .bool(true) { targets[.maxEffort] = .flag }
        for field in ["power", "hr", "pace", "cadence"] {
            guard let target = json[field], target != .null else { continue }
            guard case .object = target else { throw fail(path, "\"\(field)\" must be an object with a value and units") }
            let units: String
            if case .string(let given)? = target["units"] { units = given } else { units = field == "cadence" ? "rpm" : "" }
            guard let value = try value(target, path: "\(path) \(field)") else { continue }
            guard let key = key(field, units) else {
                warn(path, "\(field) in units \"\(units)\" is not a target workout knows, left out")
                continue
            }
            if [.zone, .hrZone, .paceZone].contains(key) {
                targets[key] = .text(zone(value))
            } else if key == .mmp {
                targets[key] = .text(percent(value) + " MMP")
            } else {
                targets[key] = value
                if ramp, case .range = value, key != .cadence { targets[.ramp] = .flag }
            }
        }
        // The athlete's own numbers, where the service resolved them.
        for (field, key) in [("_power", Targets.Key.watts), ("_hr", .bpm)] where !targets.has(key) {
            guard let target = json[field], case .object = target, let value = try value(target, path: "\(path) \(field)") else { continue }
            targets[key] = value
        }
        return targets
    }

    func key(_ field: String, _ units: String) -> Targets.Key? {
        switch (field, units.lowercased()) {
        case ("power", "%ftp"), ("power", ""): .power
        case ("power", "w"): .watts
        case ("power", "power_zone"): .zone
        case ("power", "%mmp"): .mmp
        case ("hr", "%hr"), ("hr", ""): .hr
        case ("hr", "%lthr"): .lthr
        case ("hr", "hr_zone"): .hrZone
        case ("pace", "%pace"), ("pace", ""): .pace
        case ("pace", "pace_zone"): .paceZone
        case ("cadence", _): .cadence
        default: nil
        }
    }

    /// `{ value }` or `{ start, end }`: a number or a range (nil: neither is given).
    func value(_ json: JSONValue, path: String) throws(WorkoutFileError) -> Targets.Value? {
        if let value = number(json["value"]) { return .number(value) }
        let start = number(json["start"]), end = number(json["end"])
        switch (start, end) {
        case let (start?, end?): return start == end ? .number(start) : .range(low: start, high: end)
        case (nil, nil): return nil
        default: throw fail(path, "a range needs both \"start\" and \"end\"")
        }
    }

    func zone(_ value: Targets.Value) -> String {
        switch value {
        case .number(let zone): "Z" + Number.format(zone)
        case let .range(low, high): "Z\(Number.format(low))-Z\(Number.format(high))"
        default: ""
        }
    }

    func percent(_ value: Targets.Value) -> String {
        switch value {
        case .number(let percent): Number.format(percent) + "%"
        case let .range(low, high): "\(Number.format(low))-\(Number.format(high))%"
        default: ""
        }
    }

    func number(_ json: JSONValue?) -> Double? { json?.numericValue }

    func whole(_ json: JSONValue?) -> Int? {
        guard let value = json?.wholeValue, abs(value) < 1_000_000_000 else { return nil }
        return value
    }

    func text(_ json: JSONValue?) -> String? {
        guard case .string(let text)? = json else { return nil }
        let line = ImportedRoutine.oneLine(text)
        return line.isEmpty ? nil : line
    }
}
