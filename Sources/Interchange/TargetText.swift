import IntervalEngine
import WorkoutValues

/// The part of an imported routine that explains and shows its targets: a comment saying
/// what each `info` field means, and `aim(info)`, which turns them into a line such as
/// `ramp 45-75% FTP · 90 rpm` for the screen. Only the fields the workout uses appear,
/// so the routine stays as short as one written by hand.
enum TargetText {
    static func explanation(_ keys: Set<Targets.Key>, ranges: Bool) -> [String] {
        let meanings: [(Targets.Key, String)] = [
            (.power, "power: percent of your FTP"),
            (.watts, "watts: watts"),
            (.zone, "zone: a power zone"),
            (.hr, "hr: percent of your maximum heart rate"),
            (.lthr, "lthr: percent of your threshold heart rate"),
            (.bpm, "bpm: heart rate in beats per minute"),
            (.hrZone, "hr_zone: a heart-rate zone"),
            (.pace, "pace: percent of your threshold pace, or a pace"),
            (.paceZone, "pace_zone: a pace zone"),
            (.mmp, "mmp: a percent of a mean maximal power, 60% MMP 5m being 60% of your best 5-minute power"),
            (.cadence, "cadence: rpm"),
            (.incline, "incline: a treadmill's incline in percent"),
            (.freeride, "freeride: no target, ride as you like"),
            (.maxEffort, "max_effort: all out"),
        ]
        var text = "Each segment's info holds its targets — " + meanings.filter { keys.contains($0.0) }.map(\.1)
            .joined(separator: "; ") + "."
        if ranges {
            text += keys.contains(.ramp)
                ? " { low = , high = } is a range, or with ramp = true a ramp from low to high."
                : " { low = , high = } is a range."
        }
        text += " The hook at the end shows them as each segment starts."
        return ImportedRoutine.wrap(text)
    }

    static func luaFunctions(_ keys: Set<Targets.Key>) -> [String] {
        let amounts: [(Targets.Key, String)] = [
            (.power, #"(info.ramp and "ramp " or "") .. amount(info.power, "% FTP")"#),
            (.watts, #"amount(info.watts, " W")"#),
            (.zone, "info.zone"),
            (.hr, #"amount(info.hr, "% HR")"#),
            (.lthr, #"amount(info.lthr, "% LTHR")"#),
            (.bpm, #"amount(info.bpm, " bpm")"#),
            (.hrZone, #"info.hr_zone .. " HR""#),
            (.pace, #"type(info.pace) == "string" and info.pace .. " pace" or amount(info.pace, "% pace")"#),
            (.paceZone, #"info.pace_zone .. " pace""#),
            (.mmp, "info.mmp"),
            (.cadence, #"amount(info.cadence, " rpm")"#),
            (.incline, #"amount(info.incline, " % incline")"#),
        ]
        let flags: [(Targets.Key, String)] = [(.maxEffort, "all out"), (.freeride, "free ride")]
        var lines: [String] = []
        if amounts.contains(where: { keys.contains($0.0) && $0.1.contains("amount(") }) {
            lines += [
                "-- 105, or { low = 95, high = 105 }, with its unit: \"95-105% FTP\".",
                "local function amount(value, unit)",
                "  if type(value) == \"table\" then return value.low .. \"-\" .. value.high .. unit end",
                "  return value .. unit",
                "end",
                "",
            ]
        }
        lines += [
            "-- What to aim for, in one line: \"88% FTP · 90 rpm\".",
            "local function aim(info)",
            "  local parts = {}",
        ]
        for (key, text) in flags where keys.contains(key) {
            lines.append("  if info.\(key.rawValue) then parts[#parts + 1] = \"\(text)\" end")
        }
        for (key, expression) in amounts where keys.contains(key) {
            let line = "  if info.\(key.rawValue) then parts[#parts + 1] = \(expression) end"
            if line.count <= 100 {
                lines.append(line)
            } else {
                lines += ["  if info.\(key.rawValue) then", "    parts[#parts + 1] = \(expression)", "  end"]
            }
        }
        lines += [
            "  return table.concat(parts, \" · \")",
            "end",
        ]
        return lines
    }
}
