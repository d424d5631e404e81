import IntervalEngine
import Platform
import SoundPlayer
import WorkoutValues

/// The `sound` line that ends a `--json` run with a sound server (docs/events.md): what the
/// stream's clock did, so that a pip heard late or not at all can be told from the run's
/// own output (an underrun, an uncork, a restart of the clock, a sink whose rate is far off).
extension RunAssembly {
    func printSoundLine() {
        guard request.json, let report = sound?.finalReport else { return }
        let now = Clocks.system.monotonic()
        let t = scheduler.now, speed = scheduler.speed
        // A moment of the monotonic clock as workout seconds, as every event's `t`.
        let times = { (moments: [UInt64]) -> JSONValue in
            .array(moments.map { moment in
                .number(Number.rounded(t - Double(now &- min(now, moment)) / 1e9 * speed, places: 3))
            })
        }
        Output.line(JSONValue.object([
            ("event", .string("sound")), ("t", .number(Number.rounded(t, places: 3))),
            ("server", .string(report.server)), ("rewinds", .bool(report.rewinds)),
            ("rate_ppm", report.ppm.map { .number(Number.rounded($0, places: 1)) } ?? .null),
            ("largest_correction_ms", .number(Number.rounded(report.largestCorrection, places: 2))),
            ("underruns", .integer(report.underruns.count)), ("underrun_at", times(report.underruns)),
            ("clock_restarts", .integer(report.restarts.count)), ("restart_at", times(report.restarts)),
            ("replaced", .integer(report.replaced)),
            ("uncorks", .integer(report.uncorks.count)), ("uncork_at", times(report.uncorks)),
        ]).text)
    }
}
