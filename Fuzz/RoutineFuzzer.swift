// libFuzzer target: arbitrary bytes as a routine file, through the loader, the plan and
// a whole run on the virtual clock with every alert on. Built by Fuzz/build.sh with
// `swiftc -sanitize=fuzzer,address`; `make test` runs it briefly, `make fuzz` longer.
// A crash, a sanitizer report or an input that runs past libFuzzer's -timeout fails it;
// a routine that does not load is the expected outcome for most inputs.
import IntervalEngine

/// Small limits keep each input fast; the code paths are the same as with the defaults.
private let limits = LuaLimits(loadInstructions: 2_000_000, hookInstructions: 200_000,
                               loadSeconds: 2, hookSeconds: 0.5, memory: 16 * 1024 * 1024)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = Array(UnsafeBufferPointer(start: data, count: size))
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
    let session = Session(routine: routine, scheduler: clock,
                          options: SessionOptions(bell: true, notify: true, voice: true, payloadsInEvents: true))
    session.subscribe { event in
        sink &+= event.json.text.utf8.count &+ PlainText.line(event).utf8.count
    }
    // Hooks may extend or pause forever: stop an hour of workout time past the plan.
    _ = DryRun.run(session, on: clock, until: routine.timeline.duration + 3_600)
    precondition(session.state == .finished)
    precondition(routine.liveReferences == 0, "references left after the session ended")
    return sink == -1 ? 1 : 0
}
