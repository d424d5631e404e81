import Foundation
import XCTest

/// Our stream's role, as the sound server sees it: `media.role=event` is what
/// PulseAudio's module-role-ducking and PipeWire's policy read to lower the music while a
/// cue sounds.
extension SoundServerTests {
    /// Each sink input's properties, from `pactl list sink-inputs`, keyed by name.
    func sinkInputs() throws -> [[String: String]] {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(server.environment) { $1 }
        let listing = try spawn("/usr/bin/pactl", ["list", "sink-inputs"], environment: environment).output
        // "Sink Input #3" … "\t\tmedia.role = \"event\""
        return listing.components(separatedBy: "Sink Input #").dropFirst().map { block in
            var properties: [String: String] = [:]
            for line in block.split(separator: "\n") {
                let parts = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " = \"")
                guard parts.count == 2, parts[1].hasSuffix("\"") else { continue }
                properties[parts[0]] = String(parts[1].dropLast())
            }
            return properties
        }
    }

    func testOurStreamCarriesTheEventRole() throws {
        let path = try routine("return workout { name = \"Role\", countdown = 0, work(3) }")
        var ours: [String: String]?
        var others: [[String: String]] = []
        let run = try WorkoutBinary.run(["run", path, "--json", "--no-history"], environment: server.environment) {
            process, _ in
            // This run's stream: an earlier test's workout may still be leaving the server.
            let pid = String(process.processIdentifier)
            _ = try? eventually {
                let inputs = try self.sinkInputs()
                ours = inputs.first { $0["application.name"] == "workout" && $0["application.process.id"] == pid }
                others = inputs.filter { $0["application.name"] != "workout" }
                return ours != nil
            }
            process.terminate()
            return Data()
        }
        XCTAssertEqual(run.status, 143, run.stderr)
        let stream = try XCTUnwrap(ours, "no sink input of workout's while it ran")
        XCTAssertEqual(stream["media.name"], "workout sounds")
        XCTAssertEqual(stream["media.role"], "event")
        // The server gives no stream a role of its own: the silent pacat's has none.
        XCTAssertFalse(others.isEmpty, "the silent stream is listed too")
        XCTAssertEqual(others.compactMap { $0["media.role"] }, [])
    }
}
