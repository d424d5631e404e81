import Foundation
import XCTest

/// `run --mqtt` against a real broker (`PrivateBroker`: Debian's mosquitto on a private
/// port), read and commanded with `mosquitto_sub` and `mosquitto_pub`, clients nobody here
/// wrote. The class shares one broker, each test under a prefix of its own (`gym`); the
/// tests that stop theirs, or need a login or TLS, start their own.
final class MQTTTests: XCTestCase {
    static let shared = PrivateBroker.perClass()
    var scratch: URL!
    var broker: PrivateBroker!
    /// The test's own topic prefix.
    var gym = ""
    /// Whether `broker` is the class's (let go of at the end, not stopped).
    private var sharing = false

    override func setUpWithError() throws {
        scratch = try scratchFolder("workout-mqtt")
        gym = PrivateBroker.prefix()
    }

    /// The class's broker, for a test that neither stops it nor needs a login.
    func sharedBroker() throws -> PrivateBroker {
        broker = try Self.shared.get()
        sharing = true
        return broker
    }

    override func tearDown() {
        if sharing { broker?.dropSubscribers() } else { broker?.shutDown() }
        broker = nil
        sharing = false
    }

    override class func tearDown() {
        shared.shutDown()
        super.tearDown()
    }

    var environment: [String: String] { Self.environment(scratch) }

    /// Private places for a run: no sound server, no session bus, its own XDG folders.
    static func environment(_ scratch: URL) -> [String: String] {
        [
            "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
            "XDG_DATA_HOME": scratch.appendingPathComponent("data").path,
            "XDG_RUNTIME_DIR": scratch.path,
            "PULSE_SERVER": "unix:/nonexistent/workout-test-sound",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + scratch.appendingPathComponent("no-bus").path,
        ]
    }

    static let quiet = ["--json", "--no-history", "--no-sound", "--no-notify", "--no-sensors", "--allow-sleep"]

    func routine(_ source: String) throws -> String {
        let path = scratch.appendingPathComponent("routine-\(UUID().uuidString.prefix(6)).lua").path
        try source.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func start(_ source: String, _ arguments: [String]) throws -> BackgroundRun {
        try BackgroundRun(WorkoutBinary.binary, ["run", try routine(source)] + Self.quiet + arguments,
                          environment: environment, in: scratch)
    }

    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    static let threeSegments = """
        return workout { name = "Class", countdown = 1,
          work(2, "Hard", { watts = 200 }), rest(1, "Easy"), work(1, "Last") }
        """

    /// Every `--json` line on PREFIX/events, the same text in the same order; the state
    /// retained after each change, in time order, to `finished`; online, then offline.
    func testStateAndEventsFollowTheRunInOrder() throws {
        broker = try sharedBroker()
        let watch = try broker.subscribe(["\(gym)/#"])
        let run = try start(Self.threeSegments, ["--speed", "4", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "offline" }, "\(watch.messages)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(watch.payloads("\(gym)/events"), lines, "the events are --json's lines, in order")
        XCTAssertTrue(lines.last?.contains("workout_end") ?? false)
        XCTAssertEqual(watch.payloads("\(gym)/availability"), ["online", "offline"])
        let states = watch.payloads("\(gym)/state").compactMap(Self.object)
        XCTAssertEqual(states.count, watch.payloads("\(gym)/state").count, "every state is a JSON object")
        let times = states.compactMap { $0["t"] as? Double }
        XCTAssertEqual(times, times.sorted(), "states in time order")
        let segments = states.compactMap { $0["segment"] as? Int }
        XCTAssertEqual(segments, segments.sorted())
        XCTAssertEqual(Set(segments), [1, 2, 3], "a state for every segment")
        XCTAssertTrue(states.contains { $0["name"] as? String == "Hard" && $0["target_watts"] as? Int == 200 })
        XCTAssertTrue(states.contains { $0["kind"] as? String == "rest" && $0["next"] is [String: Any] })
        XCTAssertEqual(states.last?["phase"] as? String, "finished")
        let timeline = try XCTUnwrap(watch.payloads("\(gym)/timeline").last.flatMap(Self.object))
        XCTAssertEqual((timeline["segments"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["Hard", "Easy", "Last"])
    }

    /// Home Assistant's MQTT discovery as its documentation gives it: a config per entity
    /// on `homeassistant/COMPONENT/NODE_ID/OBJECT_ID/config`, the keys each component
    /// documents (no other), the required ones present, unique ids unique, topics that
    /// exist, templates that read fields the state has, and buttons whose payloads act.
    func testDiscoveryConfigsAreWhatHomeAssistantExpects() throws {
        broker = try sharedBroker()
        let watch = try broker.subscribe(["homeassistant/#", "\(gym)/#"])
        let run = try start("return workout { name = \"HA\", work(1, \"Go\") }",
                            ["--speed", "2", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "offline" })
        // The class's broker keeps earlier tests' configs retained: this test's node only.
        let node = "workout_" + gym
        let configs = watch.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.contains("/\(node)/") }
        // From home-assistant.io's MQTT sensor and button pages (keys we may use).
        let documented: [String: Set<String>] = [
            "sensor": ["availability_topic", "payload_available", "payload_not_available", "device", "device_class",
                       "icon", "json_attributes_topic", "name", "origin", "state_class", "state_topic", "unique_id",
                       "unit_of_measurement", "value_template"],
            "button": ["availability_topic", "payload_available", "payload_not_available", "command_topic", "device",
                       "icon", "name", "origin", "payload_press", "unique_id"],
        ]
        let required = ["sensor": "state_topic", "button": "command_topic"]
        let topicPattern = try NSRegularExpression(pattern: "^homeassistant/(sensor|button)/[a-zA-Z0-9_-]+/[a-zA-Z0-9_-]+/config$")
        let state = try XCTUnwrap(watch.payloads("\(gym)/state").last.flatMap(Self.object))
        let published = Set(watch.messages.map(\.topic))
        var ids = Set<String>()
        var presses: [String] = []
        var fieldsShown: [String] = []
        for config in configs {
            let range = NSRange(config.topic.startIndex..., in: config.topic)
            XCTAssertNotNil(topicPattern.firstMatch(in: config.topic, range: range), config.topic)
            let component = String(config.topic.split(separator: "/")[1])
            let body = try XCTUnwrap(Self.object(config.payload), config.payload)
            XCTAssertTrue(Set(body.keys).isSubset(of: documented[component] ?? []),
                          "undocumented keys in \(config.topic): \(Set(body.keys).subtracting(documented[component] ?? []))")
            XCTAssertNotNil(body[required[component] ?? ""], "\(config.topic) needs \(required[component] ?? "")")
            let id = try XCTUnwrap(body["unique_id"] as? String)
            XCTAssertTrue(ids.insert(id).inserted, "unique_id \(id) twice")
            let device = try XCTUnwrap(body["device"] as? [String: Any])
            XCTAssertFalse((device["identifiers"] as? [String] ?? []).isEmpty, "a device needs identifiers")
            XCTAssertNotNil((body["origin"] as? [String: Any])?["name"], "an origin needs a name")
            for key in ["state_topic", "json_attributes_topic", "availability_topic"] {
                if let topic = body[key] as? String { XCTAssertTrue(published.contains(topic), "\(key) \(topic) was never published") }
            }
            if let template = body["value_template"] as? String {
                let field = template.replacingOccurrences(of: "{{ value_json.", with: "").replacingOccurrences(of: " }}", with: "")
                XCTAssertTrue(state.keys.contains(field), "\(template) reads a field the state has")
                fieldsShown.append(field)
            }
            if component == "button" {
                XCTAssertEqual(body["command_topic"] as? String, "\(gym)/cmd")
                presses.append(try XCTUnwrap(body["payload_press"] as? String))
            }
        }
        XCTAssertEqual(Set(fieldsShown), ["name", "kind", "remaining", "hr", "hr_zone", "power"])
        XCTAssertTrue(Set(presses).isSuperset(of: [#"{"action":"pause"}"#, #"{"action":"next"}"#, #"{"action":"done"}"#]))
        XCTAssertEqual(configs.count, 10)
    }

    /// A command from mosquitto_pub acts within 200 ms; a bad one is refused on
    /// PREFIX/cmd/refused with one escaped warning; one over 4 KiB is dropped unread; DONE
    /// ends a set as the page's does.
    func testCommandsFromTheBrokerActAsThePagesDo() throws {
        broker = try sharedBroker()
        let watch = try broker.subscribe(["\(gym)/#"])
        let run = try start("return workout { name = \"Cmd\", countdown = 0, work { open = true, name = \"Set\" }, rest(60, \"Rest\") }",
                            ["--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { watch.payloads("\(gym)/events").contains { $0.contains("segment_start") } }, run.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "online" })
        let asked = Date()
        try broker.publish("\(gym)/cmd", #"{"action":"pause"}"#)
        XCTAssertTrue(eventually(every: 0.002) { run.stdout.contains(#""event":"pause""#) }, run.stdout)
        let took = Date().timeIntervalSince(asked)
        XCTAssertLessThan(took, 0.2, "pause acted \(Int(took * 1000)) ms after mosquitto_pub started")
        try broker.publish("\(gym)/cmd", "{\"action\":\"\\u001b[2Jboom\"}")
        XCTAssertTrue(eventually { !watch.payloads("\(gym)/cmd/refused").isEmpty })
        XCTAssertTrue(watch.payloads("\(gym)/cmd/refused")[0].contains(#"unknown action "\27[2Jboom""#), "\(watch.payloads("\(gym)/cmd/refused"))")
        try broker.publish("\(gym)/cmd", "not json")
        XCTAssertTrue(eventually { watch.payloads("\(gym)/cmd/refused").count == 2 })
        try broker.publish("\(gym)/cmd", #"{"action":"next"}"# + String(repeating: " ", count: 5000))
        try broker.publish("\(gym)/cmd", #"{"action":"resume"}"#)
        XCTAssertTrue(eventually { run.stdout.contains(#""event":"resume""#) })
        // A press within a second of a set's start is its start's bounce: wait for a
        // state a second and a half into the set.
        XCTAssertTrue(eventually {
            watch.payloads("\(gym)/state").compactMap(Self.object).contains { ($0["t"] as? Double ?? 0) >= 1.5 }
        })
        try broker.publish("\(gym)/cmd", #"{"action":"done"}"#)
        XCTAssertTrue(eventually { run.stdout.contains(#""by":"athlete""#) }, run.stdout)
        try broker.publish("\(gym)/cmd", #"{"action":"quit"}"#)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertFalse(run.stdout.contains(#""skipped":true"#), "the oversized next was dropped")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("mqtt:") }
        XCTAssertEqual(warnings.count, 1, run.stderr)
        XCTAssertFalse(run.stderr.contains("\u{1B}"), "escaped")
        XCTAssertTrue(run.stderr.contains(#"\27[2Jboom"#), run.stderr)
    }

    /// A command someone left retained on PREFIX/cmd would act on every run that starts:
    /// it is never taken.
    func testARetainedCommandIsNotTaken() throws {
        broker = try sharedBroker()
        try broker.publish("\(gym)/cmd", #"{"action":"quit"}"#, retain: true)
        let watch = try broker.subscribe(["\(gym)/cmd"])
        XCTAssertEqual(watch.payloads("\(gym)/cmd"), [#"{"action":"quit"}"#], "the broker holds it")
        let run = try start("return workout { name = \"Kept\", work(1) }", ["--speed", "2", "--mqtt", broker.url + "/\(gym)"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains(#""completed":true"#), run.stdout)
    }

    /// kill -9: the broker says the last will, `offline`, retained.
    func testTheLastWillSaysOfflineWhenTheRunIsKilled() throws {
        broker = try sharedBroker()
        let watch = try broker.subscribe(["\(gym)/availability"])
        let run = try start("return workout { name = \"Long\", work(60) }", ["--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online"] }, run.stderr)
        run.signal(SIGKILL)
        XCTAssertEqual(run.wait(), 128 + SIGKILL)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online", "offline"] }, "\(watch.messages)")
        let late = try broker.subscribe(["\(gym)/availability"])
        XCTAssertTrue(eventually { late.payloads("\(gym)/availability") == ["offline"] }, "retained for a newcomer")
    }

    /// The broker killed and restarted mid-workout: one warning, the workout and its
    /// timers go on as if nothing happened, and once it is back the retained state and
    /// availability are there again and events flow.
    func testTheBrokerGoingAwayAndComingBackCostsOneWarning() throws {
        broker = try PrivateBroker()
        let first = try broker.subscribe(["\(gym)/#"])
        let run = try start("return workout { name = \"Outage\", countdown = 2, work(5, \"A\"), rest(5, \"B\") }",
                            ["--mqtt", broker.url + "/\(gym)"])
        XCTAssertTrue(eventually { first.payloads("\(gym)/availability") == ["online"] }, run.stderr)
        broker.stop()
        XCTAssertTrue(eventually { run.stderr.contains("mqtt: lost") }, run.stderr)
        try broker.start()
        let second = try broker.subscribe(["\(gym)/#"])
        XCTAssertTrue(eventually { second.payloads("\(gym)/availability").first == "online" }, "\(second.messages)")
        XCTAssertFalse(second.payloads("\(gym)/state").isEmpty, "the state is retained again")
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(eventually { second.payloads("\(gym)/availability").last == "offline" })
        XCTAssertTrue(second.payloads("\(gym)/events").last?.contains("workout_end") ?? false, "\(second.messages)")
        XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.contains("mqtt:") }.count, 1, run.stderr)
        let lateness = run.stdout.split(separator: "\n").compactMap { Self.object(String($0))?["late_ms"] as? Double }
        XCTAssertFalse(lateness.isEmpty)
        XCTAssertLessThan(lateness.max() ?? 0, 50, "timers unaffected by the broker: \(lateness)")
        XCTAssertTrue(run.stdout.contains(#""completed":true"#))
    }

    /// A broker that never answers, plain or TLS: one warning at most, and the run ends
    /// on time — the network thread's back-off sleep does not hold up its end.
    func testARunWhoseBrokerNeverAnswersEndsOnTime() throws {
        broker = try PrivateBroker()
        broker.stop()
        for scheme in ["mqtt", "mqtts"] {
            let began = Date()
            let run = try start("return workout { name = \"Alone\", work(3) }",
                                ["--speed", "1.5", "--mqtt", "\(scheme)://127.0.0.1:\(broker.port)/\(gym)"])
            XCTAssertEqual(run.wait(), 0, run.stderr)
            let took = Date().timeIntervalSince(began)
            XCTAssertLessThan(took, 4, "\(scheme): a 2 s run took \(took) s")
            XCTAssertLessThanOrEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stdout.contains(#""completed":true"#))
        }
    }

    /// A password over plain mqtt:// is refused before anything connects, unless
    /// `--insecure`; with it the broker's password file lets the run in.
    func testAPasswordOverPlainMQTTIsRefusedUnlessInsecure() throws {
        broker = try PrivateBroker(login: ("coach", "s3cret"))
        let watch = try broker.subscribe(["\(gym)/#"])
        let url = "mqtt://coach:s3cret@127.0.0.1:\(broker.port)/\(gym)"
        let source = "return workout { name = \"Pw\", work(1) }"
        let refused = try start(source, ["--mqtt", url])
        XCTAssertEqual(refused.wait(), 64)
        XCTAssertTrue(refused.stderr.contains("a password over mqtt:// crosses the network in plain text"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--insecure"))
        XCTAssertFalse(refused.stderr.contains("s3cret"), "the password is never repeated")
        let allowed = try start(source, ["--mqtt", url, "--insecure", "--speed", "4"])
        XCTAssertEqual(allowed.wait(), 0, allowed.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online", "offline"] }, "\(watch.messages)")
        XCTAssertEqual(allowed.stderr.split(separator: "\n").count, 1, "the one warning of a password typed into the address")
        XCTAssertTrue(allowed.stderr.contains("the password of mqtt://coach@127.0.0.1:\(broker.port)/\(gym) was in the process list"),
                      allowed.stderr)
        XCTAssertFalse(allowed.stderr.contains("s3cret"), "the password is never repeated")
    }

    /// mqtts:// to a broker whose certificate a private CA signed, with a password file
    /// (the broker's, and the client's `--mqtt-password-file`, as docs/mqtt.md shows first):
    /// `--mqtt-ca` trusts that CA and the state arrives, read by `mosquitto_sub --cafile`
    /// and by a follower given the same CA;
    /// the athlete file's `mqtt_ca` (relative to its folder) does the same. Left to the
    /// system's CAs the certificate is refused with one warning saying so, and the
    /// workout runs on to its end.
    func testTLSWithAPrivateCA() throws {
        broker = try PrivateBroker(login: ("coach", "s3cret"), tls: true)
        let ca = try XCTUnwrap(broker.certificates).caFile
        let watch = try broker.subscribe(["\(gym)/#", "file/#"])
        let url = "mqtts://coach@127.0.0.1:\(broker.port)"
        let password = scratch.appendingPathComponent("mqtt-password").path
        try "s3cret\n".write(toFile: password, atomically: false, encoding: .utf8)
        let source = "return workout { name = \"Tls\", countdown = 0, work(1, \"Go\", { watts = 150 }) }"
        let follower = try BackgroundRun(WorkoutBinary.binary, ["follow", url + "/\(gym)", "--mqtt-ca", ca, "--name", "ann",
                                                                "--mqtt-password-file", password,
                                                                "--json", "--no-sound", "--no-sensors"],
                                         environment: environment, in: scratch)
        XCTAssertTrue(eventually { follower.stderr.contains("waiting for the coach") }, follower.stderr)
        // Five real seconds: longer than a follower may take to measure the coach's clock
        // (3 s at most), which a class of 1.5 s outran under AddressSanitizer on a busy machine.
        let trusted = try start("return workout { name = \"Tls\", countdown = 0, work(20, \"Go\", { watts = 150 }) }",
                                ["--speed", "4", "--mqtt", url + "/\(gym)", "--mqtt-ca", ca, "--mqtt-password-file", password])
        XCTAssertEqual(trusted.wait(), 0, trusted.stderr)
        XCTAssertEqual(trusted.stderr, "")
        XCTAssertEqual(follower.wait(), 0, follower.stderr)
        XCTAssertTrue(follower.stdout.contains(#""name":"Go""#), "the follower took the coach's timeline over TLS: \(follower.stdout)")
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online", "offline"] }, "\(watch.messages)")
        let states = watch.payloads("\(gym)/state").compactMap(Self.object)
        XCTAssertTrue(states.contains { $0["name"] as? String == "Go" && $0["target_watts"] as? Int == 150 }, "\(states)")
        XCTAssertEqual(states.last?["phase"] as? String, "finished")

        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ca, toPath: config.appendingPathComponent("class-ca.pem").path)
        try FileManager.default.copyItem(atPath: password, toPath: config.appendingPathComponent("mqtt-password").path)
        try "mqtt = \(url)/file\nmqtt_ca = class-ca.pem\nmqtt_password_file = mqtt-password\n"
            .write(to: config.appendingPathComponent("athlete"), atomically: false, encoding: .utf8)
        let fromFile = try start(source, ["--speed", "4"])
        XCTAssertEqual(fromFile.wait(), 0, fromFile.stderr)
        XCTAssertTrue(eventually { watch.payloads("file/availability") == ["online", "offline"] }, "\(watch.messages)")
        try FileManager.default.removeItem(at: config.appendingPathComponent("athlete"))

        let stranger = try start("return workout { name = \"Stranger\", countdown = 0, work(3) }",
                                 ["--speed", "1.5", "--mqtt", url + "/away", "--mqtt-password-file", password])
        XCTAssertEqual(stranger.wait(), 0, stranger.stderr)
        XCTAssertTrue(stranger.stdout.contains(#""completed":true"#), "the workout ran on")
        let warnings = stranger.stderr.split(separator: "\n")
        XCTAssertEqual(warnings.count, 1, stranger.stderr)
        XCTAssertTrue(warnings.first?.contains("mqtt: TLS with mqtts://coach@127.0.0.1:\(broker.port)/away failed: "
                                               + "certificate verify failed") ?? false, stranger.stderr)
        XCTAssertTrue(stranger.stderr.contains("--mqtt-ca FILE"), stranger.stderr)
        XCTAssertFalse(stranger.stderr.contains("s3cret"))
        XCTAssertTrue(watch.payloads("away/availability").isEmpty, "nothing got through: \(watch.messages)")
    }

    /// `--mqtt-ca` and the athlete file's `mqtt_ca` name a file that can be read, and go
    /// with mqtts://; the file's mistake is named with its line.
    func testABadCAIsRefusedBeforeTheRun() throws {
        let source = "return workout { name = \"Ca\", work(1) }"
        let missing = try start(source, ["--mqtt", "mqtts://127.0.0.1:1/gym", "--mqtt-ca", "/nonexistent/ca.pem"])
        XCTAssertEqual(missing.wait(), 64)
        XCTAssertTrue(missing.stderr.contains("--mqtt-ca: cannot read the CA file /nonexistent/ca.pem"), missing.stderr)
        let plain = try start(source, ["--mqtt", "mqtt://127.0.0.1:1/gym", "--mqtt-ca", "/etc/hostname"])
        XCTAssertEqual(plain.wait(), 64)
        XCTAssertTrue(plain.stderr.contains("--mqtt-ca: a CA goes with an mqtts:// address"), plain.stderr)
        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mqtt = mqtt://127.0.0.1:1/gym\n".write(to: config.appendingPathComponent("athlete"), atomically: false, encoding: .utf8)
        let plainFile = try start(source, ["--mqtt-ca", "/etc/hostname"])
        XCTAssertEqual(plainFile.wait(), 1)
        XCTAssertTrue(plainFile.stderr.contains("--mqtt-ca: a CA goes with an mqtts:// address, not mqtt://127.0.0.1:1/gym"),
                      plainFile.stderr)
        try "mqtt = mqtts://127.0.0.1:1/gym\nmqtt_ca = missing.pem\n".write(to: config.appendingPathComponent("athlete"),
                                                                          atomically: false, encoding: .utf8)
        let missingFromFile = try start(source, [])
        XCTAssertEqual(missingFromFile.wait(), 1)
        XCTAssertTrue(missingFromFile.stderr.contains("athlete:2: mqtt_ca: cannot read the CA file "), missingFromFile.stderr)
        XCTAssertEqual(missing.stdout + plain.stdout + plainFile.stdout + missingFromFile.stdout, "", "nothing ran")
    }

    /// `mqtt = URL` in the athlete file names the broker for every run; a bad one stops
    /// the run with the file and line.
    func testTheAthleteFileNamesTheBroker() throws {
        broker = try sharedBroker()
        let watch = try broker.subscribe(["\(gym)/#"])
        let config = scratch.appendingPathComponent("config/workout")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let athlete = config.appendingPathComponent("athlete")
        try "ftp = 250\nmqtt = \(broker.url)/\(gym)   # the living room\n".write(to: athlete, atomically: false, encoding: .utf8)
        let run = try start("return workout { name = \"File\", work(1, \"Go\", { power = 80 }) }", ["--speed", "4"])
        XCTAssertEqual(run.wait(), 0, run.stderr)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability") == ["online", "offline"] }, "\(watch.messages)")
        let target = watch.payloads("\(gym)/state").compactMap(Self.object).compactMap { $0["target_watts"] as? Int }
        XCTAssertTrue(target.contains(200), "80 % of the file's FTP: \(target)")
        try "mqtt = http://\(UUID())/home\n".write(to: athlete, atomically: false, encoding: .utf8)
        let bad = try start("return workout { name = \"File\", work(1) }", [])
        XCTAssertEqual(bad.wait(), 1)
        XCTAssertTrue(bad.stderr.contains("athlete:1: mqtt: the address must start with mqtt:// or mqtts://"), bad.stderr)
    }

    /// A machine without libmosquitto: the library hidden under /dev/null in a mount
    /// namespace of the run's own (`unshare`, no privilege needed). A run works; `--mqtt`
    /// stops with one error that names the package.
    func testWithoutLibmosquittoOnlyMQTTStops() throws {
        let library = try XCTUnwrap(["x86_64-linux-gnu", "aarch64-linux-gnu", ""].map { "/usr/lib/\($0)/libmosquitto.so.1" }
            .first(where: FileManager.default.fileExists(atPath:)), "libmosquitto1 is installed for the other tests")
        let real = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
        let path = try routine("return workout { name = \"Bare\", work(1) }")
        func hidden(_ arguments: [String]) throws -> BackgroundRun {
            try BackgroundRun("/usr/bin/unshare",
                              ["--user", "--map-root-user", "--mount", "/bin/sh", "-c",
                               "mount --bind /dev/null '\(real)' && exec \"$@\"", "sh",
                               WorkoutBinary.binary, "run", path] + Self.quiet + ["--speed", "4"] + arguments,
                              environment: environment, in: scratch)
        }
        let plain = try hidden([])
        XCTAssertEqual(plain.wait(), 0, plain.stderr)
        XCTAssertTrue(plain.stdout.contains("workout_end"))
        let published = try hidden(["--mqtt", "mqtt://127.0.0.1:1/\(gym)"])
        XCTAssertEqual(published.wait(), 1)
        XCTAssertEqual(published.stderr, "workout: --mqtt: libmosquitto is not installed (Debian: apt install libmosquitto1); "
                       + "everything but --mqtt works without it\n")
        XCTAssertEqual(published.stdout, "", "nothing ran")
    }
}
