import Foundation
import XCTest

/// `workout follow` against a real broker (`PrivateBroker`) and a real coach
/// (`workout run --mqtt`): followers' boundaries on the coach's, the coach's commands
/// reaching them, their end with the coach's, and a timeline that is not data refused.
/// The class shares one broker, each test under a prefix of its own (`gym`).
final class FollowTests: XCTestCase {
    static let shared = PrivateBroker.perClass()
    var scratch: URL!
    var broker: PrivateBroker!
    /// The test's own topic prefix.
    var gym = ""

    override func setUpWithError() throws {
        scratch = try scratchFolder("workout-follow")
        gym = PrivateBroker.prefix()
    }

    override func tearDown() {
        broker?.dropSubscribers()
        broker = nil
    }

    override class func tearDown() {
        shared.shutDown()
        super.tearDown()
    }

    /// The same private places as `MQTTTests`' runs.
    var environment: [String: String] { MQTTTests.environment(scratch) }

    func start(_ source: String, _ arguments: [String]) throws -> BackgroundRun {
        let path = scratch.appendingPathComponent("class.lua").path
        try source.write(toFile: path, atomically: false, encoding: .utf8)
        return try BackgroundRun(WorkoutBinary.binary, ["run", path] + MQTTTests.quiet + arguments,
                                 environment: environment, in: scratch)
    }

    static func object(_ text: String) -> [String: Any]? { MQTTTests.object(text) }

    func follow(_ name: String, _ prefix: String? = nil) throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["follow", broker.url + "/" + (prefix ?? gym), "--name", name, "--json",
                                                 "--no-sound", "--no-sensors"],
                          environment: environment, in: scratch)
    }

    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { object(String($0)) }
    }

    /// Each segment's first start on the coach's clock: `t`, plus where a follower joined.
    static func starts(_ text: String) -> [Int: Double] {
        let events = events(text)
        let joined = events.first { $0["event"] as? String == "follow" }?["coach_t"] as? Double ?? 0
        var starts: [Int: Double] = [:]
        for event in events where event["event"] as? String == "segment_start" {
            if let index = event["index"] as? Int, let t = event["t"] as? Double, starts[index] == nil {
                starts[index] = t + joined
            }
        }
        return starts
    }

    static let classRoutine = """
        return workout { name = "Class", countdown = 1, work(8, "Hard"), rest(4, "Easy"), work(8, "Last") }
        """

    /// Two followers from the start, one joining late and one killed and started again:
    /// each segment the coach starts after a follower joined starts on the follower at the
    /// same moment of the coach's clock (within 20 ms at speed 4: 0.08 workout seconds),
    /// every follower ends with the coach, and each said its readings and its leaving on
    /// PREFIX/participants/NAME. The middle segment lasts 6 real seconds, so the late ones
    /// join inside it even when measuring the coach's clock takes its 3 s at most (with a
    /// 1 s middle, a busy machine's late joiner came in during the last segment, and its
    /// join was read as a boundary 2 s late).
    func testFollowersBoundariesFollowTheCoach() throws {
        broker = try Self.shared.get()
        let watch = try broker.subscribe(["\(gym)/participants/#"])
        let ann = try follow("ann"), bob = try follow("bob")
        XCTAssertTrue(eventually { ann.stderr.contains("waiting for the coach") && bob.stderr.contains("waiting") })
        let routine = """
            return workout { name = "Class", countdown = 1, work(8, "Hard"), rest(24, "Easy"), work(8, "Last") }
            """
        let coach = try start(routine, ["--speed", "4", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { coach.stdout.contains("\"index\":2") }, coach.stdout)
        let cat = try follow("cat")
        XCTAssertTrue(eventually { bob.stdout.contains("\"index\":2") }, bob.stdout)
        bob.signal(SIGKILL)
        _ = bob.wait()
        let bob2 = try follow("bob")
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        let coachStarts = Self.starts(coach.stdout)
        XCTAssertEqual(coachStarts.count, 3)
        for (name, run) in [("ann", ann), ("cat", cat), ("bob again", bob2)] {
            XCTAssertEqual(run.wait(), 0, "\(name): \(run.stderr)")
            let starts = Self.starts(run.stdout)
            let followed = starts.filter { index, t in index > 1 && coachStarts[index].map { t > $0 - 1 } ?? false }
            XCTAssertFalse(followed.isEmpty, "\(name) saw boundaries: \(run.stdout)")
            for (index, t) in followed where (run !== cat && run !== bob2) || index == 3 {
                XCTAssertEqual(t, coachStarts[index]!, accuracy: 0.08, "\(name): segment \(index)")
            }
            XCTAssertTrue(run.stdout.contains("\"workout_end\""), name)
        }
        XCTAssertTrue(eventually {
            watch.payloads("\(gym)/participants/ann").contains { $0.contains("\"gone\":true") }
                && watch.payloads("\(gym)/participants/bob").contains { $0.contains("\"gone\":true") }
        }, "\(watch.messages)")
        let reading = try XCTUnwrap(watch.payloads("\(gym)/participants/ann").first.flatMap(Self.object))
        XCTAssertEqual(Set(reading.keys), ["name", "hr", "hr_zone", "power"])
        XCTAssertEqual(reading["name"] as? String, "ann")
    }

    /// The coach's pause, next, resume, +time and back from PREFIX/cmd (mosquitto_pub)
    /// reach the follower: it pauses, skips and resumes, its shortened segment ends on the
    /// coach's moment (each on its own timer), and it goes back as the coach does.
    func testCoachsCommandsReachTheFollower() throws {
        broker = try Self.shared.get()
        let ann = try follow("ann")
        let coach = try start(Self.classRoutine, ["--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { ann.stdout.contains("\"segment_start\"") }, ann.stderr)
        try broker.publish("\(gym)/cmd", #"{"action":"pause"}"#)
        XCTAssertTrue(eventually { ann.stdout.contains("\"event\":\"pause\"") }, ann.stdout)
        try broker.publish("\(gym)/cmd", #"{"action":"next"}"#)
        XCTAssertTrue(eventually { ann.stdout.contains("\"index\":2") }, ann.stdout)
        try broker.publish("\(gym)/cmd", #"{"action":"resume"}"#)
        XCTAssertTrue(eventually { ann.stdout.contains("\"event\":\"resume\"") }, ann.stdout)
        // The 4-s rest made 2 s shorter: both end it on their own timers, 2 s from now.
        try broker.publish("\(gym)/cmd", #"{"action":"add","seconds":-2}"#)
        XCTAssertTrue(eventually { ann.stdout.contains("\"index\":3") }, ann.stdout)
        XCTAssertTrue(eventually { coach.stdout.contains("\"index\":3") }, coach.stdout)
        try broker.publish("\(gym)/cmd", #"{"action":"back"}"#)
        XCTAssertTrue(eventually { ann.stdout.components(separatedBy: "\"segment_start\"").count == 5 }, ann.stdout)
        try broker.publish("\(gym)/cmd", #"{"action":"next"}"#)
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        let coachStarts = Self.starts(coach.stdout), annStarts = Self.starts(ann.stdout)
        XCTAssertEqual(annStarts[3]!, coachStarts[3]!, accuracy: 0.02, "the shortened rest ends on the coach's moment")
        XCTAssertTrue(ann.stdout.contains("\"completed\":true"), "the coach's last skip ends it as the coach's: \(ann.stdout)")
    }

    /// The whole segment reaches the follower as data: round x of n and the block, the
    /// info's text and targets, and an open set that waits for the coach's DONE — the
    /// follower's own timer does not end it at its expected length.
    func testTheWholeSegmentReachesTheFollower() throws {
        broker = try Self.shared.get()
        let ann = try follow("ann")
        let coach = try start("""
            return workout { name = "Full", countdown = 0,
              rounds(2, { work(1, "Push", { text = "Elbows in", watts = 250 }) }, { name = "Main" }),
              work { open = true, name = "Max", expect = 1 }, rest(1, "Easy") }
            """, ["--speed", "2", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { Self.events(ann.stdout).contains { $0["name"] as? String == "Max" } }, ann.stdout + ann.stderr)
        // Well past the set's expected second (the coach's clock at 4.5 s): still in it.
        let statesSeen = try broker.subscribe(["\(gym)/state"])
        XCTAssertTrue(eventually(timeout: 10) {
            statesSeen.payloads("\(gym)/state").compactMap(Self.object).contains { ($0["t"] as? Double ?? 0) > 4.5 }
        }, "\(statesSeen.messages)")
        XCTAssertFalse(Self.events(ann.stdout).contains { $0["name"] as? String == "Easy" }, "the open set waits: \(ann.stdout)")
        try broker.publish("\(gym)/cmd", #"{"action":"done"}"#)
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        let starts = Self.events(ann.stdout).filter { $0["event"] as? String == "segment_start" }
        let pushes = starts.filter { $0["name"] as? String == "Push" }
        XCTAssertEqual(pushes.compactMap { $0["round"] as? Int }, [1, 2], ann.stdout)
        XCTAssertEqual(pushes.compactMap { $0["rounds"] as? Int }, [2, 2])
        XCTAssertEqual(pushes.compactMap { $0["block"] as? String }, ["Main", "Main"])
        let info = try XCTUnwrap(pushes.first?["info"] as? [String: Any], ann.stdout)
        XCTAssertEqual(info["text"] as? String, "Elbows in")
        XCTAssertEqual(info["watts"] as? Int, 250)
        XCTAssertTrue(starts.contains { $0["name"] as? String == "Easy" }, "the coach's DONE ended the set: \(ann.stdout)")
    }

    /// The coach killed: the broker's last will (offline) ends the follower with a message.
    func testFollowerEndsWhenTheCoachDies() throws {
        broker = try Self.shared.get()
        let ann = try follow("ann")
        let coach = try start(Self.classRoutine, ["--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { ann.stdout.contains("\"segment_start\"") }, ann.stderr)
        coach.signal(SIGKILL)
        _ = coach.wait()
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        XCTAssertTrue(ann.stderr.contains("the coach's workout is over (\(gym)/availability: offline)"), ann.stderr)
        XCTAssertTrue(ann.stdout.contains("\"completed\":false"), ann.stdout)
    }

    /// The coach's routine plays a sound file of its own: the timeline names it and never
    /// carries it, and the follower says once that it plays its built-in sound there.
    func testTheCoachsOwnSoundFileIsNamedNeverSent() throws {
        broker = try Self.shared.get()
        // A tenth of a second of silence beside the routine: 16-bit mono WAV at 8 kHz.
        func le(_ value: Int, _ bytes: Int) -> Data { Data((0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) }) }
        var wav = Data("RIFF".utf8) + le(36 + 1600, 4) + Data("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        wav += le(8_000, 4) + le(16_000, 4) + le(2, 2) + le(16, 2) + Data("data".utf8) + le(1600, 4) + Data(count: 1600)
        try wav.write(to: scratch.appendingPathComponent("gong.wav"))
        let ann = try follow("ann")
        let coach = try start("""
            return workout { name = "Gong", countdown = 0, sounds = { work = "gong.wav" }, work(8, "Hard") }
            """, ["--speed", "4", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { ann.stdout.contains("\"segment_start\"") }, ann.stderr)
        let timeline = try broker.subscribe(["\(gym)/timeline"])
        XCTAssertTrue(eventually { !timeline.payloads("\(gym)/timeline").isEmpty })
        let published = timeline.payloads("\(gym)/timeline").joined()
        XCTAssertTrue(published.contains(#""own":{"files":["gong.wav"],"notes":false}"#), published)
        XCTAssertFalse(published.contains("RIFF"), "the file itself never crosses")
        XCTAssertEqual(coach.wait(), 0, coach.stderr)
        XCTAssertEqual(ann.wait(), 0, ann.stderr)
        let notes = ann.stderr.split(separator: "\n").filter { $0.contains("sounds of its own") }
        XCTAssertEqual(notes, ["workout: the coach's routine plays sounds of its own (gong.wav): a follower never "
                               + "receives sound files, and plays its built-in sounds in their place"])
    }

    /// A timeline that is Lua code, not data, is refused with a clear error and nothing runs.
    func testFollowerRefusesATimelineThatIsNotData() throws {
        broker = try Self.shared.get()
        try broker.publish("\(gym)/timeline", #"return workout { on_start = function() os.exit() end }"#, retain: true)
        try broker.publish("\(gym)/state", #"{"phase":"running","segment":1,"t":1,"left":3,"deadline":4,"duration":4}"#,
                           retain: true)
        try broker.publish("\(gym)/availability", "online", retain: true)
        let ann = try follow("ann")
        XCTAssertEqual(ann.wait(), 1, ann.stdout)
        XCTAssertTrue(ann.stderr.contains("\(gym)/timeline: the timeline is not a workout plan as data"), ann.stderr)
        XCTAssertFalse(ann.stdout.contains("workout_start"))
    }

    /// Without an address the athlete file's `mqtt = URL` names the broker; a name that
    /// cannot be part of a topic is a usage error, and so is none at all.
    func testTheAthleteFileNamesTheBrokerAndTheNameIsChecked() throws {
        broker = try Self.shared.get()
        try broker.publish("\(gym)/timeline", "not a plan", retain: true)
        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mqtt = \(broker.url)/\(gym)\n".write(to: config.appendingPathComponent("athlete"), atomically: false, encoding: .utf8)
        let fromFile = try BackgroundRun(WorkoutBinary.binary, ["follow", "--name", "ann", "--no-sound"],
                                         environment: environment, in: scratch)
        XCTAssertEqual(fromFile.wait(), 1, fromFile.stderr)
        XCTAssertTrue(fromFile.stderr.contains("\(gym)/timeline: the timeline is not a workout plan as data"), fromFile.stderr)
        for (name, said) in [("a/b", "the name may hold only letters, digits"), ("\u{1b}[31m", "got \\27[31m"),
                             (String(repeating: "x", count: 33), "longer than 32 characters")] {
            let bad = try BackgroundRun(WorkoutBinary.binary, ["follow", broker.url + "/\(gym)", "--name", name],
                                        environment: environment, in: scratch)
            XCTAssertEqual(bad.wait(), 64, bad.stderr)
            XCTAssertTrue(bad.stderr.contains(said), bad.stderr)
            XCTAssertFalse(bad.stderr.contains("\u{1b}"), "escaped")
        }
        var nameless = environment
        nameless["USER"] = "no body"
        nameless["LOGNAME"] = "no body"
        let noName = try BackgroundRun(WorkoutBinary.binary, ["follow", broker.url + "/\(gym)"], environment: nameless, in: scratch)
        XCTAssertEqual(noName.wait(), 64, noName.stderr)
        XCTAssertTrue(noName.stderr.contains("--name is needed"), noName.stderr)
    }

    /// A timeline past the follower's bound (4 MiB and a little) is refused, its size said.
    func testFollowerRefusesATimelineTooLarge() throws {
        broker = try Self.shared.get()
        let path = scratch.appendingPathComponent("huge.json").path
        try Data(repeating: UInt8(ascii: " "), count: 5 * 1024 * 1024).write(to: URL(fileURLWithPath: path))
        try broker.publish("\(gym)/timeline", file: path, retain: true)
        let ann = try follow("ann")
        XCTAssertEqual(ann.wait(), 1, ann.stdout)
        XCTAssertTrue(ann.stderr.contains("\(gym)/timeline: the timeline is 5242880 bytes, more than a follower reads"), ann.stderr)
    }
}

/// The coach's and a follower's sounds recorded from one sound server. The coach's
/// countdown is a note of its own at volume 0 (silent; not a built-in sound, so a follower
/// plays its default pip there) and its hook plays a knock (523 Hz) half a second before
/// each boundary, which a follower never hears of (a hook is code); boundaries are silent
/// (`false`, which the follower takes as data). Each follower pip (1 kHz, a second before
/// a boundary on its clock) must land half a second before the coach's knock, within 20 ms.
/// On PulseAudio and on PipeWire (pipewire-pulse), the two servers a desktop runs.
final class FollowSoundTests: XCTestCase {
    func testAFollowersSoundsLandOnTheCoachsSeconds() throws {
        try assertAFollowersSoundsLandOnTheCoachsSeconds(on: .pulseaudio)
    }

    func testOnPipeWireAFollowersSoundsLandOnTheCoachsSeconds() throws {
        try assertAFollowersSoundsLandOnTheCoachsSeconds(on: .pipewire)
    }

    private func assertAFollowersSoundsLandOnTheCoachsSeconds(on kind: PrivateSoundServer.Kind) throws {
        let server = try PrivateSoundServer(kind)
        defer { server.stop() }
        let broker = try PrivateBroker()
        defer { broker.shutDown() }
        var environment = MQTTTests.environment(server.directory)
        environment["PULSE_SERVER"] = server.environment["PULSE_SERVER"]
        environment["HOME"] = server.environment["HOME"]
        environment["XDG_RUNTIME_DIR"] = server.environment["XDG_RUNTIME_DIR"]
        let path = server.directory.appendingPathComponent("coach.lua").path
        try """
            return workout { name = "Knocks", countdown = 1,
              sounds = { countdown = { hz = 700, ms = 50, volume = 0 }, work = false, finish = false },
              rounds(3, { segment { kind = "work", duration = 3, cues = { [-0.5] = function() sound("pause") end } } }) }
            """.write(toFile: path, atomically: false, encoding: .utf8)
        let follower = try BackgroundRun(WorkoutBinary.binary, ["follow", broker.url + "/gym", "--name", "ann", "--json",
                                                                "--no-sensors"],
                                         environment: environment, in: server.directory)
        XCTAssertTrue(eventually { follower.stderr.contains("waiting for the coach") }, follower.stderr)
        let (coach, recording) = try server.record { () throws -> BackgroundRun in
            let coach = try BackgroundRun(WorkoutBinary.binary,
                                          ["run", path, "--json", "--no-history", "--no-notify", "--no-sensors", "--allow-sleep",
                                           "--music", "off", "--mqtt", broker.url + "/gym"],
                                          environment: environment, in: server.directory)
            XCTAssertEqual(coach.wait(), 0, coach.stderr)
            return coach
        }
        XCTAssertEqual(follower.wait(), 0, follower.stderr)
        XCTAssertTrue(coach.stdout.contains("\"workout_end\""))
        let onsets = recording.onsets()
        let knocks = onsets.filter { abs($0.hz - 523) < 50 }.map(\.seconds)
        let pips = onsets.filter { abs($0.hz - 1000) < 30 }.map(\.seconds)
        XCTAssertEqual(knocks.count, 3, "the coach's knocks: \(onsets)")
        var distances: [Double] = []
        for knock in knocks {
            guard let pip = pips.min(by: { abs($0 - (knock - 0.5)) < abs($1 - (knock - 0.5)) }) else { continue }
            distances.append((pip - (knock - 0.5)) * 1000)
        }
        XCTAssertEqual(distances.count, 3, "\(kind): a follower's pip before each knock: \(pips)")
        print("\(kind): a follower's pips against the coach's seconds, ms: \(distances)")
        for distance in distances {
            XCTAssertLessThan(abs(distance), 20, "\(kind): the follower's pips against the coach's seconds, ms: \(distances)")
        }
    }
}

/// A follower's own strap (the fake BlueZ) on PREFIX/participants/NAME: its name, heart
/// rate and zone (from its own athlete file), power null, nothing more, at most once a
/// second, and `gone` at the end.
final class FollowParticipantTests: XCTestCase {
    func testAFollowersStrapIsPublishedOnceASecond() throws {
        let broker = try PrivateBroker()
        defer { broker.shutDown() }
        let watch = try broker.subscribe(["gym/participants/#"])
        let url = broker.url + "/gym"
        let quiet = "--json --no-sound"
        try FakeBlueZ.run(devices: [FakeBlueZ.strap], """
            mkdir -p "$DIR/config/workout"; printf 'max_hr = 200\\n' > "$DIR/config/workout/athlete"
            printf 'return workout { name = "Class", work(8, "Hard") }\\n' > "$DIR/class.lua"
            "$WORKOUT" follow '\(url)' --name ann \(quiet) --sensor C0:FF:EE:00:00:01 > "$DIR/follower" 2> "$DIR/ferr" &
            follower=$!
            waitfor "waiting for the coach" "$DIR/ferr"
            "$WORKOUT" run "$DIR/class.lua" \(quiet) --no-notify --allow-sleep --no-history --no-sensors --mqtt '\(url)' > "$DIR/coach" 2>&1
            wait $follower; echo "exit $?" >> "$DIR/report"
            """) { outcome in
            XCTAssertEqual(outcome.report, ["exit 0"], (try? String(contentsOfFile: outcome.directory + "/ferr", encoding: .utf8)) ?? "")
        }
        XCTAssertTrue(eventually { watch.payloads("gym/participants/ann").contains { $0.contains("\"gone\":true") } },
                      "\(watch.messages)")
        let readings = watch.payloads("gym/participants/ann").compactMap(MQTTTests.object).filter { $0["gone"] == nil }
        // 8 s, not 5: beside the parallel lane's five jobs a follower once had only one
        // reading published in a 5 s class (a clean clone's run; its join and its strap's
        // first reading came late).
        XCTAssertGreaterThanOrEqual(readings.count, 3, "\(watch.messages)")
        XCTAssertLessThanOrEqual(readings.count, 9, "at most once a second over 8 s")
        for reading in readings {
            XCTAssertEqual(Set(reading.keys), ["name", "hr", "hr_zone", "power"])
        }
        XCTAssertTrue(readings.contains { [72, 150].contains($0["hr"] as? Int) && $0["hr_zone"] is Int }, "\(readings)")
    }
}
