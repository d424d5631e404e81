import CLua
import IntervalEngine
import WorkoutValues

/// The actions callable from Lua: `bell()`, `flash()`, `notify(title, body?)`, `say(text)`,
/// `sound(name)`, `tone{}`, `print(...)`, `skip()`, `extend(seconds)`, `pause()`,
/// `record(name, value, options?)`.
enum Actions {
    private static func running(_ args: Arguments) throws(APIError) -> any RoutineActions {
        guard let actions = args.state.actions else {
            throw APIError("\(args.function): only works while the workout runs (call it from a hook or a cue)")
        }
        return actions
    }

    private static func action(_ L: OpaquePointer?, _ name: String,
                               _ body: (Arguments) throws(APIError) -> Void) -> Int32 {
        APIError.entry(L) { stack, state throws(APIError) in
            try body(Arguments(stack: stack, state: state, function: name))
            return 0
        }
    }

    /// Text for display: strings as they are, numbers formatted.
    private static func text(_ args: Arguments, at index: Int32, what: String) throws(APIError) -> String {
        if let text = args.stack.string(at: index) { return text }
        if let number = args.stack.number(at: index) { return Number.format(number) }
        throw args.fail(what, "a string", at: index)
    }

    static let bell: workout_SwiftFunction = { L in
        action(L, "bell") { args throws(APIError) in
            try args.noArguments(after: 0)
            try running(args).ringBell()
        }
    }

    static let flash: workout_SwiftFunction = { L in
        action(L, "flash") { args throws(APIError) in
            try args.noArguments(after: 0)
            try running(args).flashBand()
        }
    }

    static let notify: workout_SwiftFunction = { L in
        action(L, "notify") { args throws(APIError) in
            let title = try text(args, at: 1, what: "title")
            let body = args.isAbsent(2) ? nil : try text(args, at: 2, what: "body")
            try args.noArguments(after: 2)
            try running(args).notify(title: title, body: body)
        }
    }

    static let say: workout_SwiftFunction = { L in
        action(L, "say") { args throws(APIError) in
            let spoken = try text(args, at: 1, what: "text")
            try args.noArguments(after: 1)
            guard spoken.utf8.count <= HeardLimits.longestText else {
                throw APIError("say: text is \(spoken.utf8.count) bytes; a text to say may be at most "
                               + "\(HeardLimits.longestText) bytes (about half a minute of speech)")
            }
            let actions = try running(args)
            guard args.state.heardThisCall.texts < HeardLimits.perCall else {
                throw APIError("say: one call of a hook may say at most \(HeardLimits.perCall) texts")
            }
            try actions.say(spoken, from: args.function)
            args.state.heardThisCall.texts += 1
        }
    }

    /// A built-in sound, or a sound file decoded while the routine loaded. A file is read
    /// only then, never while the workout runs, so a file first named here plays nothing:
    /// its event says where to name it.
    static let sound: workout_SwiftFunction = { L in
        action(L, "sound") { args throws(APIError) in
            guard args.stack.type(at: 1) == LUA_TSTRING, let name = args.stack.string(at: 1) else {
                throw args.fail("name", "a sound's name (\(Sound.names.joined(separator: ", "))) or a sound file's", at: 1)
            }
            try args.noArguments(after: 1)
            if let sound = Sound.named(name) { return try play(sound, args) }
            guard Sound.isFileName(name) else { throw args.unknownSound(at: 1) }
            if let file = args.state.routineSoundFiles.decoded(name) { return try play(Sound(file: file), args) }
            let actions = try running(args)
            let undeclared = UndeclaredSound(name: name, file: args.state.chunkName, line: args.stack.callerLine())
            args.state.undeclared.insert(undeclared)
            actions.unheardSound(undeclared.alertText)
        }
    }

    static let tone: workout_SwiftFunction = { L in
        action(L, "tone") { args throws(APIError) in
            let sound = try args.tone(at: 1, what: "its argument")
            try args.noArguments(after: 1)
            try play(sound, args)
        }
    }

    /// One more sound for this call of the hook, within `HeardLimits`.
    private static func play(_ sound: Sound, _ args: Arguments) throws(APIError) {
        let actions = try running(args)
        guard args.state.heardThisCall.sounds < HeardLimits.perCall else {
            throw APIError("\(args.function): one call of a hook may play at most \(HeardLimits.perCall) sounds "
                           + "(sound() and tone{} together)")
        }
        try actions.sound(sound, from: args.function)
        args.state.heardThisCall.sounds += 1
    }

    /// Called by the prelude's `print` with the text already joined.
    static let log: workout_SwiftFunction = { L in
        action(L, "print") { args throws(APIError) in
            let line = args.stack.string(at: 1) ?? ""
            if let actions = args.state.actions {
                actions.log(line)
            } else {
                args.state.builder.log.append(line)
                args.state.charge(48 + line.utf8.count)
            }
        }
    }

    static let skip: workout_SwiftFunction = { L in
        action(L, "skip") { args throws(APIError) in
            try args.noArguments(after: 0)
            try running(args).control(.next)
        }
    }

    static let done: workout_SwiftFunction = { L in
        action(L, "done") { args throws(APIError) in
            try args.noArguments(after: 0)
            try running(args).control(.done)
        }
    }

    static let tally: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "tally")
            let name = try args.text(at: 1, what: "name")
            try args.noArguments(after: 1)
            stack.push(try running(args).tally(name))
            return 1
        }
    }

    static let extend: workout_SwiftFunction = { L in
        action(L, "extend") { args throws(APIError) in
            guard let seconds = args.stack.number(at: 1), seconds.isFinite,
                  abs(seconds) <= Duration.maximum else {
                throw args.fail("seconds", "a number of seconds (negative to shorten)", at: 1)
            }
            try args.noArguments(after: 1)
            try running(args).control(.add(seconds: seconds))
        }
    }

    static let pause: workout_SwiftFunction = { L in
        action(L, "pause") { args throws(APIError) in
            try args.noArguments(after: 0)
            try running(args).control(.pause)
        }
    }

    static let recordOptions = RoutineTypes.recordOptions.fieldNames

    static let record: workout_SwiftFunction = { L in
        action(L, "record") { args throws(APIError) in
            let name = try args.text(at: 1, what: "name")
            guard name.utf8.count <= Score.longestName else {
                throw APIError("record: name must be at most \(Score.longestName) bytes, got \(name.utf8.count)")
            }
            guard let value = args.stack.number(at: 2), Score.isValid(value) else {
                throw args.fail("value", "a number (finite, at most 1e15 either way)", at: 2)
            }
            var lower = false
            if !args.isAbsent(3) {
                try args.table(at: 3, what: "options")
                try args.fields(of: 3, known: recordOptions) { _, index throws(APIError) in
                    switch args.stack.string(at: index) {
                    case "lower": lower = true
                    case "higher": lower = false
                    default: throw args.fail("better", "\"higher\" or \"lower\"", at: index)
                    }
                }
            }
            try args.noArguments(after: 3)
            try running(args).record(Score(name: name, value: value, lowerIsBetter: lower))
        }
    }

    static let erg: workout_SwiftFunction = { L in
        action(L, "erg") { args throws(APIError) in
            guard let watts = args.stack.number(at: 1), watts.isFinite, watts >= 0, watts <= 2000 else {
                throw args.fail("watts", "a number of watts from 0 to 2000", at: 1)
            }
            try args.noArguments(after: 1)
            try running(args).erg(Int(watts.rounded()))
        }
    }
}
