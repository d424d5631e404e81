import ArgumentParser
import IntervalEngine
import WorkoutValues

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show a routine's timeline: every segment with its start and duration.",
        discussion: """
            An open-ended routine (one with generate) is listed as far as its generators \
            go, up to --horizon segments. No hook runs, so a generator sees only its own \
            state. Exit status 1 when a generator fails.
            """)

    @Argument(help: "The routine: a path, or a name such as 'hiit'.", completion: .routine)
    var routine: String

    @OptionGroup var parameters: ParameterOptions

    @OptionGroup var horizon: HorizonOption

    @OptionGroup var assume: AssumeOption

    @OptionGroup(title: "History")
    var history: HistorySourceOptions

    @Flag(help: "Print the plan as one JSON object.")
    var json = false

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func validate() throws {
        if routine.isEmpty { throw ValidationError("the routine's name cannot be empty") }
    }

    func run() throws {
        let loaded = try RoutineLookup.loadOrFail(routine, settings: parameters.settings, limits: limits.limits,
                                                  history: history.file)
        if let seconds = assume.assume { loaded.timeline.assume(openSeconds: seconds) }
        let errors = loaded.expand(horizon: horizon.segments)
        if json {
            loaded.writePlanJSON(Output.write)
            Output.write("\n")
        } else {
            printText(loaded)
        }
        for error in errors {
            Output.error("workout: \(error) (in generate)")
        }
        if !errors.isEmpty { throw ExitCode.failure }
    }

    private func printText(_ loaded: Routine) {
        let style = Style(enabled: Terminal.usesColor)
        Output.line(style.bold(loaded.name.visible) + " — " + Plan.size(loaded.timeline))
        if let description = loaded.description { Output.line(description.visible) }
        for line in ParameterList.lines(loaded.parameters, style: style) { Output.line(line) }
        let width = String(loaded.timeline.count).count
        // `open ~0:45` is wider than a clock.
        let lengthWidth = loaded.timeline.hasOpenSegments ? 10 : 7
        let output = BlockOutput()
        for segment in loaded.timeline.segments {
            let index = String(repeating: " ", count: width - String(segment.index).count) + String(segment.index)
            let start = TimeText.clock(segment.start)
            let kind = Padding.column(segment.kind, 8)
            let (lead, payload) = Plan.distance(segment, info: loaded.infoJSON(for: segment))
            let words = [lead, InfoText.summary(payload)].compactMap { $0 }
            let info = words.isEmpty ? "" : " — " + Plan.shortened(words.joined(separator: " · "))
            output.line("\(index)  \(String(repeating: " ", count: max(0, 8 - start.count)))\(start)  "
                        + "\(style.kind(kind)) \(Padding.column(Plan.length(segment), lengthWidth)) "
                        + segment.name.visible
                        + style.dim(PlainText.rounds(SegmentSummary(segment, count: loaded.timeline.count))) + info.visible)
        }
        output.flush()
        if loaded.timeline.reachedHorizon {
            Output.line(style.dim("… and more: the list stops at --horizon \(horizon.segments)"))
        }
    }

    /// `0:30`; an open segment's `open ~0:45`, what it is expected to take; a distance
    /// step's `~1:36`, at its pace.
    static func length(_ segment: Segment) -> String {
        guard let open = segment.open else { return TimeText.clock(segment.duration) }
        return (open.distance == nil ? "open ~" : "~") + TimeText.clock(segment.duration)
    }

    /// A distance step as a runner reads it, `400 m at 4:00/km` (its info's `pace` when
    /// that is a pace as text, which is then not said again), and the rest of its info;
    /// nil and the info unchanged for any other segment.
    static func distance(_ segment: Segment, info: JSONValue) -> (lead: String?, info: JSONValue) {
        guard let metres = segment.open?.distance else { return (nil, info) }
        let words = DistanceText.words(metres)
        guard case .object(let fields) = info, let pace = fields.first(where: { $0.0 == "pace" })?.1,
              case .string(let text) = pace, let read = PaceText(text) else { return (words, info) }
        return (words + " at " + read.text, .object(fields.filter { $0.0 != "pace" }))
    }

    /// A payload in words, cut to one line of a plan.
    static func shortened(_ info: String) -> String {
        let most = 72
        guard info.count > most else { return info }
        return String(info.prefix(most - 1)) + "…"
    }

    /// `8 segments, 4:15`; for an open-ended routine what its generators gave, and
    /// whether they ended within the horizon.
    static func size(_ timeline: Timeline) -> String {
        let known = "\(timeline.count) segments, \(timeline.hasOpenSegments ? "about " : "")\(TimeText.clock(timeline.duration))"
        guard timeline.isOpenEnded else { return known }
        return timeline.reachedHorizon ? "open-ended: the first \(known)" : "open-ended: \(known) as planned"
    }
}
