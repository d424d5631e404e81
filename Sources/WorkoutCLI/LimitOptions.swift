import ArgumentParser
import IntervalEngine
import LuaBridge

/// The limits a routine runs under (docs/routines.md, "Limits"), shared by every command that
/// loads one. The defaults suit any honest routine; raise them for a routine that
/// really computes a lot, lower them to try a stranger's routine on a short leash.
struct LimitOptions: ParsableArguments {
    private static let defaults = LuaLimits()

    /// Loading runs the whole file, including any loops that build the steps.
    @Option(name: .customLong("max-load-instructions"), help: ArgumentHelp(
        "Lua instructions the routine may run while loading.", valueName: "N"))
    var loadInstructions = PlainWhole(defaults.loadInstructions)

    @Option(name: .customLong("max-hook-instructions"), help: ArgumentHelp(
        "Lua instructions each hook or cue call may run.", valueName: "N"))
    var hookInstructions = PlainWhole(defaults.hookInstructions)

    @Option(name: .customLong("max-load-seconds"), help: ArgumentHelp(
        "Seconds the routine may take to load (0: no limit).", valueName: "S"))
    var loadSeconds = PlainDecimal(defaults.loadSeconds)

    @Option(name: .customLong("max-hook-seconds"), help: ArgumentHelp(
        "Seconds each hook or cue call may take (0: no limit).", valueName: "S"))
    var hookSeconds = PlainDecimal(defaults.hookSeconds)

    @Option(name: .customLong("max-memory"), help: ArgumentHelp(
        "Mebibytes the routine's Lua state may hold.", valueName: "MiB"))
    var memoryMiB = PlainWhole(LuaLimits.defaultMemoryMiB)

    func validate() throws {
        for (flag, value) in [("--max-load-instructions", loadInstructions.value), ("--max-hook-instructions", hookInstructions.value)] {
            guard value >= 1000 else { throw ValidationError("\(flag) must be at least 1000, got \(value)") }
        }
        for (flag, value) in [("--max-load-seconds", loadSeconds.value), ("--max-hook-seconds", hookSeconds.value)] {
            guard value.isFinite, value >= 0, value <= 86_400 else {
                throw ValidationError("\(flag) must be from 0 to 86400 seconds, got \(value)")
            }
        }
        guard memoryMiB.value >= 1, memoryMiB.value <= 65_536 else {
            throw ValidationError("--max-memory must be from 1 to 65536 MiB, got \(memoryMiB.value)")
        }
    }

    var limits: LuaLimits {
        LuaLimits(loadInstructions: loadInstructions.value, hookInstructions: hookInstructions.value,
                  loadSeconds: loadSeconds.value, hookSeconds: hookSeconds.value, memory: memoryMiB.value * 1024 * 1024)
    }
}
