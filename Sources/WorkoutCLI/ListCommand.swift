import ArgumentParser
import Foundation
import IntervalEngine
import LuaBridge
import WorkoutValues

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your routines and the bundled ones.",
        discussion: "Each routine loads under the limits, so one that runs away is listed as failing and the rest as usual.")

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    func run() throws {
        let style = Style(enabled: Terminal.usesColor)
        var lastSource = ""
        for (source, path) in RoutineLookup.all() {
            if source != lastSource {
                Output.line(style.bold(source == "user" ? "Your programs (\(RoutineLookup.userPrograms.visible))" : "Bundled programs"))
                lastSource = source
            }
            let name = RoutineLookup.name(of: path).visible
            do {
                let routine = try RoutineLoader.load(path: path, limits: limits.limits)
                let about = routine.description.map { " — \($0.visible)" } ?? ""
                Output.line("  \(Padding.column(name, 12)) \(Padding.column(routine.timeline.isOpenEnded ? "open" : TimeText.clock(routine.timeline.duration), 8)) \(routine.name.visible)\(about)")
                if !routine.parameters.isEmpty {
                    Output.line(String(repeating: " ", count: 24) + style.dim("--set " + ParameterList.defaults(routine.parameters)))
                }
            } catch where error.isModule {
                Output.line("  \(Padding.column(name, 12)) " + style.dim("module (for require \"\(name)\")"))
            } catch {
                Output.line("  \(Padding.column(name, 12)) " + style.paint("does not load: \(error.message.visible)", "31"))
            }
        }
        if lastSource.isEmpty { Output.line("No routines found.") }
        if BundledPrograms.directory == nil { Output.error("workout: \(BundledPrograms.missing)") }
    }
}
