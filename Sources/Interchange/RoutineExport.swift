import IntervalEngine
import WorkoutValues

/// A loaded routine as a `WorkoutFile`, for `workout export`: its timeline (with the
/// `--set` values it was loaded with), targets read back from each segment's `info`,
/// text cues as prompts, repeats found again. What no workout file can hold — hooks, cue
/// functions, `info` fields that are not targets, the countdown — is named in `dropped`,
/// never left out silently.
public enum RoutineExport {
    /// `format` is the one it will be written in: a FIT step can be open and carry notes
    /// (`info.notes`), an intervals.icu step can be open (`press lap`), the others cannot.
    public static func workoutFile(_ routine: Routine, for format: WorkoutFormat) throws(RoutineError) -> (WorkoutFile, dropped: [String]) {
        guard !routine.timeline.isOpenEnded else {
            throw RoutineError("\(routine.fileName): an open-ended routine (one with generate) cannot be exported: "
                               + "its segments are known only as it runs")
        }
        var file = WorkoutFile()
        file.name = routine.name
        file.description = routine.description
        var ignored = Set<String>()
        var functionCues = 0
        var segmentHooks = 0
        var openSegments = 0
        var distanceSteps = 0
        var steered = 0
        var steps: [WorkoutFile.Step] = []
        for segment in routine.timeline.segments {
            if segment.steer != nil { steered += 1 }
            if let open = segment.open {
                if open.distance != nil && format.codec.takesDistances {
                    if open.cap != nil { distanceSteps += 1 }
                } else {
                    openSegments += 1
                }
            }
            let prompts = segment.textCues.map { WorkoutFile.Prompt(offset: $0.offset, text: $0.text) }
            functionCues += segment.functionCues
            if segment.hasHooks { segmentHooks += 1 }
            let info = routine.infoJSON(for: segment)
            var notes: String?
            if format == .fit, case .object(let fields) = info, 
               case .string(let text)? = fields.first(where: { $0.0 == "notes" })?.1 {
                notes = text
            }
            var unused = Set<String>()
            let targets = Targets(info: info, ignored: &unused)
            if notes != nil { unused.remove("notes") }
            ignored.formUnion(unused)
            let distance = format.codec.takesDistances ? segment.open?.distance : nil
            var step = WorkoutFile.Step(
                kind: segment.kind, name: segment.name, duration: segment.duration, targets: targets,
                prompts: prompts.sorted { $0.offset < $1.offset },
                open: format.codec.endsOpenSteps && segment.open != nil && distance == nil,
                notes: notes, line: segment.line)
            step.distance = distance
            steps.append(step)
        }
        file.parts = Repeats.parts(steps, blocks: routine.timeline.segments.map(\.block))

        var dropped: [String] = []
        let named = routine.hookNames
        if !named.isEmpty { dropped.append("the hooks " + named.joined(separator: ", ")) }
        if segmentHooks > 0 { dropped.append("on_start/on_end of \(plural(segmentHooks, "segment"))") }
        if functionCues > 0 { dropped.append("\(plural(functionCues, "cue")) that call a function") }
        // The text formats have no step that waits for the athlete: it goes as the time it
        // is expected to take. A FIT step can be open, and so can an intervals.icu step
        // (`press lap`): the device's lap button ends it.
        if steered > 0 {
            dropped.append("the heart-rate bands (hr = { … }) of \(plural(steered, "segment")), which steer a machine as the workout runs")
        }
        if distanceSteps > 0 {
            dropped.append("the caps of \(plural(distanceSteps, "distance step")) (each a step of its distance)")
        }
        if openSegments > 0 && format.codec.endsOpenSteps {
            dropped.append("the caps, tallies and scores of \(plural(openSegments, "open segment")) (each is a step the lap button ends)")
        } else if openSegments > 0 {
            dropped.append("\(plural(openSegments, "open segment")) (each written as its expected length; done, the cap, tallies and scores are lost)")
        }
        if !ignored.isEmpty {
            dropped.append("info fields that are not targets: " + ignored.sorted().joined(separator: ", "))
        }
        // An imported routine gets the default countdown: only another one is lost.
        if routine.countdown != Routine.defaultCountdown { dropped.append("countdown = \(Number.format(routine.countdown))") }
        return (file, dropped)
    }

    static func plural(_ count: Int, _ word: String) -> String {
        "\(count) \(word)\(count == 1 ? "" : "s")"
    }
}
