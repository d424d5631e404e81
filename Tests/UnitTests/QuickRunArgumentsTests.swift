import ArgumentParser
import XCTest
@testable import WorkoutCLI

/// `QuickRunArguments` reads the usual `run` lines without ArgumentParser: it must accept
/// only what ArgumentParser accepts and make the same request of it, and know every
/// option of `run` either way.
final class QuickRunArgumentsTests: XCTestCase {
    /// What ArgumentParser makes of `workout run …`, nil where it refuses the line.
    func parsed(_ line: [String]) -> RunRequest? {
        (try? Workout.parseAsRoot(["run"] + line) as? Run)?.request
    }

    func testDefaultsAreArgumentParsers() throws {
        let quick = try XCTUnwrap(QuickRunArguments.request(["run", "hiit"]))
        XCTAssertEqual(quick, parsed(["hiit"]))
        XCTAssertEqual(quick, RunRequest(routine: "hiit"))
    }

    func testEveryOptionOfRunIsReadHereOrLeftToArgumentParser() throws {
        let help = Run.helpMessage(includeHidden: true, columns: 200)
        let regex = try NSRegularExpression(pattern: "--[a-z][a-z-]*")
        let named = Set(regex.matches(in: help, range: NSRange(help.startIndex..., in: help)).map {
            String(help[Range($0.range, in: help)!])
        })
        let leftToArgumentParser: Set = ["--sensor", "--serve", "--new-token", "--horizon", "--assume", "--history-file",
                                         "--export-fit", "--max-load-instructions",
                                         "--max-hook-instructions", "--max-load-seconds", "--max-hook-seconds",
                                         "--max-memory", "--help", "--mqtt", "--mqtt-ca", "--mqtt-password-file", "--insecure"]
        XCTAssertEqual(named, Set(QuickRunArguments.options).union(leftToArgumentParser),
                       "each option of run is read by QuickRunArguments or listed here as left to ArgumentParser")
    }

    func testTheUsualLinesAreReadAsArgumentParserReadsThem() throws {
        let lines: [[String]] = [
            ["hiit", "--no-notify", "--no-history", "--no-sound"],
            ["programs/hiit.lua", "--speed", "2.5", "--json"],
            ["--speed=10", "tabata", "--set", "rounds=4", "--set=work=30"],
            ["hiit", "--no-bell", "--notify", "--voice", "--count-up", "--calm", "--no-flash", "--allow-sleep"],
            ["hiit", "--bell", "--no-notify", "--volume", "35", "--dry-run"],
            ["hiit", "--volume=0", "--speed", "0.01"],
            ["hiit", "--music", "pause", "--voice"], ["hiit", "--music=off"], ["hiit", "--music", "duck"],
        ]
        for line in lines {
            let quick = QuickRunArguments.request(["run"] + line)
            XCTAssertNotNil(quick, "\(line)")
            XCTAssertEqual(quick, parsed(line), "\(line)")
        }
        let tabata = try XCTUnwrap(QuickRunArguments.request(["run", "tabata", "--set", "rounds=4", "--set=work=30"]))
        XCTAssertEqual(tabata.settings.map(\.name), ["rounds", "work"])
        XCTAssertEqual(QuickRunArguments.request(["run", "x", "--speed", "3"])?.speed, 3)
        XCTAssertEqual(QuickRunArguments.request(["run", "x", "--music", "pause"])?.music, .pause)
        XCTAssertEqual(QuickRunArguments.request(["run", "x"])?.music, .duck, "duck is the default")
    }

    /// Whatever ArgumentParser refuses or reads with its own rules goes to it whole.
    func testTheRestIsLeftToArgumentParser() {
        let lines: [[String]] = [
            [], ["--help"], ["hiit", "-h"], ["hiit", "--speed", "0"], ["hiit", "--speed", "nan"],
            ["hiit", "--speed"], ["hiit", "--speed", "-2"], ["hiit", "--volume", "101"], ["hiit", "--volume", "1.5"],
            ["hiit", "--json=yes"], ["hiit", "--bell", "--no-bell"], ["hiit", "--json", "--json"],
            ["hiit", "other"], ["hiit", "--", "x"], ["-", "hiit"], [""], ["hiit", "--set", "novalue"],
            ["hiit", "--horizon", "5", "--dry-run"], ["hiit", "--serve=8080"], ["hiit", "--max-memory", "8"],
            ["hiit", "--unknown"], ["hiit", "--speed", "1", "--speed", "2"],
            ["hiit", "--music", "loud"], ["hiit", "--music"], ["hiit", "--music", "off", "--music", "duck"],
        ]
        for line in lines {
            XCTAssertNil(QuickRunArguments.request(["run"] + line), "\(line)")
        }
        // Numbers are plain decimals (`PlainNumber`) for both parsers.
        for line in [["hiit", "--speed", "0x10"], ["hiit", "--speed", "1e2"], ["hiit", "--speed", "inf"],
                     ["hiit", "--volume", "+5"], ["hiit", "--volume", "0x10"], ["hiit", "--max-memory", "+8"],
                     ["hiit", "--max-hook-seconds", "1e-320"], ["hiit", "--max-load-seconds", "0x1p3"],
                     ["hiit", "--max-hook-instructions", "+100000"]] {
            XCTAssertNil(QuickRunArguments.request(["run"] + line), "\(line)")
            XCTAssertNil(parsed(line), "\(line)")
        }
        XCTAssertEqual(parsed(["hiit", "--speed", "2.5", "--max-hook-seconds", "0.5"])?.speed, 2.5)
        XCTAssertNil(QuickRunArguments.request(["plan", "hiit"]))
        XCTAssertNil(QuickRunArguments.request(["--version"]))
    }

    /// Lines made of every option, good and bad values, repeats and stray words: where
    /// the quick reading accepts one, ArgumentParser accepts it too, with the same request.
    func testGeneratedLinesAgreeWithArgumentParser() {
        var generator = SplitMix(seed: 20261124)
        let words = QuickRunArguments.options + ["--serve", "--horizon", "--max-memory", "--unknown", "-h", "--", "-",
                                                 "hiit", "tabata", "", "--speed=2", "--set=a=1", "--volume=7"]
        let values = ["2", "0.5", "1e3", "0", "-1", "inf", "abc", "80", "100", "101", "rounds=3", "a=b=c", "=x", "duck", "pause", "off"]
        var accepted = 0
        for _ in 0..<1500 {
            var line: [String] = []
            for _ in 0..<Int(generator.next() % 6) {
                line.append(generator.pick(words))
                if generator.next() % 2 == 0 { line.append(generator.pick(values)) }
            }
            if generator.next() % 4 != 0 { line.insert("hiit", at: Int(generator.next() % UInt64(line.count + 1))) }
            guard let quick = QuickRunArguments.request(["run"] + line) else { continue }
            accepted += 1
            XCTAssertEqual(quick, parsed(line), "\(line)")
        }
        XCTAssertGreaterThan(accepted, 150, "too few generated lines were read quickly to compare")
    }
}

/// A small seeded generator, so a failing line is the same on every run.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
