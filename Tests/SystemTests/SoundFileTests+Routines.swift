import Foundation
import Platform
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// Sound files as routines name them, loaded as `run` and `check` load them: decoded
/// once while the routine loads, every refusal an error naming the routine's file and
/// line, and the user's defaults in `sounds.lua` under the routine's own.
extension SoundFileTests {
    var directories: UserDirectories {
        UserDirectories(environment: ["HOME": scratch.path, "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path])
    }

    /// Writes `source` as `name` beside the sound files and loads it, decoding its files.
    func loadRoutine(_ source: String, name: String = "r.lua") throws(RoutineError) -> Routine {
        let path = routineFolder.appendingPathComponent(name)
        try! source.write(to: path, atomically: false, encoding: .utf8)
        return try RoutineLoader.load(path: path.path, soundFiles: .decoded(directories))
    }

    func loadingError(_ source: String) -> String? {
        do throws(RoutineError) {
            _ = try loadRoutine(source)
            return nil
        } catch {
            return error.message
        }
    }

    func testARoutinesFilesAreDecodedOnceWithTheirVolume() throws {
        try make("gong.ogg", hz: 300, seconds: 1, rate: 44_100)
        try make("applause.flac", in: userSounds, hz: 900, seconds: 0.5, rate: 48_000)
        let routine = try loadRoutine("""
            return workout { name = "Files", sound_files = { "gong.ogg" },
              sounds = { rest = "gong.ogg", finish = { file = "applause.flac", volume = 0.8 } },
              work(1), rest(1), on_segment_start = function() sound("gong.ogg") end }
            """)
        let rest = try XCTUnwrap(routine.sounds.start(of: "rest")?.file)
        XCTAssertEqual(rest.rate, 44_100)
        XCTAssertEqual(rest.seconds, 1, accuracy: 0.01)
        XCTAssertEqual(routine.sounds.finish?.fileVolume, 0.8)
        XCTAssertEqual(routine.sounds.finish?.file?.seconds ?? 0, 0.5, accuracy: 0.01, "found in the user's folder")
        XCTAssertEqual(routine.soundFiles.map(\.name), ["applause.flac", "gong.ogg"], "each once, by name")
        XCTAssertEqual(routine.sounds.start(of: "work")?.name, "go", "what the routine does not name stays")
        // What the player converts before the start: each file as it is played.
        XCTAssertEqual(Set(routine.fileSounds.map { "\($0.name) \($0.fileVolume)" }),
                       ["gong.ogg 1.0", "applause.flac 0.8"])
    }

    func testEachRefusalNamesTheRoutinesFileAndLine() throws {
        try make("long.wav", seconds: 31, rate: 8_000, channels: 1)
        try Data("not a sound at all".utf8).write(to: routineFolder.appendingPathComponent("text.ogg"))
        let outside = try make("outside.wav", in: scratch)
        try FileManager.default.createSymbolicLink(at: routineFolder.appendingPathComponent("link.wav"), withDestinationURL: outside)
        let head = "-- sounds\nreturn workout { name = \"Bad\", work(1),\n"
        let cases: [(String, String)] = [
            ("sounds = { rest = \"missing.ogg\" }",
             "r.lua:2: workout: sounds.rest: sound file \"missing.ogg\" is neither beside the routine nor in \(userSounds.path)"),
            ("sounds = { rest = \"text.ogg\" }", "r.lua:2: workout: sounds.rest: sound file \"text.ogg\" is not a sound libsndfile can read"),
            ("sounds = { finish = \"long.wav\" }", "r.lua:2: workout: sounds.finish: sound file \"long.wav\" lasts more than 30 s"),
            ("sounds = { work = \"../outside.wav\" }", "r.lua:2: workout: sounds.work: sound file \"../outside.wav\" names a parent folder"),
            ("sounds = { work = \"\(outside.path)\" }", "r.lua:2: workout: sounds.work: sound file \"\(outside.path)\" is outside"),
            ("sounds = { work = \"link.wav\" }", "r.lua:2: workout: sounds.work: sound file \"link.wav\" is outside"),
            ("sound_files = { \"missing.wav\" }", "r.lua:2: workout: sound_files: sound file \"missing.wav\" is neither beside"),
        ]
        for (field, expected) in cases {
            let message = loadingError(head + field + " }")
            XCTAssertTrue(message?.hasPrefix(expected) == true, "\(field): \(message ?? "loaded")")
        }
        // `plan`, `list` and `export` read no file: the same routine loads.
        XCTAssertNoThrow(try RoutineLoader.load(source: head + "sounds = { rest = \"missing.ogg\" } }", fileName: "r.lua",
                                                directory: routineFolder.path))
    }

    func testARoutinesFilesMayLastTwoMinutesInAll() throws {
        for index in 1...5 { try make("part\(index).wav", seconds: 25, rate: 8_000, channels: 1) }
        let message = loadingError("""
            return workout { name = "Many", sound_files = { "part1.wav", "part2.wav", "part3.wav", "part4.wav", "part5.wav" }, work(1) }
            """)
        XCTAssertEqual(message, "r.lua:1: workout: sound_files: sound file \"part5.wav\" lasts 25 s and the files named "
                                + "before it 100 s; a routine's sound files may last 120 s in all")
    }

    func testTheUsersDefaultSoundsLieUnderTheRoutinesOwn() throws {
        try make("gong.wav", in: userSounds, hz: 300, seconds: 0.5)
        try make("bell.wav", in: userSounds, hz: 1200, seconds: 0.5)
        let config = scratch.appendingPathComponent("config/workout/sounds.lua")
        try "-- every routine\nsounds { rest = \"gong.wav\", finish = { file = \"bell.wav\", volume = 0.5 }, work = false }\n"
            .write(to: config, atomically: false, encoding: .utf8)
        XCTAssertEqual(UserSounds.path(directories), config.path)
        let plain = try loadRoutine("return workout { name = \"Plain\", work(1), rest(1) }")
        XCTAssertEqual(plain.sounds.start(of: "rest")?.name, "gong.wav")
        XCTAssertEqual(plain.sounds.finish?.fileVolume, 0.5)
        XCTAssertNil(plain.sounds.start(of: "work"))
        XCTAssertEqual(plain.soundFiles.map(\.name).sorted(), ["bell.wav", "gong.wav"], "sound-check plays the defaults it keeps")
        let own = try loadRoutine("return workout { name = \"Own\", sounds = { rest = \"rest\", work = \"go\" }, work(1), rest(1) }")
        XCTAssertEqual(own.sounds.start(of: "rest")?.name, "rest", "the routine wins")
        XCTAssertEqual(own.sounds.start(of: "work")?.name, "go")
        XCTAssertEqual(own.sounds.finish?.name, "bell.wav", "keys it does not name keep the user's")
        // The defaults' files come from the user's folder only, and a bad one names sounds.lua's line.
        try make("beside.wav")
        try "sounds {\n  rest = \"beside.wav\" }\n".write(to: config, atomically: false, encoding: .utf8)
        // Lua names a chunk by its path, shortened to "..." and its end past 59 bytes.
        let chunk = config.path.utf8.count <= 59 ? config.path : "..." + String(config.path.suffix(56))
        XCTAssertEqual(loadingError("return workout { name = \"Plain\", work(1) }"),
                       "\(chunk):1: sounds: sounds.rest: sound file \"beside.wav\" is not in \(userSounds.path)")
    }
}
