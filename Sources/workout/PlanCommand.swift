import ArgumentParser
import IntervalEngine

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a routine's timeline: every segment with its start and duration.")

    @Argument(help: "The routine: a path, or a name such as 'hiit'.")
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    @Flag(help: "Print the plan as one JSON object.")
    var json = false

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits)
        if json {
            loaded.writePlanJSON(Output.write)
            Output.write("\n")
            return
        }
        let style = Style(enabled: Terminal.usesColor)
        Output.line(style.bold(loaded.name) + " — \(loaded.timeline.count) segments, \(TimeText.clock(loaded.timeline.duration))")
        if let description = loaded.description { Output.line(description) }
        for line in ParameterList.lines(loaded.parameters, style: style) { Output.line(line) }
        let width = String(loaded.timeline.count).count
        for segment in loaded.timeline.segments {
            let index = String(repeating: " ", count: width - String(segment.index).count) + String(segment.index)
            let start = TimeText.clock(segment.start)
            let kind = segment.kind.padding(toLength: 8, withPad: " ", startingAt: 0)
            Output.line("\(index)  \(String(repeating: " ", count: max(0, 8 - start.count)))\(start)  "
                        + "\(style.kind(kind)) \(TimeText.clock(segment.duration).padding(toLength: 7, withPad: " ", startingAt: 0)) "
                        + segment.name + style.dim(PlainText.rounds(SegmentSummary(segment, count: loaded.timeline.count))))
        }
    }
}
