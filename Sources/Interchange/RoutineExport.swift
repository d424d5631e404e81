import IntervalEngine

/// A loaded routine as a `WorkoutFile`, for `workout export`: its timeline (with the
/// `--set` values it was loaded with), targets read back from each segment's `info`,
/// text cues as prompts, repeats found again. What no workout file can hold — hooks, cue
/// functions, `info` fields that are not targets, the countdown — is named in `dropped`,
/// never left out silently.
public enum RoutineExport {
    public static func workoutFile(_ routine: Routine) throws(RoutineError) -> (WorkoutFile, dropped: [String]) {
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
        var steps: [WorkoutFile.Step] = []
        for segment in routine.timeline.segments {
            functionCues += segment.functionCueCount
            if segment.hasOwnHooks { segmentHooks += 1 }
            steps.append(WorkoutFile.Step(
                kind: segment.kind, name: segment.name, duration: segment.duration,
                targets: Targets(info: routine.infoJSON(for: segment), ignored: &ignored),
                prompts: segment.textCues.map { WorkoutFile.Prompt(offset: $0.offset, text: $0.text) }
                    .sorted { $0.offset < $1.offset },
                line: segment.line))
        }
        file.parts = Repeats.parts(steps, blocks: routine.timeline.segments.map(\.block))

        var dropped: [String] = []
        let named = routine.hookNames
        if !named.isEmpty { dropped.append("the hooks " + named.joined(separator: ", ")) }
        if segmentHooks > 0 { dropped.append("on_start/on_end of \(plural(segmentHooks, "segment"))") }
        if functionCues > 0 { dropped.append("\(plural(functionCues, "cue")) that call a function") }
        if !ignored.isEmpty {
            dropped.append("info fields that are not targets: " + ignored.sorted().joined(separator: ", "))
        }
        if routine.countdown > 0 { dropped.append("countdown = \(Number.format(routine.countdown))") }
        return (file, dropped)
    }

    static func plural(_ count: Int, _ word: String) -> String {
        "\(count) \(word)\(count == 1 ? "" : "s")"
    }
}
