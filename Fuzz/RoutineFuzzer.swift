// libFuzzer target: arbitrary bytes as a routine file, through the loader, the plan and
// a whole run on the virtual clock with every alert on; the same bytes as lines of a
// history file, and as option values (`--set`, durations, `--speed`). Built by Fuzz/build.sh with
// `swiftc -sanitize=fuzzer,address`; `make test` runs it briefly, `make fuzz` longer.
// A crash, a sanitizer report or an input that runs past libFuzzer's -timeout fails it;
// a routine that does not load is the expected outcome for most inputs.
import Foundation
import History
import IntervalEngine
import LuaBridge
import PastSessions
import WorkoutValues

/// Small limits keep each input fast; the code paths are the same as with the defaults.
private let limits = LuaLimits(loadInstructions: 2_000_000, hookInstructions: 200_000,
                               loadSeconds: 2, hookSeconds: 0.5, memory: 16 * 1024 * 1024)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzHistory(source)
    fuzzOptions(source)
    let routine: Routine
    do {
        // Run from the repository (Fuzz/run.sh): `require "hiit"` finds a bundled routine.
        routine = try RoutineLoader.load(source: source, fileName: "fuzz.lua", directory: "programs", limits: limits)
    } catch {
        // The routine's file, or a module it required (`hiit.lua:11: …` is an error there).
        let file = error.message.prefix { $0 != ":" }
        precondition(file == "fuzz.lua" || (file.hasSuffix(".lua") && !file.contains(" ")),
                     "an error that does not name the file: \(error.message)")
        return 0
    }
    var sink = 0
    routine.writePlanJSON { sink &+= $0.utf8.count }
    // A million segments plan fine but would make every input slow to run.
    guard routine.timeline.count <= 2_000 else { return 0 }
    let clock = VirtualClock()
    var options = SessionOptions(bell: true, notify: true, voice: true, payloadsInEvents: true)
    options.standInAthlete = true
    let session = Session(routine: routine, scheduler: clock, options: options)
    session.subscribe { event in
        sink &+= event.json.text.utf8.count &+ (PlainText.line(event) ?? "").utf8.count
    }
    // Hooks may extend or pause forever: stop an hour of workout time past the plan.
    _ = DryRun.run(session, on: clock, until: routine.timeline.duration + 3_600)
    precondition(session.state == .finished)
    precondition(routine.liveReferences == 0, "references left after the session ended")
    return sink == -1 ? 1 : 0
}

/// Each line as a history line: an entry or damaged, never a trap; an entry's numbers
/// print as clock times, and the report over them is strict JSON (no inf, no NaN).
private func fuzzHistory(_ bytes: [UInt8]) {
    var entries: [HistoryEntry] = []
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(64) {
        guard let entry = HistoryEntry(line: String(line)) else { continue }
        precondition(!TimeText.clock(entry.elapsed).isEmpty && !TimeText.clock(entry.workSeconds).isEmpty)
        entries.append(entry)
    }
    guard !entries.isEmpty else { return }
    let text = HistoryReport(entries: entries, limit: 10).json.text
    precondition((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "not JSON: \(text)")
}

/// A routine with a parameter of each type, loaded once: its source is what each line of
/// the input is given to as `--set NAME=LINE`.
private let parameterSource = """
    local p = params { n = 8, x = 2.5, d = "20s", s = "text", b = true }
    return workout { name = "Options", rounds(p.n, { work(p.d), rest(p.x) }) }
    """

/// Each line as an option value: a duration, `--speed` (a speed in range schedules a
/// day's segment) and `--set` (split at `=`). The first line is also given to one of the
/// routine's parameters, which checks it against its type: one load per input, so the
/// routine part keeps its pace.
private func fuzzOptions(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(8).map(String.init)
    for line in lines {
        _ = try? Duration.parse(line)
        if let speed = Double(line), RunLoopScheduler.speeds.contains(speed) {
            // libFuzzer calls in on the main thread, where the run-loop scheduler lives.
            MainActor.assumeIsolated {
                let scheduler = RunLoopScheduler(speed: speed, watchesSuspend: false)
                precondition(scheduler.deadline(for: Duration.maximum) > 0)
            }
        }
        do {
            let setting = try ParameterSetting(argument: line)
            precondition(!setting.name.isEmpty)
        } catch {
            precondition(error.isUsage)
        }
    }
    guard let first = lines.first else { return }
    let names = ["n", "x", "d", "s", "b"]
    guard let setting = try? ParameterSetting(argument: names[first.utf8.count % names.count] + "=" + first) else { return }
    do {
        _ = try RoutineLoader.load(source: parameterSource, fileName: "options.lua", settings: [setting], limits: limits)
    } catch {
        precondition(error.message.hasPrefix("options.lua"), "a message that does not name the file: \(error.message)")
    }
}
