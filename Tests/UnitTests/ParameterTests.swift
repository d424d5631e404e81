import TestSupport
import XCTest
@testable import IntervalEngine
@testable import LuaBridge

/// `params{}` and `--set`: types from the defaults, overrides checked against them,
/// and the errors an author or a user meets.
final class ParameterTests: XCTestCase {
    let routine = """
        local p = params {
          rounds = 8, speed = 1.5, work = "20s", exercise = "Burpees", loud = false,
          rest = { default = 10, type = "duration", help = "the rest" },
        }
        return workout {
          name = string.format("%d %s %s %s %s %s", p.rounds, p.speed, p.work, p.exercise, tostring(p.loud), p.rest),
          rounds(p.rounds, { work(p.work), rest(p.rest) }),
        }
        """

    func loaded(_ settings: [String]) throws -> Routine {
        try RoutineLoader.load(source: routine, fileName: "p.lua",
                               settings: settings.map { try ParameterSetting(argument: $0) })
    }

    func failure(_ settings: [String], source: String? = nil) -> RoutineError? {
        do {
            _ = try RoutineLoader.load(source: source ?? routine, fileName: "p.lua",
                                       settings: settings.map { try ParameterSetting(argument: $0) })
            return nil
        } catch {
            return error as? RoutineError
        }
    }

    func testDefaultsComeBackTypedAndDurationsInSeconds() throws {
        let routine = try loaded([])
        XCTAssertEqual(routine.name, "8 1.5 20 Burpees false 10")
        XCTAssertEqual(routine.timeline.duration, 8 * 30)
        XCTAssertEqual(routine.parameters.map(\.name), ["exercise", "loud", "rest", "rounds", "speed", "work"])
        XCTAssertEqual(routine.parameters.map(\.kind), [.string, .boolean, .duration, .integer, .number, .duration])
        XCTAssertEqual(routine.parameters.map(\.value.text), ["Burpees", "false", "10s", "8", "1.5", "20s"])
        XCTAssertEqual(routine.parameters.first { $0.name == "rest" }?.help, "the rest")
        XCTAssertFalse(routine.parameters.contains { $0.isSet })
    }

    func testSetOverridesEachType() throws {
        let routine = try loaded(["rounds=4", "work=1:30", "speed=2", "exercise=Jump squats", "loud=yes", "rest=15"])
        XCTAssertEqual(routine.name, "4 2.0 90 Jump squats true 15")
        XCTAssertEqual(routine.timeline.count, 8)
        XCTAssertEqual(routine.timeline.duration, 4 * 105)
        XCTAssertEqual(routine.parameters.filter(\.isSet).map(\.name), ["exercise", "loud", "rest", "rounds", "speed", "work"])
    }

    func testTheLastSetOfANameWins() throws {
        XCTAssertEqual(try loaded(["rounds=4", "rounds=2"]).timeline.count, 4)
    }

    func testAValueOfTheWrongTypeIsAUsageErrorNamingKeyTypeAndText() {
        let cases = [
            ("rounds=4.5", #"p.lua: --set rounds=4.5: rounds must be a whole number (the default is 8), got "4.5""#),
            ("work=soon", #"p.lua: --set work=soon: work must be a duration such as 30, 30s, 1:30 or 2m (the default is 20s), got "soon""#),
            ("work=0", #"p.lua: --set work=0: work must be a duration such as 30, 30s, 1:30 or 2m (the default is 20s), got "0""#),
            ("speed=fast", #"p.lua: --set speed=fast: speed must be a number (the default is 1.5), got "fast""#),
            ("speed=nan", #"p.lua: --set speed=nan: speed must be a number (the default is 1.5), got "nan""#),
            ("loud=maybe", #"p.lua: --set loud=maybe: loud must be true or false (also yes/no, on/off, 1/0) (the default is false), got "maybe""#),
        ]
        for (setting, message) in cases {
            let error = failure([setting])
            XCTAssertEqual(error?.message, message)
            XCTAssertEqual(error?.isUsage, true, setting)
        }
    }

    func testAnUndeclaredKeyListsTheDeclaredOnes() {
        let error = failure(["round=4"])
        XCTAssertEqual(error?.message,
                       "p.lua: --set round=4: no such parameter (did you mean rounds?); p.lua takes exercise, loud, rest, rounds, speed, work")
        XCTAssertEqual(error?.isUsage, true)
        XCTAssertEqual(failure(["x=1"], source: "return workout { name = \"N\", work(1) }")?.message,
                       "p.lua: --set x=1: no such parameter; p.lua takes no parameters")
    }

    func testAValueTheRoutineRejectsNamesTheLineAndTheSetting() {
        let error = failure(["rounds=0"])
        XCTAssertEqual(error?.message, "p.lua:7: rounds: count must be a positive integer, got 0 (with --set rounds=0)")
        XCTAssertEqual(error?.isUsage, false)
    }

    func testCatchingTheErrorDoesNotHideABadSetting() {
        let source = """
            local ok, p = pcall(params, { rounds = 8 })
            return workout { name = "N", work(1) }
            """
        XCTAssertEqual(failure(["rounds=x"], source: source)?.isUsage, true)
    }

    func testReadingAnUndeclaredParameterIsAnErrorAtThatLine() {
        let source = """
            local p = params { rounds = 8 }
            return workout { name = "N", rounds(p.roudns, { work(1) }) }
            """
        XCTAssertEqual(loadError(source), #"test.lua:2: params: no parameter "roudns" (declared: rounds)"#)
    }

    func testAuthorMistakesNameTheLine() {
        let cases = [
            ("params { [1] = 8 }", "test.lua:1: params: a parameter's name must be a word like rounds or work_time, got 1"),
            ("params { ['two words'] = 8 }", #"test.lua:1: params: a parameter's name must be a word like rounds or work_time, got "two words""#),
            ("params { rounds = {} }", "test.lua:1: params: rounds: default is missing (e.g. rounds = { default = 8, help = \"…\" })"),
            ("params { f = print }", "test.lua:1: params: f: default must be a number, a string, a duration or a boolean, got function"),
            ("params { n = { default = 1.5, type = \"integer\" } }", "test.lua:1: params: n: default must be a whole number, got 1.5"),
            ("params { n = { default = 8, type = \"count\" } }",
             #"test.lua:1: params: n: type must be one of "integer", "number", "duration", "string", "boolean", got "count""#),
            ("params { n = { default = 8, hlep = \"x\" } }", "test.lua:1: params: n: unknown field 'hlep' (expected default, type, help, from_history)"),
            ("params { d = { default = \"soon\", type = \"duration\" } }",
             #"test.lua:1: params: d: default "soon" is not a duration (write 90, "90s", "1:30", "2m" or "1h5m")"#),
            ("params(8)", "test.lua:1: params: its argument must be a table of defaults: params { rounds = 8, work = \"20s\" }, got 8"),
            ("params {}\nparams {}", "test.lua:2: params: is called twice; declare every parameter in one params { … }"),
        ]
        for (code, message) in cases {
            XCTAssertEqual(loadError(code + "\nreturn workout { name = \"N\", work(1) }"), message, code)
        }
    }

    func testATypedDefaultKeepsItsType() throws {
        let routine = try load("""
            local p = params { code = { default = "90", type = "string" }, weight = { default = 20, type = "number" } }
            return workout { name = p.code .. " " .. math.type(p.weight), work(1) }
            """)
        XCTAssertEqual(routine.name, "90 float")
        XCTAssertEqual(routine.parameters.map(\.kind), [.string, .number])
    }

    func testSettingTextIsSplitAtTheFirstEquals() throws {
        XCTAssertEqual(try ParameterSetting(argument: "name=a=b"), ParameterSetting(name: "name", text: "a=b"))
        XCTAssertEqual(try ParameterSetting(argument: "name="), ParameterSetting(name: "name", text: ""))
        for bad in ["rounds", "=4", "two words=1", "1x=2"] {
            XCTAssertThrowsError(try ParameterSetting(argument: bad), bad) { error in
                XCTAssertTrue((error as? RoutineError)?.message.hasPrefix("--set \(bad): ") == true, "\(error)")
            }
        }
    }

    func testDistanceForSuggestions() {
        XCTAssertEqual(Parameter.distance("rounds", "round"), 1)
        XCTAssertEqual(Parameter.distance("work", "wrok"), 2)
        XCTAssertEqual(Parameter.distance("", "abc"), 3)
        XCTAssertEqual(Parameter.distance("rest", "rest"), 0)
    }
}
