import Foundation
import XCTest

/// A hook that asks for far more sound or speech than an alert, against the private
/// server: the hook is stopped at the bound with an error naming its line, the process's
/// memory (from /proc) stays near where it was, and SIGTERM ends the run at once instead
/// of after the queued sounds.
extension SoundServerTests {
    /// What the kernel says of a running process: `VmRSS`, `VmHWM` (its peak), in KiB.
    func memory(_ pid: Int32, _ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) ?? 0
    }

    /// How many processes named `name` the process `pid` has started and not yet reaped.
    func children(of pid: Int32, named name: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int32(entry) != nil,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat[stat.index(after: open)..<close] == name && fields.count > 2 && Int32(fields[1]) == pid
        }.count
    }

    /// Waits (at most `timeout` seconds) for `condition`.
    func within(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        eventually(timeout: timeout, every: 0.02, condition)
    }

    /// What a run under test came to.
    struct Flooded {
        var result: WorkoutBinary.Result
        /// KiB of RSS at `workout_start`, and the peak once the hook's sounds were heard.
        var before: Int
        var peak: Int
        /// From SIGTERM to the end of the output (the process has exited).
        var exitSeconds: Double
    }

    /// Runs `path` with the recorder on, reads events until `enough` says the hook is
    /// done (or 20 s), waits until `settled` (at most 10 s) and the sink has played
    /// something, takes the peak memory, then sends SIGTERM and times the exit.
    func flood(_ path: String, _ arguments: [String], environment: [String: String],
               enough: @escaping ([String]) -> Bool, settled: @escaping (Int32) -> Bool) throws -> Flooded {
        let recorder = try Daemon("/usr/bin/parec", ["-d", "null.monitor", "--raw", "--format=s16le",
                                                     "--rate=\(PrivateSoundServer.rate)", "--channels=1", "--latency-msec=10"],
                                  environment: server.environment, capture: true)
        defer { recorder.kill() }
        var before = 0
        var peak = 0
        var exitSeconds = 0.0
        let result = try WorkoutBinary.run(["run", path, "--json", "--no-history"] + arguments, environment: environment) {
            process, output in
            let pid = process.processIdentifier
            var seen = Data()
            var lines: [String] { String(decoding: seen, as: UTF8.self).split(separator: "\n").map(String.init) }
            let giveUp = Date().addingTimeInterval(20)
            while before == 0 || !enough(lines), Date() < giveUp {
                let more = output.availableData
                guard !more.isEmpty else { break }
                seen.append(more)
                if before == 0, lines.contains(where: { $0.contains(#""event":"workout_start""#) }) {
                    before = self.memory(pid, "VmRSS")
                }
            }
            XCTAssertTrue(self.within(10) { settled(pid) }, "the hook's sounds were made")
            XCTAssertTrue(self.within(10) { Recording(recorder.captured).loudest > 500 }, "the sink played them")
            peak = self.memory(pid, "VmHWM")
            let signalled = Date()
            process.terminate()
            while case let more = output.availableData, !more.isEmpty {
                seen.append(more)
            }
            process.waitUntilExit()
            exitSeconds = Date().timeIntervalSince(signalled)
            return seen
        }
        return Flooded(result: result, before: before, peak: peak, exitSeconds: exitSeconds)
    }

    func events(_ result: WorkoutBinary.Result, _ kind: String) -> [String] {
        result.lines.filter { $0.contains(#""event":"alert""#) && $0.contains(#""type":"\#(kind)""#) }
    }

    /// The messages of the run's `error` events.
    func errors(_ result: WorkoutBinary.Result) throws -> [String] {
        try result.lines.compactMap { line in
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return event["event"] as? String == "error" ? event["message"] as? String : nil
        }
    }

    /// 200 five-second tones from one cue (1.7 GB at 1,000, before the bound): twelve
    /// make a minute of sound, the thirteenth is refused.
    func testAToneFloodStopsAtTheBoundAndASignalEndsTheRunAtOnce() throws {
        let path = try routine("""
            return workout { name = "Tones", countdown = 0, sounds = { work = false, finish = false },
              segment { kind = "work", duration = 20, cues = { [0.5] = function()
                for i = 1, 200 do tone{ hz = 440, ms = 5000 } end
              end } } }
            """)
        let run = try flood(path, [], environment: server.environment, enough: { lines in
            lines.contains { $0.contains(#""event":"error""#) }
                || lines.filter { $0.contains(#""type":"sound""#) }.count >= 200
        }, settled: { _ in true })
        let name = URL(fileURLWithPath: path).lastPathComponent
        XCTAssertEqual(run.result.status, 143, run.result.stderr)
        XCTAssertEqual(try errors(run.result), ["\(name):3: tone: 60 s of the hooks' sounds are waiting or playing, "
                                                + "and this one lasts 5 s; at most 60 s may wait at once"])
        XCTAssertEqual(events(run.result, "sound").count, 12)
        XCTAssertLessThan(run.peak - run.before, 48 * 1024, "KiB of memory the tones took")
        print("tones: \(run.before) KiB at the start, peak \(run.peak) KiB; exit \(run.exitSeconds) s after SIGTERM")
        XCTAssertLessThan(run.exitSeconds, 2, "SIGTERM ends the run without waiting for the tones")
    }

    /// 3,000 texts from one hook with --voice (35 MB a second as they were rendered,
    /// before the bound): sixteen are said, the seventeenth is refused.
    func testAFloodOfWordsStopsAtTheBoundAndASignalEndsTheRunAtOnce() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng"),
                      "espeak-ng is not installed (make test installs it)")
        let path = try routine("""
            return workout { name = "Words", countdown = 0, sounds = { work = false, finish = false },
              segment { kind = "work", duration = 20, cues = { [0.5] = function()
                for i = 1, 3000 do say("word number " .. i .. " of many") end
              end } } }
            """)
        let bin = try fakeSpdSay()
        var environment = server.environment
        environment["PATH"] = bin.path + ":/usr/bin:/bin"
        let run = try flood(path, ["--voice"], environment: environment, enough: { lines in
            lines.contains { $0.contains(#""event":"error""#) }
                || lines.filter { $0.contains(#""type":"say""#) }.count >= 3000
        }, settled: { pid in
            // No renderer for a fifth of a second: the words are all rendered.
            var quiet = 0
            return self.within(10) {
                quiet = self.children(of: pid, named: "espeak-ng") == 0 ? quiet + 1 : 0
                return quiet >= 10
            }
        })
        let name = URL(fileURLWithPath: path).lastPathComponent
        XCTAssertEqual(run.result.status, 143, run.result.stderr)
        XCTAssertEqual(try errors(run.result), ["\(name):3: say: one call of a hook may say at most 16 texts"])
        XCTAssertEqual(events(run.result, "say").filter { $0.contains("word number") }.count, 16)
        XCTAssertLessThan(run.peak - run.before, 48 * 1024, "KiB of memory the words took")
        print("words: \(run.before) KiB at the start, peak \(run.peak) KiB; exit \(run.exitSeconds) s after SIGTERM")
        XCTAssertLessThan(run.exitSeconds, 2, "SIGTERM ends the run without waiting for the words")
        XCTAssertEqual(spoken(bin, lines: 0), [], "every word went through the sound player")
    }
}
