import IntervalEngine

/// `workout run` read without ArgumentParser, for the command lines a workout is usually
/// started with: the routine, `--set`, `--speed`, `--volume` and the switches. Its
/// parse reflects `Run`'s options with `Mirror` and scans the binary's 5,600 protocol
/// conformances about 60 times: 20M instructions, most of a run's start-up, paid again
/// by every workout (docs/design.md). Anything else — help, `--serve`, `--horizon`, the
/// limits, a repeated switch, a value that does not read or does not pass `validate()` —
/// gives nil, and ArgumentParser parses the whole line as before, with its own messages.
/// So this accepts only lines ArgumentParser accepts, and makes the same `RunRequest`
/// of them; tests hold the two to it over every option and many generated lines.
enum QuickRunArguments {
    /// The options read here; every other option of `run` is left to ArgumentParser.
    static let options = ["--set", "--speed", "--volume", "--json", "--dry-run", "--bell", "--no-bell", "--no-sound",
                          "--no-flash", "--calm", "--notify", "--no-notify", "--voice", "--count-up", "--no-history",
                          "--allow-sleep"]

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
            if name == "--set" || name == "--speed" || name == "--volume" {
                guard let value = attached ?? (index < arguments.count ? arguments[index] : nil),
                      !value.hasPrefix("-") else { return nil }
                if attached == nil { index += 1 }
                switch name {
                case "--set":
                    guard let setting = try? ParameterSetting(argument: value) else { return nil }
                    request.settings.append(setting)
                case "--speed":
                    guard let speed = Double(value) else { return nil }
                    request.speed = speed
                default:
                    guard let volume = Int(value) else { return nil }
                    request.volume = volume
                }
                continue
            }
            guard attached == nil else { return nil }
            switch name {
            case "--json": request.json = true
            case "--dry-run": request.dryRun = true
            case "--bell": request.bell = true
            case "--no-bell": request.bell = false
            case "--no-sound": request.noSound = true
            case "--no-flash": request.noFlash = true
            case "--calm": request.calm = true
            case "--notify": request.notify = true
            case "--no-notify": request.notify = false
            case "--voice": request.voice = true
            case "--count-up": request.countUp = true
            case "--no-history": request.noHistory = true
            case "--allow-sleep": request.allowSleep = true
            default: return nil
            }
        }
        guard let routine else { return nil }
        request.routine = routine
        guard (try? request.validate()) != nil else { return nil }
        return request
    }
}
