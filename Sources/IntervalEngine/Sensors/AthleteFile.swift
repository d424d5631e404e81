import Foundation
import Platform
import WorkoutValues

/// The athlete's own values for every run, so that `--set max_hr=… --set ftp=…` need not
/// be typed each time: `$XDG_CONFIG_HOME/workout/athlete`, one `name = value` a line
/// (`#` starts a comment). `--set` wins over the file. The values reach a run as settings,
/// the same way `--set` does, so a routine that declares `max_hr` or `ftp` reads them too.
public struct AthleteFile: Sendable {
    public let path: String

    public init(directories: UserDirectories) {
        path = directories.config("athlete")
    }

    /// The largest file read (a few lines are enough); larger is refused by its size.
    public static let largest = 64 * 1024

    /// The file's settings, each checked as `--set` checks it; a missing file has none. A
    /// bad line is an error naming the file and the line.
    public func read() throws(RoutineError) -> [ParameterSetting] {
        try readAll().settings
    }

    /// The settings that are not the athlete's but a run's, read from the same file so
    /// that a user has one place for what every run takes: `mqtt = URL` (`run --mqtt`),
    /// `mqtt_ca = FILE` (`--mqtt-ca`), `mqtt_password_file = FILE` (`--mqtt-password-file`)
    /// and `intervals_upload = no` (`--no-upload`). The command line checks their values,
    /// naming the line (`RunOption.place`).
    public static let runOptionNames: Set<String> = ["mqtt", "mqtt_ca", "mqtt_password_file", "intervals_upload"]

    /// A run's option from the file: its value, and `file:line` for an error about it.
    public struct RunOption: Sendable, Equatable {
        public var value: String
        public var place: String
    }

    /// The file's `runOptionNames` lines, the last of each name.
    public func runOptions() throws(RoutineError) -> [String: RunOption] {
        try readAll().options
    }

    private func readAll() throws(RoutineError) -> (settings: [ParameterSetting], options: [String: RunOption]) {
        let name = VisibleText.escape(path)
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, maximumSize: Self.largest)
        } catch {
            if case .missing = error { return ([], [:]) }
            throw RoutineError("\(name): \(error.explanation(what: "the athlete file"))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RoutineError("\(name): cannot be read as UTF-8 text")
        }
        var settings: [ParameterSetting] = []
        var options: [String: RunOption] = [:]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingWhitespace()
            guard !line.isEmpty else { continue }
            let place = "\(name):\(number + 1)"
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String($0).trimmingWhitespace() }
            guard parts.count == 2 else {
                throw RoutineError("\(place): expected NAME = VALUE (max_hr = 185, ftp = 250), got \(VisibleText.escape(line))")
            }
            if Self.runOptionNames.contains(parts[0]) {
                options[parts[0]] = RunOption(value: parts[1], place: place)
                continue
            }
            guard Athlete.settingNames.contains(parts[0]) else {
                let names = Athlete.settingNames.union(Self.runOptionNames).sorted()
                let known = names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
                throw RoutineError("\(place): \(VisibleText.escape(parts[0])) is not a setting here; the file takes \(known)")
            }
            let setting = ParameterSetting(name: parts[0], text: parts[1])
            guard Athlete.value(setting.name, setting.text) != nil else {
                throw RoutineError("\(place): \(setting.name) must be \(Athlete.expected(setting.name)), got \(VisibleText.escape(parts[1]))")
            }
            settings.removeAll { $0.name == setting.name }
            settings.append(setting)
        }
        return (settings, options)
    }

    /// `given` (the command line's `--set`s) with the file's values for the names they
    /// leave out, the file's first.
    public func settings(under given: [ParameterSetting]) throws(RoutineError) -> [ParameterSetting] {
        try read().filter { file in !given.contains { $0.name == file.name } } + given
    }
}
