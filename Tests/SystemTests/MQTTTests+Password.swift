import Foundation
import XCTest

/// The broker's password and the process list: typed into the address it was in
/// `/proc/PID/cmdline` (what `ps` shows every user) for the whole run, and `--serve` handed
/// it on to `workout-serve` in its arguments. Now it is hidden at the start, never handed
/// on, and better given from a file, the environment or the athlete file.
extension MQTTTests {
    /// What `ps` shows of a process: `/proc/PID/cmdline`, its NULs as spaces.
    static func commandLine(of pid: pid_t) -> String {
        let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
    }

    func follower(_ arguments: [String], environment more: [String: String] = [:]) throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["follow"] + arguments + ["--name", "ann", "--json", "--no-sound", "--no-sensors"],
                          environment: environment.merging(more) { $1 }, in: scratch)
    }

    /// A password in the address of `run --mqtt` and of `follow` gets them in, and is gone
    /// from their command lines while they run; each says once, without the password, that
    /// it was visible until then and how to give it instead.
    func testAPasswordInTheAddressIsHiddenFromTheProcessList() throws {
        broker = try PrivateBroker(login: ("coach", "s3cret"))
        let watch = try broker.subscribe(["\(gym)/#"])
        let url = "mqtt://coach:s3cret@127.0.0.1:\(broker.port)/\(gym)"
        let coach = try start("return workout { name = \"Ps\", countdown = 0, work(30) }", ["--mqtt=" + url, "--insecure"])
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online"] }, "the password got the coach in: \(watch.messages)")
        let shown = Self.commandLine(of: coach.pid)
        XCTAssertFalse(shown.contains("s3cret"), shown)
        XCTAssertTrue(shown.contains("--mqtt=mqtt://coach:******@127.0.0.1:\(broker.port)/\(gym)"), shown)

        let ann = try follower([url, "--insecure"])
        XCTAssertTrue(eventually { ann.stdout.contains(#""event":"follow""#) }, "the password got the follower in: \(ann.stderr)")
        let followerShown = Self.commandLine(of: ann.pid)
        XCTAssertFalse(followerShown.contains("s3cret"), followerShown)
        XCTAssertTrue(followerShown.contains(" follow mqtt://coach:******@127.0.0.1"), followerShown)

        coach.signal(SIGTERM)
        XCTAssertEqual(coach.wait(), 143)
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online", "offline"] }, "\(watch.messages)")
        XCTAssertFalse(watch.messages.contains { $0.payload.contains("s3cret") },
                       "never published: not in the state, events, timeline or discovery configs")
        for run in [coach, ann] {
            let warning = "workout: mqtt: the password of mqtt://coach@127.0.0.1:\(broker.port)/\(gym) was in the process "
                + "list (ps), readable by every user of this machine, until workout hid it as it started; give it with "
                + "--mqtt-password-file FILE or WORKOUT_MQTT_PASSWORD instead (docs/mqtt.md)"
            XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.contains("password") }, [Substring(warning)], run.stderr)
            XCTAssertFalse(run.stderr.contains("s3cret") || run.stdout.contains("s3cret"))
        }
    }

    /// `run --serve` is `workout-serve` by `exec`, with `workout`'s arguments: the password
    /// is not among them (it goes through the environment, this user's alone), and the
    /// run still gets in.
    func testWithServeThePasswordIsNotHandedOnInTheArguments() throws {
        broker = try PrivateBroker(login: ("coach", "s3cret"))
        let watch = try broker.subscribe(["\(gym)/#"])
        let url = "mqtt://coach:s3cret@127.0.0.1:\(broker.port)/\(gym)"
        let run = try start("return workout { name = \"Serve\", countdown = 0, work(30) }",
                            ["--mqtt", url, "--insecure", "--serve", "127.0.0.1:0"])
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online"] },
                      "workout-serve got in with the password: \(watch.messages) \(run.stderr)")
        let shown = Self.commandLine(of: run.pid)
        XCTAssertTrue(shown.contains("workout-serve"), "the run is workout-serve's now: \(shown)")
        XCTAssertFalse(shown.contains("s3cret"), shown)
        XCTAssertTrue(shown.contains(" mqtt://coach@127.0.0.1:\(broker.port)/\(gym) "), shown)
        run.signal(SIGTERM)
        XCTAssertEqual(run.wait(), 143)
        XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.contains("password") }.count, 1,
                       "said once, by workout, not again by workout-serve: \(run.stderr)")
    }

    /// The password from `--mqtt-password-file`, from `WORKOUT_MQTT_PASSWORD` and from the
    /// athlete file's `mqtt_password_file` (relative to its folder) gets the run in, with
    /// nothing said; a follower takes it the same ways. A wrong one does not get in.
    func testThePasswordFromAFileOrTheEnvironmentGetsIn() throws {
        broker = try PrivateBroker(login: ("coach", "s3cret"))
        let watch = try broker.subscribe(["file/#", "env/#", "athlete/#", "wrong/#"])
        let address = "mqtt://coach@127.0.0.1:\(broker.port)"
        let passwordFile = scratch.appendingPathComponent("mqtt-password").path
        try "s3cret\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
        let source = "return workout { name = \"Pw\", countdown = 0, work(1) }"

        let ann = try follower([address + "/file", "--mqtt-password-file", passwordFile, "--insecure"])
        XCTAssertTrue(eventually { ann.stderr.contains("waiting for the coach") }, ann.stderr)
        // Four real seconds for the follower to join: with the parallel lane's five jobs beside
        // it, a follower once took over 1.5 s (and said the class ended before it could join).
        let fromFile = try start("return workout { name = \"Pw\", countdown = 0, work(8, \"Go\") }",
                                 ["--speed", "2", "--mqtt", address + "/file", "--mqtt-password-file", passwordFile, "--insecure"])
        XCTAssertEqual(fromFile.wait(), 0, fromFile.stderr)
        XCTAssertEqual(fromFile.stderr, "")
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        XCTAssertTrue(ann.stdout.contains(#""name":"Go""#), "the follower got in with the file's password: \(ann.stdout)")
        XCTAssertTrue(eventually { watch.payloads("file/availability") == ["online", "offline"] }, "\(watch.messages)")

        let fromEnvironment = try BackgroundRun(WorkoutBinary.binary,
                                                ["run", try routine(source)] + Self.quiet
                                                    + ["--speed", "4", "--mqtt", address + "/env", "--insecure"],
                                                environment: environment.merging(["WORKOUT_MQTT_PASSWORD": "s3cret"]) { $1 },
                                                in: scratch)
        XCTAssertEqual(fromEnvironment.wait(), 0, fromEnvironment.stderr)
        XCTAssertEqual(fromEnvironment.stderr, "")
        XCTAssertTrue(eventually { watch.payloads("env/availability") == ["online", "offline"] }, "\(watch.messages)")

        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: passwordFile, toPath: config.appendingPathComponent("broker-password").path)
        try "mqtt = \(address)/athlete\nmqtt_password_file = broker-password\n"
            .write(to: config.appendingPathComponent("athlete"), atomically: false, encoding: .utf8)
        let fromAthleteFile = try start(source, ["--speed", "4", "--insecure"])
        XCTAssertEqual(fromAthleteFile.wait(), 0, fromAthleteFile.stderr)
        XCTAssertEqual(fromAthleteFile.stderr, "")
        XCTAssertTrue(eventually { watch.payloads("athlete/availability") == ["online", "offline"] }, "\(watch.messages)")
        try FileManager.default.removeItem(at: config.appendingPathComponent("athlete"))

        try "wr0ng\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
        let wrong = try start(source, ["--speed", "4", "--mqtt", address + "/wrong", "--mqtt-password-file", passwordFile,
                                       "--insecure"])
        XCTAssertEqual(wrong.wait(), 0, wrong.stderr)
        XCTAssertTrue(wrong.stdout.contains(#""completed":true"#), "the workout ran on")
        XCTAssertFalse(wrong.stderr.contains("wr0ng"), wrong.stderr)
        XCTAssertTrue(watch.payloads("wrong/availability").isEmpty, "a wrong password does not get in: \(watch.messages)")
        XCTAssertFalse(watch.messages.contains { $0.payload.contains("s3cret") }, "never published")
    }

    /// A password file that is missing, a FIFO (it waited for a writer), a folder, empty,
    /// of two lines or too large is one error naming the file, before anything runs: from
    /// the command line (exit 64) of `run` and `follow`, and from the athlete file (exit 1,
    /// its line named). So is one for an address without a user, or over plain mqtt://.
    func testABadPasswordFileIsOneClearError() throws {
        let fifo = scratch.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        func file(_ name: String, _ text: String) throws -> String {
            let path = scratch.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        let good = try file("good", "s3cret\n")
        let cases: [(path: String, address: String, said: String)] = [
            ("/nonexistent/password", "mqtts://coach@127.0.0.1:1/gym",
             "--mqtt-password-file: cannot read the password file /nonexistent/password"),
            (fifo, "mqtts://coach@127.0.0.1:1/gym",
             "--mqtt-password-file: the password file \(fifo): not a regular file (expected a password file)"),
            (scratch.path, "mqtts://coach@127.0.0.1:1/gym",
             "--mqtt-password-file: the password file \(scratch.path): it is a directory, not a password file"),
            (try file("empty", "\n"), "mqtts://coach@127.0.0.1:1/gym", "is empty"),
            (try file("two", "one\ntwo\n"), "mqtts://coach@127.0.0.1:1/gym", "holds more than one line"),
            (try file("large", String(repeating: "x", count: 5000)), "mqtts://coach@127.0.0.1:1/gym",
             "a password file may be at most 4 KiB"),
            (good, "mqtts://127.0.0.1:1/gym", "--mqtt-password-file: the address names no user for the password"),
            (good, "mqtt://coach@127.0.0.1:1/gym", "--mqtt-password-file: a password over mqtt:// crosses the network"),
        ]
        let began = Date()
        let source = "return workout { name = \"Pw\", work(1) }"
        for (path, address, said) in cases {
            let run = try start(source, ["--mqtt", address, "--mqtt-password-file", path])
            XCTAssertEqual(run.wait(), 64, "\(path): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(said), "\(said): \(run.stderr)")
            XCTAssertEqual(run.stderr.components(separatedBy: "--mqtt-password-file:").count, 2, "said once: \(run.stderr)")
            XCTAssertEqual(run.stdout, "", "nothing ran")
        }
        let follow = try follower(["mqtts://coach@127.0.0.1:1/gym", "--mqtt-password-file", fifo])
        XCTAssertEqual(follow.wait(), 64)
        XCTAssertTrue(follow.stderr.contains("--mqtt-password-file: the password file \(fifo): not a regular file"), follow.stderr)

        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        for (line, said) in [("missing", "athlete:2: mqtt_password_file: cannot read the password file \(config.path)/missing"),
                             (fifo, "athlete:2: mqtt_password_file: the password file \(fifo): not a regular file")] {
            try "mqtt = mqtts://coach@127.0.0.1:1/gym\nmqtt_password_file = \(line)\n"
                .write(to: config.appendingPathComponent("athlete"), atomically: false, encoding: .utf8)
            for run in [try start(source, []), try follower([])] {
                XCTAssertEqual(run.wait(), 1, run.stderr)
                XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
                XCTAssertTrue(run.stderr.contains(said), run.stderr)
                XCTAssertEqual(run.stdout, "", "nothing ran")
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 20, "a FIFO is not waited on")
    }
}
