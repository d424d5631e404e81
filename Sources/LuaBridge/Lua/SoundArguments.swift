import CLua
import IntervalEngine
import SoundFiles
import WorkoutValues

/// Reading sounds from Lua: a built-in sound's name, a sound file's name, a file with its
/// volume `{ file = "gong.ogg", volume = 0.8 }`, one note `{ hz =, ms =, volume = }` or a
/// list of notes, for `sound()`, `tone{}` and `workout{ sounds = …, sound_files = … }`. A
/// note out of range, or a file that cannot be played, is an error naming what is wrong.
extension Arguments {
    static let noteFields = RoutineTypes.note.fieldNames
    static let soundFileFields = RoutineTypes.soundFile.fieldNames

    /// A built-in sound by name, else the sound file of that name, decoded now (while the
    /// routine loads).
    func namedSound(at index: Int32, what: String) throws(APIError) -> Sound {
        guard let name = stack.string(at: index) else {
            throw fail(what, "a sound's name (\(Sound.names.joined(separator: ", "))) or a sound file's", at: index)
        }
        if let sound = Sound.named(name) { return sound }
        guard Sound.isFileName(name) else { throw unknownSound(at: index) }
        return Sound(file: try soundFile(name, at: index, what: what))
    }

    /// A name that is neither a built-in sound nor a file's (which has an extension).
    func unknownSound(at index: Int32) -> APIError {
        APIError("\(function): unknown sound \(stack.describe(at: index)) (the sounds are "
                 + "\(Sound.names.joined(separator: ", ")), or a sound file's name with its extension, such as \"gong.ogg\")")
    }

    /// The sound file `name`, decoded once for the routine; its refusal names `what`.
    func soundFile(_ name: String, at index: Int32, what: String) throws(APIError) -> SoundFile {
        guard VisibleText.isPlainName(name) else { throw fail(what, "a file's name without control characters", at: index) }
        do throws(SoundFileError) {
            return try state.routineSoundFiles.file(name)
        } catch {
            throw APIError("\(function): \(what): \(error.description)")
        }
    }

    /// `{ file = "applause.flac", volume = 0.8 }`.
    func soundFileWithVolume(at index: Int32, what: String) throws(APIError) -> Sound {
        var name: (String, Int32)?
        var volume = 1.0
        try fields(of: index, known: Arguments.soundFileFields, what: what, field: { key, value throws(APIError) in
            switch key {
            case "file":
                guard let text = stack.string(at: value), stack.type(at: value) == LUA_TSTRING else {
                    throw fail("\(what).file", "a sound file's name", at: value)
                }
                name = (text, value)
            default:
                // `PlainNumber.isPlain`: a denormal (`1e-320`) is refused as every typed number is.
                guard let number = stack.number(at: value), PlainNumber.isPlain(number), Note.volumeRange.contains(number) else {
                    throw fail("\(what).volume", "a number from 0 to 1", at: value)
                }
                volume = number
            }
        })
        guard let (text, value) = name else { throw APIError("\(function): \(what) has no file (e.g. file = \"gong.ogg\")") }
        return Sound(file: try soundFile(text, at: value, what: what), volume: volume)
    }

    /// Whether the table at `index` has a `file` field (read raw, no metamethod runs).
    private func isFileTable(at index: Int32) -> Bool {
        lua_pushstring(stack.L, "file")
        let type = lua_rawget(stack.L, index)
        stack.pop()
        return type != LUA_TNIL
    }

    /// `sound_files = { "knock.ogg", "whistle.wav" }`: files the hooks may play with
    /// `sound()`, decoded now.
    func soundFileList(at index: Int32) throws(APIError) {
        try table(at: index, what: "sound_files")
        var names: [Int: (String, Int32)] = [:]
        try fields(of: index, known: [], what: "sound_files", field: { _, _ in }) { position, value throws(APIError) in
            guard stack.type(at: value) == LUA_TSTRING, let name = stack.string(at: value) else {
                throw fail("sound_files[\(position)]", "a sound file's name", at: value)
            }
            names[position] = (name, value)
        }
        for (name, value) in try ordered(names, what: "sound file") {
            _ = try soundFile(name, at: value, what: "sound_files")
        }
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
            guard let number = stack.number(at: value), PlainNumber.isPlain(number), range.contains(number) else {
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

    /// `workout{ sounds = { countdown = "pip", work = "gong.ogg", rest = false, … } }`:
    /// each value a sound's or a file's name, a file with its volume, a note or list of
    /// notes, or `false` for silence; over the user's defaults (`UserSounds`).
    func soundScheme(at index: Int32) throws(APIError) -> SoundScheme {
        try table(at: index, what: "sounds")
        var scheme = state.defaultSounds
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
                case LUA_TTABLE where isFileTable(at: value):
                    sound = try soundFileWithVolume(at: value, what: "sounds.\(key)")
                case LUA_TBOOLEAN where stack.boolean(at: value) == false:
                    sound = nil
                case LUA_TSTRING:
                    sound = try namedSound(at: value, what: "sounds.\(key)")
                case LUA_TTABLE:
                    sound = try tone(at: value, what: "sounds.\(key)")
                default:
                    throw fail("sounds.\(key)", "a sound's or a file's name, { file = … }, a note, a list of notes "
                               + "or false", at: value)
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
