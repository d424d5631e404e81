import Activity
import ArgumentParser
import Foundation
import History
import IntervalEngine
import PastSessions
import Platform
import WorkoutValues

/// `workout history export`: every session, sped-up ones included, as CSV or JSON; or one
/// session (or each, with `--all`) as an activity file, FIT or TCX, for Strava,
/// Garmin Connect, intervals.icu and the like.
struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every session as CSV or JSON, or write one session as a FIT or TCX activity file.",
        discussion: """
            With --format fit or tcx, name the session (last, N counting back from the \
            latest, or its start as YYYY-MM-DD or YYYY-MM-DDTHH:MM): it is written to \
            -o FILE (- for standard output), else to its start time's name in the current \
            folder. --all writes every session (within --since/--until) into -o DIR. A \
            lap a segment; heart rate, power and cadence a second where sensors gave them.
            """)

    /// The whole history as a table (`csv`, `json`), or one session as an activity file
    /// (`ActivityExport`'s formats: `fit`, `tcx`).
    enum Format: ExpressibleByArgument, Equatable {
        case csv, json
        case activity(ActivityExport.Format)

        init?(argument: String) {
            switch argument {
            case "csv": self = .csv
            case "json": self = .json
            default:
                guard let format = ActivityExport.Format(rawValue: argument) else { return nil }
                self = .activity(format)
            }
        }

        var name: String {
            switch self {
            case .csv: "csv"
            case .json: "json"
            case .activity(let format): format.rawValue
            }
        }

        var defaultValueDescription: String { name }
        static var allValueStrings: [String] { ["csv", "json"] + ActivityExport.Format.allCases.map(\.rawValue) }
    }

    @Argument(help: ArgumentHelp("For fit and tcx: last, N (1 is the latest), or the start as YYYY-MM-DD[THH:MM].",
                                 valueName: "session"))
    var session: String?

    @Option(help: "csv (RFC 4180; scores as JSON text), json, fit or tcx.")
    var format: Format = .csv

    @Option(name: [.short, .long], help: ArgumentHelp("The file to write (- for standard output); with --all, a folder.",
                                                       valueName: "path"))
    var output: String?

    @Flag(help: "With fit or tcx: every session, each to its own file in the -o folder.")
    var all = false

    @OptionGroup var dates: HistoryDates

    func validate() throws {
        switch format {
        case .csv, .json:
            if session != nil || all {
                throw ValidationError("--format \(format.name) exports every session: a session or --all is for fit and tcx")
            }
        case .activity:
            if all && session != nil { throw ValidationError("give a session or --all, not both") }
            if !all && session == nil { throw ValidationError("--format \(format.name) needs a session (last, N or a date) or --all") }
            if all && (output == nil || output == "-") { throw ValidationError("--all needs -o DIR, the folder to write into") }
        }
    }

    func run() throws {
        let (file, contents) = try HistoryReading.read()
        switch format {
        case .json:
            let entries = HistoryExport.select(contents.entries, since: dates.sinceDay, until: dates.untilDay)
            try write(Array(HistoryExport.json(entries).utf8))
        case .csv:
            let entries = HistoryExport.select(contents.entries, since: dates.sinceDay, until: dates.untilDay)
            // A CSV file keeps names as they are; a terminal gets them escaped.
            let escape = output == nil && isatty(STDOUT_FILENO) == 1
            try write(Array(HistoryExport.csv(entries) { escape ? VisibleText.escape($0) : $0 }.utf8))
        case .activity(let activityFormat):
            if all {
                try exportAll(contents.entries, history: file, format: activityFormat)
            } else {
                try exportOne(contents, history: file, format: activityFormat)
            }
        }
    }

    private static var creator: FITActivity.Creator { FITActivity.Creator(name: "workout", version: Version.number) }

    private func exportOne(_ contents: HistoryFile.Contents, history: HistoryFile, format: ActivityExport.Format) throws {
        let entries = contents.entries
        let position: Int
        do {
            position = try ActivityExport.choose(session ?? "last", in: entries)
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
        if let note = ActivityExport.countedPast(session ?? "last", line: contents.lines[position], damaged: contents.damaged,
                                                 entry: entries[position]) {
            Output.error("workout: \((history.path as NSString).lastPathComponent):\(note)")
        }
        let entry = entries[position]
        let (activity, warning) = ActivityExport.activity(entry, beside: history)
        if let warning { Output.error("workout: \(warning)") }
        let bytes = ActivityExport.encode(activity, as: format, creator: Self.creator)
        if output == "-" {
            if format == .fit && isatty(STDOUT_FILENO) == 1 {
                Output.error("workout: a FIT file is binary: give -o FILE, or send standard output to a file")
                throw ExitCode.failure
            }
            try write(bytes)
            return
        }
        let path = output ?? ActivityExport.fileName(entry, format: format)
        try save(bytes, to: path)
        Output.line("Wrote \(path.visible): \(Self.describe(activity)).")
    }

    private func exportAll(_ entries: [HistoryEntry], history: HistoryFile, format: ActivityExport.Format) throws {
        guard let folder = output else { return }
        do {
            try SavedFile.makeFolder(folder)
        } catch {
            Output.error("workout: cannot create \(error)")
            throw ExitCode.failure
        }
        let chosen = HistoryExport.select(entries, since: dates.sinceDay, until: dates.untilDay)
        for (entry, name) in zip(chosen, ActivityExport.fileNames(chosen, format: format)) {
            let (activity, warning) = ActivityExport.activity(entry, beside: history)
            if let warning { Output.error("workout: \(warning)") }
            let path = (folder as NSString).appendingPathComponent(name)
            try save(ActivityExport.encode(activity, as: format, creator: Self.creator), to: path)
        }
        Output.line("Wrote \(chosen.count) session\(chosen.count == 1 ? "" : "s") into \(folder.visible).")
    }

    /// `12 laps, 3,600 records`.
    static func describe(_ activity: Activity) -> String {
        let laps = "\(activity.laps.count) lap\(activity.laps.count == 1 ? "" : "s")"
        guard !activity.records.isEmpty else { return laps + ", no samples" }
        return laps + ", \(activity.records.count) second\(activity.records.count == 1 ? "" : "s") of samples"
    }

    private func write(_ bytes: [UInt8]) throws {
        if let output, output != "-" {
            try save(bytes, to: output)
        } else {
            Output.write(bytes)
        }
    }

    /// Writes the file whole or not at all (`SavedFile`); a failure is said
    /// (`workout: FILE: No space left on device`) and ends the command with status 1.
    private func save(_ bytes: [UInt8], to path: String) throws {
        do {
            try SavedFile.write(bytes, to: path)
        } catch {
            Output.error("workout: \(error)")
            throw ExitCode.failure
        }
    }
}
