@testable import Activity
import Foundation
@testable import History
@testable import IntervalEngine
import PastSessions
import TestSupport
import XCTest

/// A session with samples, on the virtual clock, recorded by the history and activity
/// recorders and exported as FIT and TCX; Garmin's FIT SDK and fitdecode read the FIT
/// back, xmllint checks the TCX against its schema, and every message, field and total
/// is checked against the session.
final class ActivityFileTests: XCTestCase {
    private var directory: URL!
    /// The wall clock of the session's start.
    private let base = 1_800_000_000.0

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-activity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private let intervals = """
        return workout { name = "Threshold 3×30", countdown = 0,
          warmup(60, "Easy spin"), rounds(3, { work(30, "Hard"), rest(30, "Easy") }), cooldown(60, "Spin down") }
        """

    /// The session's laps: (name, kind's FIT intensity, start, elapsed, timer), with the
    /// pause from 75 s to 95 s in the first Hard.
    private let expectedLaps: [(String, String, Double, Double, Double)] = [
        ("Easy spin", "warmup", 0, 60, 60), ("Hard", "active", 60, 50, 30), ("Easy", "rest", 110, 30, 30),
        ("Hard", "active", 140, 30, 30), ("Easy", "rest", 170, 30, 30), ("Hard", "active", 200, 30, 30),
        ("Easy", "rest", 230, 30, 30), ("Spin down", "cooldown", 260, 60, 60),
    ]

    /// What the sensors say in second `s`: a heart-rate strap half-way through it, a
    /// power meter with cadence at 0.7.
    private func hr(_ s: Int) -> Int { 100 + s % 60 }
    private func power(_ s: Int) -> Int { 150 + s }
    private func cadence(_ s: Int) -> Double { 80 + Double(s % 20) }

    /// Runs the session with samples every second, paused from 75 s to 95 s: the history
    /// file it was recorded in, and its one entry.
    private func recordedSession(samples: Bool = true) throws -> (HistoryFile, HistoryEntry, ActivityRecorder) {
        let harness = try Harness(intervals)
        let clock = harness.clock
        let wall = { [base] in Date(timeIntervalSince1970: base + clock.now) }
        let file = HistoryFile(path: directory.appendingPathComponent("workout/history.jsonl").path)
        let activity = ActivityRecorder(beside: file, clock: wall)
        let history = HistoryRecorder(routine: harness.session.routine, file: file, clock: wall, activity: activity)
        harness.session.subscribe(activity)
        harness.session.subscribe(history)
        if samples {
            for s in 0..<320 {
                _ = clock.schedule(at: Double(s) + 0.5) { _ in activity.record(Sample(hr: self.hr(s)), at: clock.now) }
                _ = clock.schedule(at: Double(s) + 0.7) { _ in
                    activity.record(Sample(power: self.power(s), cadence: self.cadence(s)), at: clock.now)
                }
            }
        }
        _ = clock.schedule(at: 75) { _ in harness.session.apply(.pause) }
        _ = clock.schedule(at: 95) { _ in harness.session.apply(.resume) }
        harness.run()
        XCTAssertNil(history.failure)
        XCTAssertNil(activity.failure)
        let entries = try file.read().entries
        XCTAssertEqual(entries.count, 1)
        return (file, try XCTUnwrap(entries.first), activity)
    }

    func testTheHistoryLineKeepsEachSegmentsLapThePausesAndNamesTheSamples() throws {
        let (file, entry, activity) = try recordedSession()
        XCTAssertEqual(entry.laps.map(\.name), expectedLaps.map(\.0))
        XCTAssertEqual(entry.laps.map(\.kind), ["warmup", "work", "rest", "work", "rest", "work", "rest", "cooldown"])
        XCTAssertEqual(entry.laps.map(\.index), Array(1...8))
        XCTAssertEqual(entry.laps.map(\.start), expectedLaps.map(\.2))
        XCTAssertEqual(entry.laps.map(\.elapsed), expectedLaps.map(\.3))
        XCTAssertEqual(entry.laps.map(\.timer), expectedLaps.map(\.4))
        XCTAssertEqual(entry.pauses, [SessionPause(at: 75, seconds: 20)])
        XCTAssertEqual(entry.elapsed, 320)
        XCTAssertEqual(entry.active, 300)
        let name = try XCTUnwrap(entry.activity)
        XCTAssertEqual(name, "\(ActivityFile.stem(Date(timeIntervalSince1970: base))).csv")
        XCTAssertEqual(activity.path, ActivityFile.path(name, beside: file))
        XCTAssertEqual(activity.written, 320)

        // One record a second, the two sensors' samples of a second in one.
        let contents = try ActivityFile.read(ActivityFile.path(name, beside: file))
        XCTAssertEqual(contents.damaged, 0)
        XCTAssertEqual(contents.records.count, 320)
        for (s, record) in contents.records.enumerated() {
            XCTAssertEqual(record.t, Double(s))
            XCTAssertEqual(record.time.timeIntervalSince1970, base + Double(s) + 0.7, accuracy: 0.001)
            XCTAssertEqual(record.sample, Sample(hr: hr(s), power: power(s), cadence: cadence(s)), "second \(s)")
            XCTAssertEqual(record.segment, expectedLaps.lastIndex { Double(s) >= $0.2 }.map { $0 + 1 }, "second \(s)")
        }
        let text = try String(contentsOfFile: ActivityFile.path(name, beside: file), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(ActivityFile.header + "0,1800000000.700,1,100,150,80,\n"), String(text.prefix(120)))

        // The line reads back as it was written.
        XCTAssertEqual(HistoryEntry(line: entry.json.text), entry)
    }

    func testNoSamplesNoActivityFile() throws {
        let (file, entry, activity) = try recordedSession(samples: false)
        XCTAssertNil(entry.activity)
        XCTAssertNil(activity.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ActivityFile.directory(beside: file)))
        XCTAssertEqual(entry.laps.count, 8)
    }

    /// FIT's seconds for `offset` seconds after the session's start.
    private func fitTime(_ offset: Double) -> Int { Int(base + offset - 631_065_600) }

    private func figures(_ from: Double, _ to: Double) -> (hr: (Int, Int), power: (Int, Int), cadence: (Int, Int)) {
        let seconds = Array(Int(from)..<Int(to))
        func average(_ values: [Double]) -> Int { Int((values.reduce(0, +) / Double(values.count)).rounded()) }
        return ((average(seconds.map { Double(hr($0)) }), seconds.map(hr).max()!),
                (average(seconds.map { Double(power($0)) }), seconds.map(power).max()!),
                (average(seconds.map(cadence)), Int(seconds.map(cadence).max()!)))
    }

    func testTheFITFileIsReadByGarminsSDKAndFitdecodeWithEveryFieldAsTheSessionWas() throws {
        let (file, entry, _) = try recordedSession()
        let (activity, warning) = ActivityExport.activity(entry, beside: file)
        XCTAssertNil(warning)
        let path = directory.appendingPathComponent("session.fit").path
        let bytes = FITActivity.encode(activity, creator: FITActivity.Creator(name: "workout", version: "0.1.0"))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let decoded = try ActivityDecoders.decodeFIT(path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity, "Garmin's SDK finds the header and the CRCs right")
        XCTAssertEqual(decoded.secondErrors, [], "fitdecode reads it with CRC checks on")
        let messages = decoded.garmin

        let fileID = try XCTUnwrap(messages["file_id_mesgs"]?.first)
        XCTAssertEqual(fileID["type"] as? String, "activity")
        XCTAssertEqual(fileID["manufacturer"] as? String, "development")
        XCTAssertEqual(fileID["time_created"] as? Int, fitTime(0))
        XCTAssertEqual(fileID["product_name"] as? String, "workout")
        let device = try XCTUnwrap(messages["device_info_mesgs"]?.first)
        XCTAssertEqual(device["device_index"] as? String, "creator")
        XCTAssertEqual(device["manufacturer"] as? String, "development")
        XCTAssertEqual(device["software_version"] as? Double, 0.1)

        XCTAssertEqual(messages["workout_mesgs"]?.first?["wkt_name"] as? String, "Threshold 3×30")
        let steps = try XCTUnwrap(messages["workout_step_mesgs"])
        XCTAssertEqual(steps.map { $0["wkt_step_name"] as? String }, expectedLaps.map(\.0))
        XCTAssertEqual(steps.map { $0["intensity"] as? String }, expectedLaps.map(\.1))

        let events = try XCTUnwrap(messages["event_mesgs"])
        XCTAssertEqual(events.map { "\($0["event"]!) \($0["event_type"]!) \($0["timestamp"]!)" },
                       ["timer start \(fitTime(0))", "timer stop \(fitTime(75))", "timer start \(fitTime(95))",
                        "timer stop_all \(fitTime(320))"])

        let laps = try XCTUnwrap(messages["lap_mesgs"])
        XCTAssertEqual(laps.count, expectedLaps.count)
        for (number, (lap, want)) in zip(laps, expectedLaps).enumerated() {
            let (_, intensity, start, elapsed, timer) = want
            let figures = figures(start, start + elapsed)
            XCTAssertEqual(lap["message_index"] as? Int, number)
            XCTAssertEqual(lap["wkt_step_index"] as? Int, number)
            XCTAssertEqual(lap["event"] as? String, "lap")
            XCTAssertEqual(lap["event_type"] as? String, "stop")
            XCTAssertEqual(lap["start_time"] as? Int, fitTime(start), "lap \(number)")
            XCTAssertEqual(lap["timestamp"] as? Int, fitTime(start + elapsed), "lap \(number)")
            XCTAssertEqual(lap["total_elapsed_time"] as? Double, elapsed, "lap \(number)")
            XCTAssertEqual(lap["total_timer_time"] as? Double, timer, "lap \(number)")
            XCTAssertEqual(lap["intensity"] as? String, intensity, "lap \(number)")
            XCTAssertEqual(lap["avg_heart_rate"] as? Int, figures.hr.0, "lap \(number)")
            XCTAssertEqual(lap["max_heart_rate"] as? Int, figures.hr.1, "lap \(number)")
            XCTAssertEqual(lap["avg_power"] as? Int, figures.power.0, "lap \(number)")
            XCTAssertEqual(lap["max_power"] as? Int, figures.power.1, "lap \(number)")
            XCTAssertEqual(lap["avg_cadence"] as? Int, figures.cadence.0, "lap \(number)")
            XCTAssertEqual(lap["max_cadence"] as? Int, figures.cadence.1, "lap \(number)")
            XCTAssertEqual(lap["sport"] as? String, "cycling")
        }

        let records = try XCTUnwrap(messages["record_mesgs"])
        XCTAssertEqual(records.count, 320)
        for (s, record) in records.enumerated() {
            XCTAssertEqual(record["timestamp"] as? Int, fitTime(Double(s)), "record \(s)")
            XCTAssertEqual(record["heart_rate"] as? Int, hr(s), "record \(s)")
            XCTAssertEqual(record["power"] as? Int, power(s), "record \(s)")
            XCTAssertEqual(record["cadence"] as? Int, Int(cadence(s)), "record \(s)")
            XCTAssertNil(record["enhanced_speed"], "no sensor gave speed")
        }

        let session = try XCTUnwrap(messages["session_mesgs"]?.first)
        let whole = figures(0, 320)
        XCTAssertEqual(session["start_time"] as? Int, fitTime(0))
        XCTAssertEqual(session["timestamp"] as? Int, fitTime(320))
        XCTAssertEqual(session["total_elapsed_time"] as? Double, 320)
        XCTAssertEqual(session["total_timer_time"] as? Double, 300)
        XCTAssertEqual(session["num_laps"] as? Int, 8)
        XCTAssertEqual(session["first_lap_index"] as? Int, 0)
        XCTAssertEqual(session["avg_heart_rate"] as? Int, whole.hr.0)
        XCTAssertEqual(session["max_heart_rate"] as? Int, whole.hr.1)
        XCTAssertEqual(session["avg_power"] as? Int, whole.power.0)
        XCTAssertEqual(session["max_power"] as? Int, whole.power.1)
        XCTAssertEqual(session["avg_cadence"] as? Int, whole.cadence.0)
        XCTAssertEqual(session["max_cadence"] as? Int, whole.cadence.1)
        XCTAssertEqual(session["sport"] as? String, "cycling")
        XCTAssertEqual(session["trigger"] as? String, "activity_end")
        let summary = try XCTUnwrap(messages["activity_mesgs"]?.first)
        XCTAssertEqual(summary["num_sessions"] as? Int, 1)
        XCTAssertEqual(summary["total_timer_time"] as? Double, 300)
        XCTAssertEqual(summary["type"] as? String, "manual")
        XCTAssertEqual(summary["event"] as? String, "activity")
        XCTAssertEqual(summary["timestamp"] as? Int, fitTime(320))

        // The second decoder finds the same messages.
        let second = decoded.second
        XCTAssertEqual(second["record"]?.count, 320)
        XCTAssertEqual(second["lap"]?.count, 8)
        XCTAssertEqual(second["session"]?.count, 1)
        XCTAssertEqual(second["activity"]?.count, 1)
        XCTAssertEqual(second["lap"]?.map { $0["total_timer_time"] as? Double }, expectedLaps.map(\.4))
        XCTAssertEqual(second["record"]?.map { $0["heart_rate"] as? Int }, (0..<320).map(hr))
    }

    func testTheTCXFileValidatesAgainstItsSchemaWithALapASegmentAndATrackpointASecond() throws {
        let (file, entry, _) = try recordedSession()
        let (activity, _) = ActivityExport.activity(entry, beside: file)
        let text = TCXActivity.encode(activity, creator: FITActivity.Creator(name: "workout", version: "0.1.0"))
        let path = directory.appendingPathComponent("session.tcx").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertNil(try ActivityDecoders.tcxProblems(path))
        XCTAssertEqual(text.components(separatedBy: "<Lap ").count - 1, 8)
        XCTAssertEqual(text.components(separatedBy: "<Trackpoint>").count - 1, 320)
        XCTAssertEqual(text.components(separatedBy: "<Intensity>Resting</Intensity>").count - 1, 3)
        XCTAssertTrue(text.contains("<Notes>Easy spin</Notes>"))
        XCTAssertTrue(text.contains("<TotalTimeSeconds>30</TotalTimeSeconds>"))
        XCTAssertTrue(text.contains("<Trackpoint><Time>\(TCXActivity.time(Date(timeIntervalSince1970: base + 0.7)))</Time>"
                                    + "<HeartRateBpm><Value>100</Value></HeartRateBpm><Cadence>80</Cadence>"
                                    + "<Extensions><ax:TPX><ax:Watts>150</ax:Watts></ax:TPX></Extensions></Trackpoint>"))
    }

    /// Without samples, laps only: still a file Garmin's SDK reads without a warning, and a
    /// valid TCX; a name with markup, quotes and a control character comes through whole
    /// or left out, never breaking either file.
    func testWithoutSamplesTheFilesHoldTheLapsOnly() throws {
        var entry = HistoryEntry(program: "<b>\"Tabata\" & co\u{1}", file: "/r/t.lua", sha256: "",
                                 started: Date(timeIntervalSince1970: base), ended: Date(timeIntervalSince1970: base + 50),
                                 completed: true, elapsed: 50, segmentsDone: 2, segments: 2, workSeconds: 20, active: 50)
        entry.laps = [SessionLap(index: 1, name: "Go <now>", kind: "work", start: 0, elapsed: 20, timer: 20),
                      SessionLap(index: 2, name: "Breathe", kind: "rest", start: 20, elapsed: 30, timer: 30)]
        let activity = Activity(entry: entry)
        let fit = directory.appendingPathComponent("laps.fit").path
        _ = FileManager.default.createFile(atPath: fit, contents: Data(FITActivity.encode(activity, creator: .init(name: "workout", version: "1.2"))))
        let decoded = try ActivityDecoders.decodeFIT(fit)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity)
        XCTAssertEqual(decoded.secondErrors, [])
        XCTAssertEqual(decoded.garmin["record_mesgs"]?.count ?? 0, 0)
        XCTAssertEqual(decoded.garmin["lap_mesgs"]?.map { $0["total_timer_time"] as? Double }, [20, 30])
        XCTAssertEqual(decoded.garmin["lap_mesgs"]?.map { $0["intensity"] as? String }, ["active", "rest"])
        XCTAssertNil(decoded.garmin["lap_mesgs"]?.first?["avg_heart_rate"])
        XCTAssertEqual(decoded.garmin["session_mesgs"]?.first?["sport"] as? String, "training")
        XCTAssertEqual(decoded.garmin["workout_step_mesgs"]?.map { $0["wkt_step_name"] as? String }, ["Go <now>", "Breathe"])
        XCTAssertEqual(decoded.garmin["device_info_mesgs"]?.first?["software_version"] as? Double, 1.2)

        let tcx = directory.appendingPathComponent("laps.tcx").path
        try TCXActivity.encode(activity, creator: .init(name: "workout", version: "1.2")).write(toFile: tcx, atomically: false, encoding: .utf8)
        XCTAssertNil(try ActivityDecoders.tcxProblems(tcx))
        let text = try String(contentsOfFile: tcx, encoding: .utf8)
        XCTAssertTrue(text.contains("<Notes>&lt;b&gt;&quot;Tabata&quot; &amp; co</Notes>"), text)
        XCTAssertFalse(text.contains("<Track>"))

        // A line from before laps were kept: the whole session is one lap.
        entry.laps = []
        let old = Activity(entry: entry)
        XCTAssertEqual(old.laps.count, 1)
        XCTAssertEqual(old.laps.first?.timer, 50)
    }

    /// However many segments, the line stays short: the 200th lap folds the rest.
    func testTheLapsOfALongSessionAreBounded() throws {
        let harness = try Harness("return workout { name = \"Long\", countdown = 0, rounds(150, { work(2), rest(1) }) }")
        let file = HistoryFile(path: directory.appendingPathComponent("history.jsonl").path)
        let history = HistoryRecorder(routine: harness.session.routine, file: file,
                                      clock: { Date(timeIntervalSince1970: 1_800_000_000) })
        harness.session.subscribe(history)
        harness.run()
        let entry = try XCTUnwrap(try file.read().entries.first)
        XCTAssertEqual(entry.laps.count, LapTally.mostLaps)
        let last = try XCTUnwrap(entry.laps.last)
        XCTAssertEqual(last.index, 200)
        XCTAssertEqual(last.name, "Rest and 100 more")
        XCTAssertEqual(last.kind, "mixed")
        XCTAssertEqual(last.start, 299)
        XCTAssertEqual(last.elapsed, 151)
        XCTAssertEqual(entry.laps.map(\.timer).reduce(0, +), 450)
        XCTAssertLessThan(entry.json.text.utf8.count, 32 * 1024)
    }

    /// The FIT writer's hardest input: the most laps a history line keeps (a 100,000-segment
    /// session folds into 200), each named with 4 KB of multi-byte text, pauses at every
    /// lap, and samples in no order (some before the start, some after the end). Garmin's
    /// SDK and fitdecode read every lap with no error, and the records come in time order.
    func testTheLargestSessionWithLongNamesAndSamplesOutOfOrderDecodes() throws {
        let date = Timestamp.date(from: "2026-11-21T07:00:00Z")!
        var entry = HistoryEntry(program: "Long", file: "/r/long.lua", sha256: String(repeating: "0", count: 64),
                                 started: date, ended: date.addingTimeInterval(20_000), completed: true,
                                 elapsed: 20_000, segmentsDone: 100_000, segments: 100_000, workSeconds: 10_000)
        let name = String(repeating: "Ünterlänge ", count: 4096 / 13)
        entry.laps = (0..<LapTally.mostLaps).map {
            SessionLap(index: $0 + 1, name: name, kind: $0 % 2 == 0 ? "work" : "rest", start: Double($0 * 100),
                       elapsed: 100, timer: 90)
        }
        entry.pauses = (0..<LapTally.mostPauses).map { SessionPause(at: Double($0 * 200 + 50), seconds: 10) }
        var generator = SystemRandomNumberGenerator()
        let records = (0..<5_000).map { _ in Int.random(in: -100...20_100, using: &generator) }.map { t in
            ActivityRecord(t: Double(t), time: date.addingTimeInterval(Double(t)), segment: max(0, t / 100),
                           sample: Sample(hr: 120 + abs(t) % 60, power: abs(t) % 400, cadence: 90, speed: 30))
        }
        let bytes = FITActivity.encode(Activity(entry: entry, records: records),
                                       creator: FITActivity.Creator(name: "workout", version: "0.1.0"))
        let path = directory.appendingPathComponent("long.fit").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let decoded = try ActivityDecoders.decodeFIT(path)
        XCTAssertEqual(decoded.garminErrors, [])
        XCTAssertTrue(decoded.integrity, "Garmin's SDK finds the header and the CRCs right")
        XCTAssertEqual(decoded.secondErrors, [], "fitdecode reads it with CRC checks on")
        XCTAssertEqual(decoded.garmin["lap_mesgs"]?.count, LapTally.mostLaps)
        let times = try XCTUnwrap(decoded.garmin["record_mesgs"]).compactMap { $0["timestamp"] as? Int }
        XCTAssertEqual(times.count, records.count, "every sample is a record")
        XCTAssertEqual(times, times.sorted(), "records in time order")
        // 30 km/h is 8.333 m/s, FIT's unit for speed.
        let speeds = try XCTUnwrap(decoded.garmin["record_mesgs"]).compactMap { $0["enhanced_speed"] as? Double }
        XCTAssertEqual(speeds.count, records.count)
        XCTAssertTrue(speeds.allSatisfy { abs($0 - 30 / 3.6) < 0.001 }, "\(speeds.prefix(3))")
    }

    func testChoosingASession() throws {
        let entries = ["2026-11-20T07:30:00Z", "2026-11-21T07:30:00Z", "2026-11-21T18:05:00Z"].map {
            historyEntry("S", started: $0)
        }
        try withTimeZone("UTC") {
            XCTAssertEqual(try ActivityExport.choose("last", in: entries), 2)
            XCTAssertEqual(try ActivityExport.choose("1", in: entries), 2)
            XCTAssertEqual(try ActivityExport.choose("3", in: entries), 0)
            XCTAssertEqual(try ActivityExport.choose("2026-11-20", in: entries), 0)
            XCTAssertEqual(try ActivityExport.choose("2026-11-21 18:05", in: entries), 2)
            XCTAssertEqual(try ActivityExport.choose("2026-11-21T07", in: entries), 1)
            for (text, message) in [
                ("4", "there is no session 4: the history has 3 (1 is the latest)"),
                ("2026-11-21", "2 sessions started at 2026-11-21 (2026-11-21T07:30:00, 2026-11-21T18:05:00): give its time too"),
                ("2026-11-22", "no session started at 2026-11-22"),
                ("yesterday", "yesterday is not a session: give last, a number (1 is the latest) or a start as YYYY-MM-DD or YYYY-MM-DDTHH:MM"),
            ] {
                XCTAssertThrowsError(try ActivityExport.choose(text, in: entries)) { XCTAssertEqual("\($0)", message) }
            }
        }
        XCTAssertThrowsError(try ActivityExport.choose("last", in: [])) { XCTAssertEqual("\($0)", "the history has no sessions yet") }
    }

    /// A full disk: a record cut short is cut back off, the file stays whole lines, and
    /// recording goes on when there is room again.
    func testSamplesOnAFullDiskStayWholeLines() throws {
        let disk = try SmallDisk(bytes: 16 * 1024)
        var now = base
        let recorder = ActivityRecorder(directory: disk.directory.appendingPathComponent("activities").path,
                                        clock: { Date(timeIntervalSince1970: now) })
        recorder.receive(Event(.workoutStart(name: "Full", segments: 1, duration: 10_000, speed: 1), t: 0, fire: nil))
        var second = 0
        func record(_ count: Int) {
            for _ in 0..<count {
                now = base + Double(second)
                recorder.record(Sample(hr: 120, power: 200, cadence: 90), at: Double(second))
                second += 1
            }
        }
        record(10)
        // Values no record holds are no values: a strap's 0, a meter's glitch.
        recorder.record(Sample(hr: 0, power: 210, cadence: .nan, speed: 1e9), at: 9.9)
        let path = try XCTUnwrap(recorder.path)
        XCTAssertEqual(recorder.written, 9, "the tenth waits for the next second")
        let filler = disk.fill()
        record(200)
        let failure = try XCTUnwrap(recorder.failure)
        XCTAssertTrue(failure.hasPrefix("some seconds of the session's samples were not kept: \(path): "), failure)
        let full = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(full.hasSuffix("\n"))
        XCTAssertEqual(try ActivityFile.read(path).damaged, 0)
        let kept = try ActivityFile.read(path).records.count
        XCTAssertEqual(kept, recorder.written)

        try FileManager.default.removeItem(at: filler)
        record(5)
        recorder.receive(Event(.workoutEnd(Summary(completed: true, segmentsDone: 1, segmentsSkipped: 0, segments: 1,
                                                   elapsed: 215, active: 215, workSeconds: 215)), t: 215, fire: nil))
        let after = try ActivityFile.read(path)
        XCTAssertEqual(after.damaged, 0)
        // The second that waited when room came back (209), then the five after it.
        XCTAssertEqual(after.records.map(\.t).suffix(6), [209, 210, 211, 212, 213, 214])
        XCTAssertEqual(after.records.count, kept + 6)
        XCTAssertEqual(after.records[9].sample, Sample(hr: 120, power: 210, cadence: 90))
    }
}
