import IntervalEngine
import Music

/// `workout run` read without ArgumentParser, for the command lines a workout is usually
/// started with: the routine, `--set`, `--speed`, `--volume`, `--music` and the switches. Its
/// parse reflects `Run`'s options with `Mirror` and scans the binary's 5,600 protocol
/// conformances about 60 times: 20M instructions, most of a run's start-up, paid again
/// by every workout (docs/design.md). Anything else — help, `--serve`, `--horizon`, the
/// limits, a repeated switch, a value that does not read or does not pass `validate()` —
/// gives nil, and ArgumentParser parses the whole line, with its own messages.
/// So this accepts only lines ArgumentParser accepts, and makes the same `RunRequest`
/// of them; tests hold the two to it over every option and many generated lines.
enum QuickRunArguments {
    /// The options that take a value, each with what it sets (false: the value does not read).
    private static let valued: [String: @Sendable (inout RunRequest, String) -> Bool] = [
        "--set": { request, value in
            guard let setting = try? ParameterSetting(argument: value) else { return false }
            request.settings.append(setting)
            return true
        },
        "--speed": { request, value in PlainNumber.decimal(value).map { request.speed = $0 } != nil },
        "--volume": { request, value in PlainNumber.whole(value).map { request.volume = $0 } != nil },
        "--music": { request, value in MusicMode(rawValue: value).map { request.music = $0 } != nil },
    ]

    /// The switches, each with what it sets.
    private static let switches: [String: @Sendable (inout RunRequest) -> Void] = [
        "--json": { $0.json = true }, "--dry-run": { $0.dryRun = true },
        "--bell": { $0.bell = true }, "--no-bell": { $0.bell = false },
        "--notify": { $0.notify = true }, "--no-notify": { $0.notify = false },
        "--no-sound": { $0.noSound = true }, "--no-flash": { $0.noFlash = true }, "--calm": { $0.calm = true },
        "--voice": { $0.voice = true }, "--count-up": { $0.countUp = true },
        "--tenths": { $0.tenths = true },
        "--no-history": { $0.noHistory = true }, "--allow-sleep": { $0.allowSleep = true },
        "--no-sensors": { $0.noSensors = true }, "--no-erg": { $0.noErg = true },
        "--no-upload": { $0.noUpload = true },
    ]

    /// The options read here, in order; every other option of `run` is left to ArgumentParser.
    static var options: [String] { (Array(valued.keys) + Array(switches.keys)).sorted() }

    /// The request for `arguments` (the command line after the program's name), or nil
    /// when ArgumentParser is to read them.
    static func request(_ arguments: [String]) -> RunRequest? {
        guard arguments.first == "run" else { return nil }
        var request = RunRequest.standard
        var routine: String?
        var given: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                guard routine == nil else { return nil }
                routine = argument
                continue
            }
            var name = argument
            var attached: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            // A switch and its inversion count as one: given twice, ArgumentParser decides.
            let key = name == "--no-bell" ? "--bell" : name == "--no-notify" ? "--notify" : name
            if name != "--set" {
                guard !given.contains(key) else { return nil }
                given.append(key)
            }
            if let set = valued[name] {
                guard let value = attached ?? (index < arguments.count ? arguments[index] : nil),
                      !value.hasPrefix("-"), set(&request, value) else { return nil }
                if attached == nil { index += 1 }
            } else if let set = switches[name], attached == nil {
                set(&request)
            } else {
                return nil
            }
        }
        guard let routine else { return nil }
        request.routine = routine
        guard (try? request.validate()) != nil else { return nil }
        return request
    }
}
