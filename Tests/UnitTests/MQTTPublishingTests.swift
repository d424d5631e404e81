@testable import Broker
@testable import ClassPublishing
import Foundation
import RemoteControl
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// `run --mqtt`'s pure parts: the broker's address, the state payload on the virtual
/// clock, the topics and Home Assistant's discovery configs. The broker itself is in
/// Tests/SystemTests/MQTTTests.swift.
final class MQTTPublishingTests: XCTestCase {
    /// The bytes the command line hides (`CommandLinePasswords`) are the password the
    /// address is read with, in each form an argument may take; nothing else is touched.
    func testAPasswordIsFoundInAnArgumentWhereTheAddressReadsIt() throws {
        let cases: [(String, String?)] = [
            ("mqtts://coach:s3cret@broker/gym", "s3cret"), ("--mqtt=MQTT://coach:s%40c:r@h:1884/gym", "s%40c:r"),
            ("mqtts://a:p@ss@[::1]:1/x", "p@ss"), ("mqtt://coach:@h/gym", ""), ("mqtt://coach@h/gym", nil),
            ("mqtt://h/a:b@c", nil), ("http://a:b@h/x", nil), ("gym:a@b", nil), ("mqtt:/", nil), ("", nil),
        ]
        for (argument, password) in cases {
            let bytes = Array(argument.utf8)
            XCTAssertEqual(BrokerAddress.passwordRange(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }, password,
                           argument)
            if let password, !password.isEmpty {
                let address = argument.hasPrefix("--") ? String(argument.split(separator: "=", maxSplits: 1)[1]) : argument
                XCTAssertEqual(try BrokerAddress(parsing: address).password, BrokerAddress.percentDecoded(password), argument)
            }
        }
        let handed = try XCTUnwrap(BrokerAddress.withoutPassword("--mqtt=mqtts://coach:s%40cret@h/gym"))
        XCTAssertEqual(handed.argument, "--mqtt=mqtts://coach@h/gym")
        XCTAssertEqual(handed.password, "s@cret")
        XCTAssertEqual(BrokerAddress.withoutPassword("mqtts://coach:%zz@h/gym")?.password, .some(nil), "not percent-encoded")
    }

    func testAddressesAreReadWithTheirDefaults() throws {
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://broker/gym"),
                       BrokerAddress(host: "broker", port: 1883, prefix: "gym"))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtts://broker.lan/home/bike"),
                       BrokerAddress(tls: true, host: "broker.lan", port: 8883, prefix: "home/bike"))
        XCTAssertEqual(try BrokerAddress(parsing: "MQTT://coach:s%40cret%2F1@10.0.0.2:1884/gym"),
                       BrokerAddress(host: "10.0.0.2", port: 1884, user: "coach", password: "s@cret/1", prefix: "gym"))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://[::1]:1999/a"), BrokerAddress(host: "::1", port: 1999, prefix: "a"))
        XCTAssertEqual(try BrokerAddress(parsing: "mqtt://solo@h/a"), BrokerAddress(host: "h", user: "solo", prefix: "a"))
    }

    /// OpenSSL's line in libmosquitto's log is the only word of a failed handshake: its
    /// reason, escaped, and for an unknown CA the way to trust one; other lines are not TLS.
    func testATLSFailureSaysWhyAndHowToTrustAPrivateCA() {
        let unknown = BrokerConnection.tlsProblem("OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed")
        XCTAssertEqual(unknown, "certificate verify failed (the broker's certificate is not signed by a CA trusted here: "
                       + "name its CA with --mqtt-ca FILE, or mqtt_ca = FILE in the athlete file)")
        XCTAssertEqual(BrokerConnection.tlsProblem("OpenSSL Error[0]: error:0A00010B:SSL routines::wrong \u{1B}[2Jversion"),
                       "wrong \\27[2Jversion")
        XCTAssertNil(BrokerConnection.tlsProblem("Client workout-1 sending CONNECT"))
    }

    func testBadAddressesSayWhatWasExpectedWithoutThePassword() {
        let cases: [(String, String)] = [
            ("broker/gym", "expected mqtt://HOST"),
            ("http://broker/gym", "must start with mqtt:// or mqtts://"),
            ("mqtt://broker", "needs a topic prefix"),
            ("mqtt://broker/", "is empty"),
            ("mqtt://broker/gym/#", "wildcard"),
            ("mqtt://broker/a+b", "wildcard"),
            ("mqtt://broker/gym/", "empty level"),
            ("mqtt://broker//gym", "empty level"),
            ("mqtt://broker/$SYS", "starts with $"),
            ("mqtt://broker/g\u{1B}[2Jym", "g\\27[2Jym holds a space"),
            ("mqtt://broker:0/gym", "port must be a number from 1 to 65535, got 0"),
            ("mqtt://broker:65536/gym", "got 65536"),
            ("mqtt://broker:x/gym", "got x"),
            ("mqtt://:1883/gym", "has no host"),
            ("mqtt://bro ker/gym", "is not a host name"),
            ("mqtt://[::1/gym", "closing ]"),
            ("mqtt://:secret@broker/gym", "user name before @ is empty"),
            ("mqtt://u:%zz@broker/gym", "not percent-encoded"),
            ("mqtt://broker/" + String(repeating: "a", count: 201), "longer than 200 bytes"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try BrokerAddress(parsing: text), text) { error in
                let message = (error as? BrokerAddressError)?.message ?? ""
                XCTAssertTrue(message.contains(expected), "\(text): \(message)")
                XCTAssertFalse(message.contains("\u{1B}"), "escaped: \(message)")
            }
        }
        XCTAssertThrowsError(try BrokerAddress(parsing: "ftp://user:hunter2@broker/gym")) { error in
            XCTAssertFalse((error as? BrokerAddressError)?.message.contains("hunter2") ?? true, "the password is never shown")
        }
        let address = try? BrokerAddress(parsing: "mqtt://coach:hunter2@broker/gym")
        XCTAssertEqual(address?.description, "mqtt://coach@broker:1883/gym", "never the password")
    }

    func testTopicsLiveUnderThePrefixAndTheNodeIDIsHomeAssistants() {
        let topics = ClassTopics(prefix: "home/bike-1.x")
        XCTAssertEqual([topics.state, topics.events, topics.availability, topics.command, topics.timeline],
                       ["home/bike-1.x/state", "home/bike-1.x/events", "home/bike-1.x/availability",
                        "home/bike-1.x/cmd", "home/bike-1.x/timeline"])
        XCTAssertEqual(topics.nodeID, "workout_home_bike-1_x_" + String(SHA256.hex(Array("home/bike-1.x".utf8)).prefix(8)))
        XCTAssertEqual(ClassTopics(prefix: "gym").nodeID, "workout_gym", "a prefix Home Assistant takes as it is stays as it is")
    }

    /// Every character outside `[A-Za-z0-9-]` becomes `_`, so `gym/a` and `gym_a` (and
    /// `gym.a`) shared one node id: one class's discovery configs overwrote the other's.
    func testPrefixesThatReadAlikeToHomeAssistantGetNodeIDsOfTheirOwn() {
        let ids = ["gym/a", "gym_a", "gym.a", "gym a", "gym-a", "gyma"].map { ClassTopics(prefix: $0).nodeID }
        XCTAssertEqual(Set(ids).count, ids.count, "\(ids)")
        for id in ids {
            XCTAssertTrue(id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }, id)
        }
    }

    /// The payload on the virtual clock: the shown second, the next segment, the target.
    func testTheStateFollowsTheWorkoutOnTheVirtualClock() throws {
        let harness = try Harness("""
            return workout { name = "Ride", work(20, "Hard", { watts = 250 }), rest(10, "Easy") }
            """)
        func state() -> [String: JSONValue] {
            let snapshot = harness.session.snapshot()
            let json = StatePayload.json(snapshot, targetWatts: StatePayload.targetWatts(snapshot, ftp: nil))
            guard case .object(let fields) = json else { return [:] }
            return Dictionary(fields, uniquingKeysWith: { $1 })
        }
        XCTAssertEqual(state()["phase"], .string("ready"))
        XCTAssertEqual(state()["segment"], .null)
        XCTAssertEqual(state()["remaining"], .null)
        harness.session.start()
        harness.clock.advance(by: 5.3)
        var now = state()
        XCTAssertEqual(now["phase"], .string("running"))
        XCTAssertEqual(now["segment"], .integer(1))
        XCTAssertEqual(now["segments"], .integer(2))
        XCTAssertEqual(now["name"], .string("Hard"))
        XCTAssertEqual(now["kind"], .string("work"))
        XCTAssertEqual(now["remaining"], .integer(15), "14.7 s left shows 15, as the display does")
        XCTAssertEqual(now["target_watts"], .integer(250))
        XCTAssertEqual(now["hr"], .null)
        XCTAssertEqual(now["t"], .number(5.3))
        XCTAssertEqual(now["deadline"], .number(20))
        XCTAssertEqual(now["workout_left"], .integer(25))
        XCTAssertEqual(now["next"], .object([("name", .string("Easy")), ("kind", .string("rest")), ("duration", .number(10))]))
        harness.session.apply(.pause)
        now = state()
        XCTAssertEqual(now["phase"], .string("paused"))
        XCTAssertEqual(now["deadline"], .null)
        harness.session.apply(.resume)
        harness.clock.advance(by: 15)
        now = state()
        XCTAssertEqual(now["segment"], .integer(2))
        XCTAssertEqual(now["target_watts"], .null, "a rest without a target has none")
        XCTAssertEqual(now["next"], .null)
        harness.clock.run()
        XCTAssertEqual(state()["phase"], .string("finished"))
    }

    /// A routine that generates its segments has its timeline published again whenever
    /// the session made more (each one once, the segments written before kept as they
    /// were), and once more when its generator ended, saying no more will come; nothing
    /// when nothing changed. Past its bound it says once that it was too large.
    func testTheTimelineIsPublishedAgainAsTheRoutineMakesSegments() throws {
        let source = """
            return workout { name = "Grow", countdown = 0, warmup(2, "Warm"),
              generate(function() for i = 1, 2 do coroutine.yield(work(3, "Step " .. i)) end end), cooldown(2) }
            """
        func read(_ payload: String?) throws -> (names: [String], more: Bool) {
            let value = try XCTUnwrap(payload.flatMap { JSONReader.value($0) }, payload ?? "none")
            guard case .array(let segments)? = value["segments"], case .bool(let more)? = value["more"] else {
                XCTFail("not a timeline: \(payload ?? "")")
                return ([], false)
            }
            return (segments.compactMap { if case .string(let name)? = $0["name"] { name } else { nil } }, more)
        }
        let harness = try Harness(source)
        var published = PublishedTimeline(largest: SessionPublisher.largestTimeline)
        let first = published.payload(harness.session.routine)
        XCTAssertEqual(try read(first).names, ["Warm"])
        XCTAssertEqual(try read(first).more, true)
        XCTAssertNil(published.payload(harness.session.routine), "unchanged: not again")
        harness.session.start()
        XCTAssertNil(published.payload(harness.session.routine), "the warm-up was known")
        harness.clock.advance(by: 2)
        let second = published.payload(harness.session.routine)
        XCTAssertEqual(try read(second).names, ["Warm", "Step 1"])
        XCTAssertEqual(try read(second).more, true)
        let firstEntry = try XCTUnwrap(first?.components(separatedBy: "\"segments\":[").last?.dropLast(2))
        XCTAssertEqual(second?.contains(firstEntry), true, "the first segment's entry is the same text")
        harness.clock.advance(by: 3)
        XCTAssertEqual(try read(published.payload(harness.session.routine)).names, ["Warm", "Step 1", "Step 2"])
        harness.clock.advance(by: 3)
        let last = published.payload(harness.session.routine)
        XCTAssertEqual(try read(last).names, ["Warm", "Step 1", "Step 2", "Cooldown"], "the steps after the generator")
        XCTAssertEqual(try read(last).more, false)
        harness.clock.run()
        XCTAssertNil(published.payload(harness.session.routine))

        let again = try Harness(source)
        var unbounded = PublishedTimeline(largest: SessionPublisher.largestTimeline)
        let firstSize = try XCTUnwrap(unbounded.payload(again.session.routine)).utf8.count
        var small = PublishedTimeline(largest: firstSize + 10)
        XCTAssertEqual(try read(small.payload(again.session.routine)).names, ["Warm"])
        again.session.start()
        again.clock.advance(by: 2)
        XCTAssertEqual(small.payload(again.session.routine), #"{"name":"Grow","too_large":true}"#)
        again.clock.run()
        XCTAssertNil(small.payload(again.session.routine), "said once")
    }

    func testDiscoveryConfigsHaveUniqueIDsAndOneDevice() throws {
        let topics = ClassTopics(prefix: "gym")
        let configs = DiscoveryConfigs.all(topics, version: "9.9")
        XCTAssertEqual(configs.count, 10)
        var ids = Set<String>()
        for config in configs {
            guard case .object(let fields) = config.payload else { return XCTFail("not an object") }
            let object = Dictionary(fields, uniquingKeysWith: { $1 })
            guard case .string(let id)? = object["unique_id"] else { return XCTFail("no unique_id in \(config.topic)") }
            XCTAssertTrue(ids.insert(id).inserted, "unique_id \(id) twice")
            XCTAssertTrue(config.topic.hasPrefix("homeassistant/"), config.topic)
            XCTAssertTrue(config.topic.hasSuffix("/workout_gym/\(id.dropFirst("workout_gym_".count))/config"), config.topic)
            XCTAssertEqual(object["availability_topic"], .string("gym/availability"))
        }
        let buttons = configs.filter { $0.topic.hasPrefix("homeassistant/button/") }
        for button in buttons {
            guard case .object(let fields) = button.payload,
                  case .string(let press)? = Dictionary(fields, uniquingKeysWith: { $1 })["payload_press"] else {
                return XCTFail("no payload_press")
            }
            XCTAssertNoThrow(try ControlRequest.command(from: Data(press.utf8)), "the page's parser takes \(press)")
        }
    }
}

