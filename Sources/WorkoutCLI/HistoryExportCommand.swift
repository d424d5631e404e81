import ArgumentParser
import Foundation
import IntervalEngine

/// `workout history export`: every session, sped-up ones included, as CSV or JSON.
struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every session as CSV (with a header) or as a JSON array, sped-up ones included.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, json
    }

    @Option(help: "csv (RFC 4180; scores as JSON text) or json.")
    var format: Format = .csv

    @OptionGroup var dates: HistoryDates

    func run() throws {
        let (_, contents) = try HistoryReading.read()
        let entries = HistoryExport.select(contents.entries, since: dates.sinceDay, until: dates.untilDay)
        switch format {
        case .json:
            Output.write(HistoryExport.json(entries))
        case .csv:
            // A CSV file keeps names as they are; a terminal gets them escaped.
            let escape = isatty(STDOUT_FILENO) == 1
            Output.write(HistoryExport.csv(entries) { escape ? VisibleText.escape($0) : $0 })
        }
    }
}
