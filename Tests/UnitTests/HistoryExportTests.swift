import PastSessions
import XCTest
@testable import History
@testable import IntervalEngine

/// `history export`'s CSV opened in a spreadsheet: text that would be a formula is text.
final class HistoryExportTests: XCTestCase {
    func cells(_ entry: HistoryEntry) -> [String] {
        let csv = HistoryExport.csv([entry])
        let row = csv.components(separatedBy: "\r\n")[1]
        // None of these cells holds a comma or a quote, so a split is the CSV reading.
        return row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    func testTextThatAFormulaStartsWithGetsAQuoteBeforeIt() {
        for start in ["=", "+", "-", "@", "\t", "\r"] {
            var entry = historyEntry("\(start)HYPERLINK(1)", started: "2026-05-01T07:00:00Z")
            entry.file = "\(start)cmd|calc"
            let row = cells(entry)
            XCTAssertEqual(row[2], start == "\r" ? "\"'\rHYPERLINK(1)\"" : "'\(start)HYPERLINK(1)", start.debugDescription)
            XCTAssertEqual(row[3], start == "\r" ? "\"'\rcmd|calc\"" : "'\(start)cmd|calc", start.debugDescription)
        }
        XCTAssertEqual(cells(historyEntry("Tabata = hard", started: "2026-05-01T07:00:00Z"))[2], "Tabata = hard")
    }

    /// Numbers stay numbers: a negative one (a history edited by hand) is not quoted.
    func testNumberCellsAreLeftAsNumbers() {
        let row = cells(historyEntry("P", started: "2026-05-01T07:00:00Z", work: -5))
        XCTAssertEqual(row[8], "-5")
        XCTAssertEqual(row[5], "100")
    }
}
