import CLua

/// Reading sounds from Lua: a built-in sound's name, one note `{ hz =, ms =, volume = }`
/// or a list of notes, for `sound()`, `tone{}` and `workout{ sounds = … }`. A name that
/// is not a sound, or a note out of range, is an error naming what is allowed.
extension Arguments {
    static let noteFields = RoutineTypes.note.fieldNames

    /// A built-in sound by name.
    func soundName(at index: Int32, what: String) throws(APIError) -> Sound {
        guard let name = stack.string(at: index) else {
            throw fail(what, "a sound's name (\(Sound.names.joined(separator: ", ")))", at: index)
        }
        guard let sound = Sound.named(name) else {
            throw APIError("\(function): unknown sound \(stack.describe(at: index)) "
                           + "(the sounds are \(Sound.names.joined(separator: ", ")))")
        }
        return sound
    }

    /// `{ hz = 660, ms = 150, volume = 0.8 }` or a list of such notes, played in order.
    func tone(at index: Int32, what: String) throws(APIError) -> Sound {
        try table(at: index, what: what)
        let table = lua_absindex(stack.L, index)
        let single = lua_rawgeti(stack.L, table, 1) == LUA_TNIL
        stack.pop()
        if single { return Sound(name: "tone", notes: [try note(at: table, what: what)]) }
        var notes: [Int: Note] = [:]
        var failure: APIError?
        stack.forEachPair(table) {
            guard failure == nil else { return }
            do throws(APIError) {
                guard stack.isInteger(at: -2), let position = stack.integer(at: -2), position >= 1 else {
                    throw APIError("\(function): \(what) is a list of notes and has the key \(stack.describe(at: -2)) "
                                   + "(give one note, or a list of notes)")
                }
                guard position <= Note.maximumNotes else {
                    throw APIError("\(function): \(what) may have at most \(Note.maximumNotes) notes")
                }
                notes[position] = try note(at: lua_absindex(stack.L, -1), what: "note \(position)")
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard !notes.isEmpty else { throw APIError("\(function): \(what) has no notes (e.g. { hz = 660, ms = 150 })") }
        let sound = Sound(name: "tone", notes: try ordered(notes, what: "note"))
        guard sound.seconds <= Sound.maximumSeconds else {
            throw APIError("\(function): \(what) lasts \(Number.format(sound.seconds)) s; notes may last "
                           + "\(Number.format(Sound.maximumSeconds)) s in all")
        }
        return sound
    }

    /// One note: `hz` and `ms` required, `volume` 0–1 (default 1).
    private func note(at index: Int32, what: String) throws(APIError) -> Note {
        try table(at: index, what: what)
        var hz: Double?
        var milliseconds: Double?
        var volume = 1.0
        try fields(of: index, known: Arguments.noteFields, what: what, field: { key, value throws(APIError) in
            let range: ClosedRange<Double> = switch key {
            case "hz": Note.hzRange
            case "ms": Note.millisecondsRange
            default: Note.volumeRange
            }
            guard let number = stack.number(at: value), number.isFinite, range.contains(number) else {
                throw fail(key, "a number from \(Number.format(range.lowerBound)) to \(Number.format(range.upperBound))",
                           at: value)
            }
            switch key {
            case "hz": hz = number
            case "ms": milliseconds = number
            default: volume = number
            }
        })
        guard let hz else { throw APIError("\(function): \(what) has no hz (its pitch, e.g. hz = 660)") }
        guard let milliseconds else { throw APIError("\(function): \(what) has no ms (its length, e.g. ms = 150)") }
        return Note(hz: hz, seconds: milliseconds / 1000, volume: volume)
    }

    /// `workout{ sounds = { countdown = "pip", work = "go", rest = false, … } }`: each
    /// value a sound's name, a note or list of notes, or `false` for silence.
    func soundScheme(at index: Int32) throws(APIError) -> SoundScheme {
        try table(at: index, what: "sounds")
        var scheme = SoundScheme.standard
        let table = lua_absindex(stack.L, index)
        var failure: APIError?
        stack.forEachPair(table) {
            guard failure == nil else { return }
            do throws(APIError) {
                guard stack.type(at: -2) == LUA_TSTRING, let key = stack.string(at: -2) else {
                    throw APIError("\(function): sounds has a key \(stack.describe(at: -2)); its keys are moments "
                                   + "(\(SoundScheme.momentKeys.joined(separator: ", "))) or segment kinds (work, rest, …)")
                }
                let value = lua_absindex(stack.L, -1)
                let sound: Sound?
                switch stack.type(at: value) {
                case LUA_TBOOLEAN where stack.boolean(at: value) == false:
                    sound = nil
                case LUA_TSTRING:
                    sound = try soundName(at: value, what: "sounds.\(key)")
                case LUA_TTABLE:
                    sound = try tone(at: value, what: "sounds.\(key)")
                default:
                    throw fail("sounds.\(key)", "a sound's name, a note, a list of notes or false", at: value)
                }
                scheme.set(key, sound)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return scheme
    }
}
