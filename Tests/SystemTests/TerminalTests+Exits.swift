import Foundation
import XCTest

/// Every way out of the live display gives the terminal back: the terminal closing or a
/// hang-up (SIGHUP), Ctrl-\ (SIGQUIT), a crash (the crash guard), and Ctrl-Z where no
/// shell could continue a stopped workout.
extension TerminalTests {
    /// The workout's process in the pane (the shell's child).
    func workoutProcess(_ pane: TmuxPane) throws -> pid_t {
        let shell = try XCTUnwrap(pid_t(pane.variable("pane_pid")))
        var found: pid_t?
        _ = pane.wait {
            found = childProcesses(of: shell).first
            return found != nil
        }
        return try XCTUnwrap(found, "no workout process under the pane's shell")
    }

    func history(_ pane: TmuxPane) -> [String] {
        let path = pane.directory.appendingPathComponent("workout/history.jsonl").path
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func testAHangupGivesTheTerminalBackRecordsAndExits129() throws {
        let pane = try start()
        kill(try workoutProcess(pane), SIGHUP)
        XCTAssertEqual(try finish(pane), "129")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
        XCTAssertEqual(pane.variable("alternate_on"), "0")
        XCTAssertEqual(pane.variable("cursor_flag"), "1")
        XCTAssertEqual(history(pane).count, 1)
        XCTAssertTrue(history(pane).first?.contains(#""completed":false"#) == true)
    }

    func testCtrlBackslashQuitsCleanlyWith131() throws {
        let pane = try start()
        try pane.send("C-\\")
        XCTAssertEqual(try finish(pane), "131")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
        XCTAssertFalse(pane.text.contains("Backtrac") || pane.text.contains("Thread 0"), "no backtrace:\n\(pane.text)")
        XCTAssertTrue(pane.text.contains("Stopped Display test"), pane.text)
        XCTAssertEqual(history(pane).count, 1)
    }

    /// Closing the terminal (the pane dies under it) still records the session.
    func testClosingTheTerminalRecordsTheSession() throws {
        let pane = try start()
        let workout = try workoutProcess(pane)
        try pane.tmux(["kill-pane", "-t", "main"])
        XCTAssertTrue(pane.wait { kill(workout, 0) != 0 }, "the workout ended with its terminal")
        XCTAssertEqual(history(pane).count, 1)
        XCTAssertTrue(history(pane).first?.contains(#""completed":false"#) == true)
    }

    /// The crash guard: a fault while the display is up (forced here with SIGSEGV) leaves
    /// the terminal as it was before, and the process dies of the fault.
    func testACrashGivesTheTerminalBack() throws {
        let pane = try start()
        XCTAssertNotEqual(terminalModes(pane.tty), pane.file("before"))
        kill(try workoutProcess(pane), SIGSEGV)
        XCTAssertEqual(try finish(pane), "139")
        XCTAssertEqual(pane.file("after"), pane.file("before"))
        XCTAssertEqual(pane.variable("alternate_on"), "0")
        XCTAssertEqual(pane.variable("cursor_flag"), "1")
    }

    /// A workout that is the pane's own command (no shell, an orphaned process group):
    /// nothing could continue it once stopped, so Ctrl-Z pauses it and keeps the display.
    func testCtrlZWithNoShellToStopToPausesInPlace() throws {
        let pane = try TmuxPane()
        let dir = pane.directory.path
        let routine = fixtures.appendingPathComponent("display.lua").path
        try pane.tmux(["respawn-pane", "-k", "-t", "main",
                       "env XDG_DATA_HOME=\(dir) DBUS_SESSION_BUS_ADDRESS= LANG=C.UTF-8 '\(binary)' run '\(routine)'; "
                       + "echo $? > \(dir)/status; sleep 60"])
        XCTAssertTrue(pane.wait { pane.text.contains("Squats") }, pane.text)
        try pane.send("C-z")
        XCTAssertTrue(pane.wait { pane.text.contains("PAUSED") }, pane.text)
        XCTAssertTrue(pane.wait { pane.text.contains("Ctrl-Z cannot stop a workout no shell started") }, pane.text)
        XCTAssertEqual(pane.variable("alternate_on"), "1", "the display stays")
        try pane.send("Space")
        XCTAssertTrue(pane.wait { !pane.text.contains("PAUSED") }, "and goes on:\n\(pane.text)")
        try pane.send("q")
        XCTAssertEqual(pane.file("status"), "0")
    }
}

/// The processes whose parent is `parent`.
func childProcesses(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry),
              let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && pid_t(fields[1]) == parent ? pid : nil
    }
}
