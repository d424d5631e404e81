import Foundation
import SoundPlayer
import XCTest
@testable import IntervalEngine

/// The real alert programs, replaced by small scripts on PATH that record what they get.
final class AlertTests: XCTestCase {
    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        var all: [String] { lock.withLock { list } }
        func add(_ text: String) { lock.withLock { list.append(text) } }
    }

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func fake(_ name: String, exit status: Int = 0, then: String = "") throws {
        try FakeProgram.make(name, in: directory, exit: status, then: then)
    }

    func log(_ name: String, lines count: Int) -> [String] {
        FakeProgram.log(name, in: directory, lines: count)
    }

    func testNotifySendGetsAnArgumentVectorNeverAShell() throws {
        try fake("notify-send")
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.notify(title: "Burpees $(touch pwned)", body: "work · 0:20; rm -rf /", urgency: .normal)
        XCTAssertEqual(log("notify-send", lines: 5),
                       ["--app-name=workout", "--print-id", "--", "Burpees $(touch pwned)", "work · 0:20; rm -rf /"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "pwned"))
        XCTAssertEqual(warnings.all, [])
    }

    func testAMissingNotifierWarnsOnceAtTheStart() throws {
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.notify(title: "a", body: "b", urgency: .normal)
        alerts.notify(title: "c", body: "d", urgency: .normal)
        XCTAssertEqual(warnings.all, ["notify-send is not installed; desktop notifications are off"])
    }

    func testAFailingNotifierWarnsOnceThenStops() throws {
        try fake("notify-send", exit: 1)
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.notify(title: "first", body: "x", urgency: .normal)
        XCTAssertEqual(log("notify-send", lines: 5).count, 5)
        eventually(timeout: 5) { !warnings.all.isEmpty }
        XCTAssertEqual(warnings.all, ["notify-send failed (exit 1); desktop notifications are off"])
        alerts.notify(title: "second", body: "x", urgency: .normal)
        alerts.waitForNotifications(timeout: 5)
        XCTAssertEqual(log("notify-send", lines: 5).count, 5, "no second launch after a failure")
    }

    func testEachNotificationReplacesThePreviousByItsPrintedId() throws {
        try fake("notify-send", then: "echo 41")
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path]) { _ in }
        // One at a time, each waiting for the one before (those that come while one is out
        // are coalesced: see the next test).
        alerts.notify(title: "Work", body: "a", urgency: .normal)
        alerts.waitForNotifications(timeout: 5)
        alerts.notify(title: "Rest", body: "b", urgency: .normal)
        alerts.waitForNotifications(timeout: 5)
        alerts.notify(title: "Done", body: "c", urgency: .critical)
        alerts.waitForNotifications(timeout: 5)
        XCTAssertEqual(log("notify-send", lines: 17), [
            "--app-name=workout", "--print-id", "--", "Work", "a",
            "--app-name=workout", "--print-id", "--replace-id=41", "--", "Rest", "b",
            "--app-name=workout", "--print-id", "--replace-id=41", "--urgency=critical", "--", "Done", "c"])
    }

    /// Notifications that come while one is out: only the latest waits, so a burst ends
    /// with the newest shown and never starts a process per call.
    func testNotificationsThatComeWhileOneIsOutAreCoalesced() throws {
        try fake("notify-send", then: "sleep 0.3; echo 41")
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path]) { _ in }
        for index in 1...50 {
            alerts.notify(title: "N\(index)", body: "", urgency: index == 50 ? .critical : .normal)
        }
        alerts.waitForNotifications(timeout: 5)
        let titles = log("notify-send", lines: 1).filter { $0.hasPrefix("N") }
        XCTAssertEqual(titles.last, "N50", "the newest is shown")
        XCTAssertLessThanOrEqual(titles.count, 3, "\(titles)")
    }

    func testAHungNotifierIsKilledAndDoesNotHoldUpTheCaller() throws {
        try fake("notify-send", then: "exec sleep 30")
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(notify: true, voice: true), environment: ["PATH": directory.path], notifyTimeout: 0.3) {
            warnings.add($0)
        }
        let before = Date()
        alerts.notify(title: "Work", body: "a", urgency: .normal)
        XCTAssertLessThan(Date().timeIntervalSince(before), 0.25, "notify returns without waiting")
        alerts.waitForNotifications(timeout: 10)
        XCTAssertEqual(warnings.all, ["notify-send did not answer within 0.3 s; desktop notifications are off"])
    }

    func testSpeechPrefersSpdSayAndKeepsDashesFromReadingAsOptions() throws {
        try fake("spd-say")
        try fake("espeak-ng")
        let alerts = SystemAlerts(switches: AlertSwitches(voice: true), environment: ["PATH": directory.path]) { _ in }
        alerts.say("-3")
        XCTAssertEqual(log("spd-say", lines: 1), [" -3"])
        XCTAssertEqual(log("espeak-ng", lines: 0), [])
    }

    /// A text beyond the kernel's limit on one argument (128 KiB), as a segment's name
    /// may be: cut, said, and speech stays on for the next.
    func testATextTooLongForAnArgumentIsCutAndSpeechStaysOn() throws {
        try fake("spd-say")
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.say(String(repeating: "word ", count: 40_000))
        alerts.say("next")
        let said = log("spd-say", lines: 2)
        XCTAssertEqual(said.count, 2, "both said: \(said.map { $0.prefix(40) })")
        XCTAssertEqual(said.first, String(repeating: "word ", count: 100), "cut to 500 bytes")
        XCTAssertEqual(said.last, "next")
        XCTAssertEqual(warnings.all, [])
    }

    func testEspeakNgReadsTheTextOnStandardInput() throws {
        try fake("espeak-ng", then: #"cat >> "$0-input.log"; echo >> "$0-input.log""#)
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.say("-3")
        XCTAssertEqual(log("espeak-ng-input", lines: 1), ["-3"])
        alerts.say(String(repeating: "é", count: 100_000))
        XCTAssertEqual(log("espeak-ng-input", lines: 2).last, String(repeating: "é", count: 250))
        XCTAssertEqual(log("espeak-ng", lines: 2), ["--stdin", "--stdin"], "no text as an argument")
        XCTAssertEqual(warnings.all, [])
    }

    /// A synthesizer that fails says so, once; it is not said not to exist.
    func testAFailingSynthesizerGivesItsOwnWarningOnly() throws {
        try fake("spd-say", exit: 1)
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.say("one")
        eventually(timeout: 5) { !warnings.all.isEmpty }
        alerts.say("two")
        XCTAssertEqual(warnings.all, ["\(directory.path)/spd-say failed (exit 1); speech is off"])
    }

    func testNoSynthesizerWarnsOnceAndStaysQuiet() {
        let warnings = Warnings()
        let alerts = SystemAlerts(switches: AlertSwitches(voice: true), environment: ["PATH": directory.path]) { warnings.add($0) }
        alerts.say("one")
        alerts.say("two")
        XCTAssertEqual(warnings.all, ["no speech synthesizer (spd-say or espeak-ng); spoken text is only shown"])
    }

    func testNotificationsDefaultOnOnlyWithABusAndNotifySend() throws {
        try fake("notify-send")
        XCTAssertTrue(AlertSwitches.notificationsAvailable(environment: [
            "PATH": directory.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        XCTAssertFalse(AlertSwitches.notificationsAvailable(environment: ["PATH": directory.path]))
        XCTAssertFalse(AlertSwitches.notificationsAvailable(environment: [
            "PATH": "/nonexistent", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
    }
}
