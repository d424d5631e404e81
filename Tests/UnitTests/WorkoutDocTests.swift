import Foundation
import Interchange
import IntervalEngine
import IntervalsICU
import LuaBridge
import WorkoutValues
import XCTest

/// intervals.icu's structured workout (`workout_doc`) read into a workout file and on into
/// the routine `workout run today` loads, and the answers around it: the events listed,
/// the statuses said, the athlete's local date.
final class WorkoutDocTests: XCTestCase {
    func doc(_ text: String) -> JSONValue {
        JSONReader.value(text)!
    }

    func read(_ text: String) throws -> WorkoutFile {
        try WorkoutDocReader.read(doc(text), name: "Planned", place: "intervals.icu event 7").0
    }

    func testNestedRepeatsAreWrittenOutInsideTheOuterOne() throws {
        let file = try read("""
            {"steps": [{"reps": 2, "text": "Main set", "steps": [
                {"reps": 3, "steps": [{"duration": 30, "power": {"value": 120, "units": "%ftp"}},
                                      {"duration": 30, "intensity": "recovery"}]},
                {"duration": 120, "text": "Easy"}]}]}
            """)
        guard case let .repeats(count, name, steps)? = file.parts.first else { return XCTFail("no repeat: \(file.parts)") }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(name, "Main set")
        XCTAssertEqual(steps.map(\.kind), ["work", "rest", "work", "rest", "work", "rest", "work"])
        XCTAssertEqual(steps.map(\.duration), [30, 30, 30, 30, 30, 30, 120])
        XCTAssertEqual(steps[0].targets[.power], .number(120))
        XCTAssertEqual(steps.last?.name, "Easy")
    }

    func testEachUnitBecomesItsTarget() throws {
        let file = try read("""
            {"steps": [
              {"duration": 600, "warmup": true, "ramp": true, "power": {"start": 50, "end": 75, "units": "%ftp"}, "_power": {"start": 125, "end": 188}},
              {"duration": 60, "power": {"value": 250, "units": "w"}, "cadence": {"start": 85, "end": 95, "units": "rpm"}},
              {"duration": 60, "power": {"start": 2, "end": 3, "units": "power_zone"}},
              {"duration": 60, "hr": {"value": 70, "units": "%hr"}, "_hr": {"value": 133}},
              {"duration": 60, "hr": {"value": 95, "units": "%lthr"}},
              {"duration": 60, "hr": {"value": 2, "units": "hr_zone"}},
              {"duration": 60, "pace": {"value": 80, "units": "%pace"}},
              {"duration": 60, "pace": {"value": 3, "units": "pace_zone"}},
              {"duration": 60, "power": {"value": 60, "units": "%mmp"}},
              {"duration": 60, "freeride": true},
              {"duration": 30, "maxeffort": true},
              {"duration": 300, "cooldown": true}]}
            """)
        let steps = file.parts.compactMap { part -> WorkoutFile.Step? in if case .step(let step) = part { step } else { nil } }
        XCTAssertEqual(steps.count, 12)
        XCTAssertEqual(steps[0].kind, "warmup")
        XCTAssertEqual(steps[0].targets, Targets([.power: .range(low: 50, high: 75), .ramp: .flag, .watts: .range(low: 125, high: 188)]))
        XCTAssertEqual(steps[1].targets, Targets([.watts: .number(250), .cadence: .range(low: 85, high: 95)]))
        XCTAssertEqual(steps[2].targets, Targets([.zone: .text("Z2-Z3")]))
        XCTAssertEqual(steps[3].targets, Targets([.hr: .number(70), .bpm: .number(133)]))
        XCTAssertEqual(steps[4].targets, Targets([.lthr: .number(95)]))
        XCTAssertEqual(steps[5].targets, Targets([.hrZone: .text("Z2")]))
        XCTAssertEqual(steps[6].targets, Targets([.pace: .number(80)]))
        XCTAssertEqual(steps[7].targets, Targets([.paceZone: .text("Z3")]))
        XCTAssertEqual(steps[8].targets, Targets([.mmp: .text("60% MMP")]))
        XCTAssertEqual(steps[9].targets, Targets([.freeride: .flag]))
        XCTAssertEqual(steps[10].targets, Targets([.maxEffort: .flag]))
        XCTAssertEqual(steps[11].kind, "cooldown")
    }

    func testUntilLapPressIsAnOpenStep() throws {
        let file = try read(#"{"steps": [{"until_lap_press": true, "text": "Ready?"}, {"until_lap_press": true, "duration": 180}]}"#)
        guard case .step(let first)? = file.parts.first, case .step(let second)? = file.parts.last else { return XCTFail() }
        XCTAssertTrue(first.open)
        XCTAssertEqual(first.duration, OpenEnd.standardExpect)
        XCTAssertEqual(first.name, "Ready?")
        XCTAssertTrue(second.open)
        XCTAssertEqual(second.duration, 180)
    }

    func testTheRoutineLoadsWithItsTargetsInInfo() throws {
        let file = try read("""
            {"steps": [{"reps": 2, "steps": [{"duration": 60, "power": {"value": 110, "units": "%ftp"}, "text": "Hard"},
                                             {"duration": 30, "intensity": "rest"}]}]}
            """)
        let source = ImportedRoutine.planned(file, event: "intervals.icu event 7 on 2026-11-28")
        let routine = try RoutineLoader.load(source: source, fileName: "today")
        XCTAssertEqual(routine.name, "Planned")
        XCTAssertEqual(routine.timeline.segments.map(\.name), ["Hard", "Rest", "Hard", "Rest"])
        XCTAssertEqual(routine.infoJSON(for: routine.timeline.segments[0])["power"], .integer(110))
    }

    func testBadStepsNameTheEventAndTheStep() {
        let cases: [(String, String)] = [
            (#"{"steps": []}"#, "intervals.icu event 7: the planned workout has no steps"),
            (#"{"steps": [{"distance": 400}]}"#, "intervals.icu event 7: step 1: a step measured in distance alone"),
            (#"{"steps": [{"duration": 60}, {"reps": 0, "steps": []}]}"#, "intervals.icu event 7: step 2: \"reps\" must be"),
            (#"{"steps": [{"reps": 2, "steps": [{"power": {"value": 1}}]}]}"#, "intervals.icu event 7: step 1.1: a step without a duration"),
            (#"{"steps": [{"duration": -5}]}"#, "intervals.icu event 7: step 1: \"duration\" must be seconds"),
            (#"{"steps": [{"duration": 60, "power": {"start": 50}}]}"#, "intervals.icu event 7: step 1 power: a range needs both"),
            (#"{"steps": [{"duration": 60, "power": 50}]}"#, "intervals.icu event 7: step 1: \"power\" must be an object"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try read(text), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(expected), "\(error)")
            }
        }
    }

    func testTheEventsListedAreTheWorkoutsInTheirOrder() throws {
        let body = """
            [{"id": 2, "category": "WORKOUT", "name": "Later", "start_date_local": "2026-11-28T18:00:00", "workout_doc": {"steps": []}},
             {"id": 3, "category": "NOTE", "name": "A note", "start_date_local": "2026-11-28T00:00:00"},
             {"id": 1, "category": "WORKOUT", "name": "Morning", "start_date_local": "2026-11-28T06:00:00", "moving_time": 3600}]
            """
        let planned = try PlannedWorkout.list(HTTPAnswer(status: 200, body: Array(body.utf8)))
        XCTAssertEqual(planned.map(\.id), [1, 2])
        XCTAssertEqual(planned.map(\.name), ["Morning", "Later"])
        XCTAssertEqual(planned[0].seconds, 3600)
        XCTAssertNil(planned[0].doc)
        XCTAssertNotNil(planned[1].doc)
        XCTAssertThrowsError(try PlannedWorkout.list(HTTPAnswer(status: 200, body: Array("<html>".utf8))))
    }

    /// Near midnight the athlete's date is not UTC's: 23:30 UTC is already tomorrow in
    /// Kiritimati (UTC+14), and 10:30 UTC still yesterday in Pago Pago (UTC−11).
    func testTheLocalDateIsTheAthletesNotUTCs() throws {
        let lateUTC = Date(timeIntervalSince1970: 1_795_995_000) // 2026-11-29T23:30:00Z
        XCTAssertEqual(LocalDay.date(at: lateUTC, in: TimeZone(identifier: "UTC")!), "2026-11-29")
        XCTAssertEqual(LocalDay.date(at: lateUTC, in: TimeZone(identifier: "Pacific/Kiritimati")!), "2026-11-30")
        let morningUTC = Date(timeIntervalSince1970: 1_795_948_200) // 2026-11-29T10:30:00Z
        XCTAssertEqual(LocalDay.date(at: morningUTC, in: TimeZone(identifier: "Pacific/Pago_Pago")!), "2026-11-28")
        XCTAssertEqual(LocalDay.date(at: morningUTC, in: TimeZone(identifier: "Pacific/Kiritimati")!), "2026-11-30")
    }

    /// The key is a password: plain http:// only to this machine.
    func testPlainHTTPGoesOnlyToThisMachine() throws {
        let key = IntervalsKey(secret: "k", source: "test")
        for address in ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:99/", "https://intervals.icu", "https://proxy.lan:8443"] {
            XCTAssertNoThrow(try IntervalsService(key: key, environment: ["INTERVALS_ICU_URL": address]), address)
        }
        for address in ["http://intervals.icu", "http://192.168.1.2:8080", "http://127.0.0.1.example.com", "ftp://x", "http://localhost.evil"] {
            XCTAssertThrowsError(try IntervalsService(key: key, environment: ["INTERVALS_ICU_URL": address]), address)
        }
        XCTAssertEqual(try IntervalsService(key: key, environment: [:]).address, "https://intervals.icu")
        XCTAssertThrowsError(try IntervalsService(key: key, environment: ["INTERVALS_ICU_TIMEOUT": "soon"]))
    }

    func testTheKeyIsOneLineOfPrintableCharacters() {
        XCTAssertEqual(IntervalsKey.checked("  abc123xyz \n"), "abc123xyz")
        XCTAssertNil(IntervalsKey.checked(""))
        XCTAssertNil(IntervalsKey.checked("two words"))
        XCTAssertNil(IntervalsKey.checked("key\u{1b}[2J"))
    }
}
