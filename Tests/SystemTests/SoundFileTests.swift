import Foundation
import Platform
import SoundFiles
import XCTest
@testable import IntervalEngine

/// Sound files decoded by libsndfile, each made by sox at test time: every format sox
/// writes, mixed to mono at the file's rate; truncated, mislabelled, empty, too long and
/// too large files refused or read without a crash; and the two folders a name is found
/// in, with every way out of them refused. `make test` installs sox and libsndfile1-dev.
final class SoundFileTests: XCTestCase {
    var scratch: URL!
    var routineFolder: URL!
    var userSounds: URL!
    var folders: SoundFolders { SoundFolders(folders: [routineFolder.path, userSounds.path]) }

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("workout-sounds-\(UUID().uuidString.prefix(8))")
        routineFolder = scratch.appendingPathComponent("routines")
        userSounds = scratch.appendingPathComponent("config/workout/sounds")
        for folder in [routineFolder!, userSounds!] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: scratch)
        super.tearDown()
    }

    /// A sine of `hz` for `seconds`, made by sox into `folder/name` (its format from the
    /// name's extension, unless `type` says otherwise).
    @discardableResult
    func make(_ name: String, in folder: URL? = nil, hz: Int = 440, seconds: Double = 0.5, rate: Int = 44_100,
              channels: Int = 2, type: String? = nil) throws -> URL {
        precondition(seconds > 0, "sox's synth of 0 s never ends")
        let sox = "/usr/bin/sox"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: sox), "sox is not installed (make test installs it)")
        let path = (folder ?? routineFolder).appendingPathComponent(name)
        let typed = type.map { ["-t", $0] } ?? []
        let made = try spawn(sox, ["-n", "-r", "\(rate)", "-c", "\(channels)"] + typed
                                  + [path.path, "synth", "\(seconds)", "sine", "\(hz)", "vol", "0.5"])
        XCTAssertEqual(made.status, 0, "sox made \(name)")
        return path
    }

    /// `value` as `bytes` little-endian bytes.
    func le(_ value: Int, _ bytes: Int) -> Data {
        Data((0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) })
    }

    /// Zero crossings, halved, per second.
    func pitch(_ sound: SoundFile) -> Double {
        var crossings = 0
        for index in 1..<sound.samples.count where (sound.samples[index - 1] < 0) != (sound.samples[index] < 0) {
            crossings += 1
        }
        return Double(crossings) / 2 / sound.seconds
    }

    func error(_ body: () throws(SoundFileError) -> Any) -> String? {
        do throws(SoundFileError) {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    func testEachFormatSoxWritesDecodesToMonoAtItsRate() throws {
        for (name, rate) in [("a.wav", 44_100), ("a.flac", 48_000), ("a.ogg", 22_050)] {
            try make(name, hz: 440, seconds: 0.5, rate: rate, channels: 2)
            let sound = try SoundFile.load(name, folders: folders)
            XCTAssertEqual(sound.name, name)
            XCTAssertEqual(sound.rate, rate, name)
            XCTAssertEqual(sound.seconds, 0.5, accuracy: 0.01, name)
            XCTAssertEqual(pitch(sound), 440, accuracy: 10, name)
            XCTAssertEqual(Double(sound.samples.map { abs($0) }.max() ?? 0), 0.5, accuracy: 0.05, "\(name): the channels are averaged")
        }
    }

    /// Opus and MP3, which sox here cannot write: made by ffmpeg (libopus, LAME), read by
    /// libsndfile like the others. Opus decodes at 48 kHz whatever the rate it was made
    /// from; MP3 keeps its rate.
    func testOpusAndMP3Decode() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: ffmpeg), "ffmpeg is not installed (make test installs it)")
        for (name, codec, rate) in [("a.opus", "libopus", 48_000), ("a.mp3", "libmp3lame", 44_100)] {
            let path = routineFolder.appendingPathComponent(name).path
            let made = try spawn(ffmpeg, ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
                                          "aevalsrc=0.5*sin(440*2*PI*t):s=\(rate):d=1",
                                          "-c:a", codec, "-y", path])
            XCTAssertEqual(made.status, 0, "ffmpeg made \(name)")
            let sound = try SoundFile.load(name, folders: folders)
            XCTAssertEqual(sound.rate, rate, name)
            XCTAssertEqual(sound.seconds, 1, accuracy: 0.1, name)
            XCTAssertEqual(pitch(sound), 440, accuracy: 10, name)
            XCTAssertEqual(Double(sound.samples.map { abs($0) }.max() ?? 0), 0.5, accuracy: 0.08, name)
        }
    }

    func testAFileIsReadByWhatItHoldsNotByItsName() throws {
        try make("really-ogg.wav", hz: 660, type: "ogg")
        XCTAssertEqual(pitch(try SoundFile.load("really-ogg.wav", folders: folders)), 660, accuracy: 10)
        try "not a sound at all\n".write(to: routineFolder.appendingPathComponent("text.wav"), atomically: false, encoding: .utf8)
        let message = try XCTUnwrap(error { () throws(SoundFileError) in try SoundFile.load("text.wav", folders: folders) })
        XCTAssertTrue(message.hasPrefix("sound file \"text.wav\" is not a sound libsndfile can read ("), message)
        XCTAssertTrue(message.hasSuffix("); WAV, FLAC, Ogg Vorbis, Opus and MP3 can be"), message)
    }

    func testATruncatedFileGivesWhatItHoldsOrAnErrorNeverACrash() throws {
        for name in ["cut.wav", "cut.flac", "cut.ogg"] {
            let path = try make(name, seconds: 2)
            let whole = try Data(contentsOf: path)
            try whole.prefix(whole.count / 2).write(to: path)
            do throws(SoundFileError) {
                let sound = try SoundFile.load(name, folders: folders)
                XCTAssertLessThan(sound.seconds, 1.5, "\(name): only what is left is decoded")
            } catch {
                XCTAssertTrue(error.description.hasPrefix("sound file \"\(name)\""), error.description)
            }
        }
        // Cut inside the header: nothing of it is sound.
        let path = try make("header.flac")
        try Data(contentsOf: path).prefix(20).write(to: path)
        XCTAssertNotNil(error { () throws(SoundFileError) in try SoundFile.load("header.flac", folders: folders) })
    }

    func testEmptyLongAndLargeFilesAreRefused() throws {
        // A WAV header (16-bit mono, 8 kHz) with no samples after it; sox's `synth 0`
        // would mean a sound without end.
        var header = Data("RIFF".utf8) + le(36, 4) + Data("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        header += le(8_000, 4) + le(16_000, 4) + le(2, 2) + le(16, 2) + Data("data".utf8) + le(0, 4)
        try header.write(to: routineFolder.appendingPathComponent("empty.wav"))
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("empty.wav", folders: folders) },
                       "sound file \"empty.wav\" holds no sound")
        try make("long.ogg", seconds: 31, rate: 8_000, channels: 1)
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("long.ogg", folders: folders) },
                       "sound file \"long.ogg\" lasts more than 30 s; at most 30 s may be named")
        try make("thirty.ogg", seconds: 29.9, rate: 8_000, channels: 1)
        XCTAssertEqual(try SoundFile.load("thirty.ogg", folders: folders).seconds, 29.9, accuracy: 0.01)
        // Refused by its size before anything reads it: a sparse file of 21 MiB.
        let large = routineFolder.appendingPathComponent("large.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: large.path, contents: nil))
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: UInt64(21 * 1024 * 1024))
        try handle.close()
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("large.wav", folders: folders) },
                       "sound file \"large.wav\" is 21 MiB; at most 20 MiB may be named")
    }

    /// A FIFO named as a sound is refused before libsndfile opens it, which would wait for
    /// a writer for ever (and with it `check` and `run`).
    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = routineFolder.appendingPathComponent("pipe.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let folders = folders
        let outcome = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var message: String?
        DispatchQueue.global().async {
            do throws(SoundFileError) {
                _ = try SoundFile.load("pipe.wav", folders: folders)
            } catch {
                message = error.description
            }
            outcome.signal()
        }
        let answered = outcome.wait(timeout: .now() + 10) == .success
        if !answered {
            // Let the blocked reader go: a writer that opens and closes gives it an end.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            outcome.wait()
        }
        XCTAssertTrue(answered, "the decoder waited for a writer")
        XCTAssertEqual(message, "sound file \"pipe.wav\" is not a regular file")
    }

    func testANameIsFoundBesideTheRoutineThenInTheUsersFolder() throws {
        try make("gong.wav", hz: 300)
        try make("gong.wav", in: userSounds, hz: 900)
        try make("bell.wav", in: userSounds, hz: 900)
        try FileManager.default.createDirectory(at: routineFolder.appendingPathComponent("kit"), withIntermediateDirectories: true)
        try make("kit/knock.wav", hz: 500)
        XCTAssertEqual(pitch(try SoundFile.load("gong.wav", folders: folders)), 300, accuracy: 10, "the routine's own first")
        XCTAssertEqual(pitch(try SoundFile.load("bell.wav", folders: folders)), 900, accuracy: 10)
        XCTAssertEqual(pitch(try SoundFile.load("kit/knock.wav", folders: folders)), 500, accuracy: 10)
        XCTAssertEqual(pitch(try SoundFile.load(userSounds.appendingPathComponent("bell.wav").path, folders: folders)), 900,
                       accuracy: 10, "an absolute path inside a folder")
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("none.wav", folders: folders) },
                       "sound file \"none.wav\" is neither beside the routine nor in \(userSounds.path)")
        XCTAssertEqual(SoundFolders(routinePath: "/r/legs.lua", directories: UserDirectories(environment: ["XDG_CONFIG_HOME": "/c"])),
                       SoundFolders(folders: ["/r", "/c/workout/sounds"]))
    }

    func testNothingOutsideTheTwoFoldersIsRead() throws {
        let outside = try make("secret.wav", in: scratch)
        try FileManager.default.createSymbolicLink(at: routineFolder.appendingPathComponent("link.wav"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: routineFolder.appendingPathComponent("out"), withDestinationURL: scratch)
        try make("inside.wav")
        try FileManager.default.createSymbolicLink(at: routineFolder.appendingPathComponent("alias.wav"),
                                                   withDestinationURL: routineFolder.appendingPathComponent("inside.wav"))
        let outsideMessage = "is outside the routine's folder and \(userSounds.path); sound files are read only there"
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("link.wav", folders: folders) },
                       "sound file \"link.wav\" \(outsideMessage)")
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("out/secret.wav", folders: folders) },
                       "sound file \"out/secret.wav\" \(outsideMessage)")
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load(outside.path, folders: folders) },
                       "sound file \"\(outside.path)\" \(outsideMessage)")
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("../secret.wav", folders: folders) },
                       "sound file \"../secret.wav\" names a parent folder (..); sound files are read only "
                       + "beside the routine or in \(userSounds.path)")
        XCTAssertEqual(try SoundFile.load("alias.wav", folders: folders).seconds, 0.5, accuracy: 0.01,
                       "a link that stays inside is followed")
        XCTAssertEqual(error { () throws(SoundFileError) in try SoundFile.load("/etc/passwd", folders: folders) },
                       "sound file \"/etc/passwd\" \(outsideMessage)")
    }
}
