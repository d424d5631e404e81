import Foundation
import XCTest

/// The class of `run --mqtt` with a real broker (`PrivateBroker`) and `mosquitto_pub` as
/// the participants: 30 of them at 1 Hz on the page's `/class` in headless Chromium
/// (Fixtures/class_check.py: sorted, coloured by zone, a hostile name shown as text), a
/// flooding one kept to one message a second, the history keeping their averages, and
/// participant 257 ignored with one warning. Readings are pushed to the page
/// (`/class/events`): each is on the screen within tens of milliseconds of its publishing.
/// The class shares one broker, each test under a prefix of its own (`gym`).
final class ClassViewTests: XCTestCase {
    static let shared = PrivateBroker.perClass()
    var scratch: URL!
    var broker: PrivateBroker!
    /// The test's own topic prefix.
    var gym = ""

    override func setUpWithError() throws {
        scratch = try scratchFolder("workout-class")
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

    struct Card: Decodable, Equatable {
        var id: String
        var name: String
        var hr: String
        var power: String
        var colour: String
        var zone: String
    }

    struct Seen: Decodable {
        var by_hr: [Card]
        var by_name: [Card]
        var pwned: Bool
        var flood: [String: Double]
        var latencies: [Double]
    }

    static let zoneColours = ["rgb(187, 187, 187)", "rgb(102, 170, 255)", "rgb(102, 221, 102)",
                              "rgb(255, 221, 68)", "rgb(255, 85, 85)"]

    func testThirtyParticipantsOnTheClassPageAndInTheHistory() throws {
        for program in ["/usr/bin/python3", "/usr/bin/chromium", "/usr/bin/chromedriver"]
            where !FileManager.default.isExecutableFile(atPath: program) {
            throw Missing(program: program)
        }
        broker = try Self.shared.get()
        let watch = try broker.subscribe(["\(gym)/availability"])
        let data = scratch.appendingPathComponent("data")
        let workout = try ServingWorkout(fixtures.appendingPathComponent("serve.lua").path,
                                         ["--mqtt", broker.url + "/\(gym)", "--no-sound", "--no-notify", "--no-sensors",
                                          "--allow-sleep"],
                                         config: scratch.appendingPathComponent("config"), dataHome: data)
        // A failure before the quit below leaves no workout running (its reader thread keeps it alive).
        addTeardownBlock { if workout.process.isRunning { workout.process.terminate() } }
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "online" })
        let classURL = workout.url.replacingOccurrences(of: "/?token=", with: "/class?sort=hr&token=")
        let checker = fixtures.appendingPathComponent("class_check.py").path
        let seconds = 4
        let result = try spawn("/usr/bin/python3", [checker, classURL, String(broker.port), gym, String(seconds)])
        XCTAssertEqual(result.status, 0, "class_check.py failed")
        let seen = try JSONDecoder().decode(Seen.self, from: Data(result.output.utf8))

        // Sorted by heart rate, highest first: p29 (the highest) down to p00.
        XCTAssertEqual(seen.by_hr.map(\.id), (0..<30).reversed().map { String(format: "p%02d", $0) })
        XCTAssertEqual(seen.by_name.count, 30)
        // By name: the hostile name starts with "<", before "Rider …".
        XCTAssertEqual(seen.by_name.first?.id, "p00")
        XCTAssertEqual(seen.by_name.dropFirst().map(\.name), (1..<30).map { String(format: "Rider %02d", $0) })
        for card in seen.by_hr {
            let index = try XCTUnwrap(Int(card.id.dropFirst()))
            let hr = 95 + index * 3 + seconds - 1
            XCTAssertEqual(card.hr, String(hr))
            XCTAssertEqual(card.power, "\(100 + index * 10) W")
            let zone = hr < 114 ? 1 : hr < 133 ? 2 : hr < 152 ? 3 : hr < 171 ? 4 : 5
            XCTAssertEqual(card.colour, Self.zoneColours[zone - 1], "\(card)")
            XCTAssertTrue(card.zone.hasPrefix("Z\(zone) "), "\(card)")
        }
        // The hostile name is text, never markup, cut to 40 characters.
        XCTAssertFalse(seen.pwned)
        XCTAssertEqual(seen.by_name.first?.name, #"<img src=x onerror="window.pwned=1">"# + "\u{1B}[31")
        // 300 messages at once: the burst of 2 and one a second are kept, the rest dropped.
        let kept = try XCTUnwrap(seen.flood["kept"])
        XCTAssertEqual(kept + (seen.flood["dropped"] ?? 0), 300)
        XCTAssertLessThanOrEqual(kept, 2 + (seen.flood["seconds"] ?? 0).rounded(.up) + 1, "\(seen.flood)")
        XCTAssertGreaterThanOrEqual(seen.latencies.count, 30)
        // Pushed, not polled: a reading is on the page within tens of milliseconds of its
        // publishing (polling four times a second took 125 ms at the median, 254 at p99).
        let latencies = seen.latencies.sorted()
        let median = latencies[latencies.count / 2], p95 = latencies[(latencies.count - 1) * 95 / 100]
        XCTAssertLessThan(median, 60, "ms from publishing to the page: \(latencies)")
        XCTAssertLessThan(p95, 150, "ms from publishing to the page: \(latencies)")

        let quit = try workout.request("POST", "/control", headers: ["Authorization: Bearer \(workout.token)"],
                                       body: #"{"action":"quit"}"#)
        XCTAssertEqual(quit.status, 204)
        XCTAssertEqual(workout.waitForExit(), 0)
        // The history line keeps each participant's averages; `workout history` shows them.
        let history = try String(contentsOf: data.appendingPathComponent("workout/history.jsonl"), encoding: .utf8)
        let line = try XCTUnwrap(history.split(separator: "\n").last)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let participants = try XCTUnwrap(entry["participants"] as? [[String: Any]])
        XCTAssertEqual(participants.count, 31, "30 and the flooder")
        let rider = try XCTUnwrap(participants.first { $0["name"] as? String == "Rider 05" })
        XCTAssertEqual(try XCTUnwrap(rider["hr_avg"] as? Double), 110 + Double(seconds - 1) / 2, accuracy: 0.6)
        XCTAssertEqual(rider["hr_max"] as? Int, 110 + seconds - 1)
        XCTAssertEqual(rider["power_avg"] as? Double, 150)
        let shown = try spawn(WorkoutBinary.binary, ["history"],
                              environment: ["XDG_DATA_HOME": data.path, "XDG_CONFIG_HOME": scratch.path])
        XCTAssertTrue(shown.output.contains("class of 31: "), shown.output)
        XCTAssertTrue(shown.output.contains(#"<img src=x onerror="window.pwned=1">\27[31"#), shown.output)
        XCTAssertFalse(shown.output.contains("\u{1B}"), "the terminal gets no escape sequence")
    }

    /// `/class/events` over a plain socket: the whole roster first, each reading pushed the
    /// moment the coach's run keeps it (within tens of milliseconds of `mosquitto_pub`
    /// starting), a flood's dropped messages never, and the stream ended with the workout.
    func testEachKeptReadingIsPushedToTheClassFeed() throws {
        broker = try Self.shared.get()
        let watch = try broker.subscribe(["\(gym)/availability"])
        let workout = try ServingWorkout(fixtures.appendingPathComponent("serve.lua").path,
                                         ["--mqtt", broker.url + "/\(gym)", "--no-sound", "--no-notify", "--no-sensors",
                                          "--allow-sleep"],
                                         config: scratch.appendingPathComponent("config"))
        addTeardownBlock { if workout.process.isRunning { workout.process.terminate() } }
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "online" })
        let head = try workout.request("HEAD", "/class/events?token=\(workout.token)")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-type"], "text/event-stream")

        let feed = try FeedReader(port: workout.port, target: "/class/events?token=\(workout.token)")
        defer { feed.close() }
        XCTAssertNotNil(feed.time(of: #"event: roster\#ndata: {"participants":[],"#), "the roster first")
        let published = Date()
        try broker.publish("\(gym)/participants/ann", #"{"name":"<b>Ann</b>","hr":142,"hr_zone":3,"power":210}"#)
        let shown = try XCTUnwrap(feed.time(of: #"event: participant\#ndata: {"id":"ann","name":"<b>Ann</b>","hr":142,"hr_zone":3,"power":210,"#))
        XCTAssertLessThan(shown.timeIntervalSince(published), 0.1, "pushed as it is kept")

        // Five at once from bob: two kept (the burst), the rest dropped and never pushed.
        for hr in 101...105 { try broker.publish("\(gym)/participants/bob", #"{"hr":\#(hr)}"#) }
        try broker.publish("\(gym)/participants/zed", #"{"hr":99}"#)
        XCTAssertNotNil(feed.time(of: #""id":"zed""#))
        let roster = try workout.request("GET", "/class.json?token=\(workout.token)")
        let people = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(roster.body.utf8)) as? [String: Any])
        let bob = try XCTUnwrap((people["participants"] as? [[String: Any]])?.first { $0["id"] as? String == "bob" })
        let kept = try XCTUnwrap(bob["kept"] as? Int)
        XCTAssertEqual(kept + (bob["dropped"] as? Int ?? -1), 5)
        XCTAssertLessThan(kept, 5, "the flood was held to one a second")
        XCTAssertEqual(feed.text.components(separatedBy: #"event: participant\#ndata: {"id":"bob""#).count - 1, kept,
                       "only kept messages are pushed")

        try workout.quit()
        XCTAssertNotNil(feed.time(of: "\r\n0\r\n\r\n"), "the stream ends with the workout")
    }

    func testTheParticipantPast256IsIgnoredWithOneWarning() throws {
        broker = try Self.shared.get()
        let watch = try broker.subscribe(["\(gym)/availability"])
        let routine = scratch.appendingPathComponent("long.lua").path
        try #"return workout { name = "Long", work(600, "Ride") }"#.write(toFile: routine, atomically: false, encoding: .utf8)
        let run = try BackgroundRun(WorkoutBinary.binary,
                                    ["run", routine, "--json", "--no-history", "--no-sound", "--no-notify", "--no-sensors",
                                     "--allow-sleep", "--mqtt", broker.url + "/\(gym)"],
                                    environment: ["XDG_CONFIG_HOME": scratch.path, "XDG_RUNTIME_DIR": scratch.path,
                                                  "PULSE_SERVER": "unix:/nonexistent/workout-test-sound"],
                                    in: scratch)
        XCTAssertTrue(eventually { watch.payloads("\(gym)/availability").last == "online" })
        for index in 0..<258 {
            try broker.publish("\(gym)/participants/p\(index)", #"{"hr":120}"#)
        }
        try broker.publish("\(gym)/cmd", #"{"action":"quit"}"#)
        XCTAssertEqual(run.wait(), 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("participants") }
        XCTAssertEqual(warnings, ["workout: mqtt: more than 256 participants on \(gym)/participants/+; the others are ignored"])
    }
}
