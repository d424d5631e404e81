@testable import Display
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// The display read from across a room: digits that fill the terminal, the band of the
/// kind's colour, the flash, the info area, and the time done as the summary says it.
extension ScreenLayoutTests {
    static let roomSizes = [ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 80, rows: 24),
                            ScreenSize(columns: 120, rows: 40), ScreenSize(columns: 200, rows: 60)]

    /// Rows of big digits at a size (0 for the status line).
    func digitRows(_ state: DisplayState, _ size: ScreenSize, glyphs: Glyphs = .unicode) -> Int {
        ScreenLayout.layout(state, size: size, glyphs: glyphs).moving?.digits.count ?? 0
    }

    func testTheDigitsFillTheTerminalAtEachSize() {
        XCTAssertEqual(Self.roomSizes.map { digitRows(state(), $0) }, [5, 15, 33, 53])
        let info = state(info: "Keep your back straight")
        XCTAssertEqual(Self.roomSizes.map { digitRows(info, $0) }, [3, 15, 30, 50], "the info area has its row first")
        // With --tenths the clock is sized for 0:00.0, wider: the width limits it sooner.
        XCTAssertEqual(Self.roomSizes.map { digitRows(state(tenths: true), $0) }, [5, 15, 30, 50])
        for variant in [state(), info, state(remaining: 3725)] {
            let big = ScreenSize(columns: 200, rows: 60)
            XCTAssertGreaterThanOrEqual(Double(digitRows(variant, big)), 0.6 * 60, variant.clockText)
            // And they are wide, not only tall: the top row of ink spans half the screen.
            let lines = ScreenLayout.lines(variant, size: big, glyphs: .unicode)
            let top = lines.first { $0.text.contains("█") && !$0.text.contains("░") }?.text ?? ""
            let ink = top.trimmingCharacters(in: .whitespaces)
            XCTAssertGreaterThan(ink.unicodeScalars.count, 100, "\(variant.clockText): \(top)")
        }
    }

    func testTheDigitsNeverShrinkAsTheTerminalGrows() {
        let columns = Array(stride(from: 40, through: 208, by: 8))
        let rows = Array(stride(from: 12, through: 64, by: 4))
        let variants = [(state(), Glyphs.unicode), (state(info: String(repeating: "a long tip ", count: 20)), .unicode),
                        (state(remaining: 3725), .unicode), (state(), .ascii)]
        for (variant, glyphs) in variants {
            let height = columns.map { width in
                rows.map { digitRows(variant, ScreenSize(columns: width, rows: $0), glyphs: glyphs) }
            }
            for x in columns.indices.dropLast() {
                for y in rows.indices.dropLast() {
                    let here = "\(columns[x])×\(rows[y]) (\(variant.clockText))"
                    XCTAssertGreaterThanOrEqual(height[x + 1][y], height[x][y], "wider than \(here)")
                    XCTAssertGreaterThanOrEqual(height[x][y + 1], height[x][y], "taller than \(here)")
                }
            }
        }
    }

    func testEverythingElseStillFitsAtEachSize() {
        let long = String(repeating: "breathe out on the way up ", count: 12)
        for size in Self.roomSizes + [ScreenSize(columns: 41, rows: 13), ScreenSize(columns: 200, rows: 12)] {
            for variant in [state(info: long, band: true), state(remaining: 2.5, paused: true, info: "Jab, cross", flash: true),
                            state(message: DisplayMessage("Halfway", .cue), info: long, band: true, flash: true)] {
                let lines = ScreenLayout.lines(variant, size: size, glyphs: .unicode)
                XCTAssertEqual(lines.count, size.rows, "\(size)")
                for line in lines {
                    XCTAssertLessThanOrEqual(line.width, size.columns, "\(size): \(line.text)")
                }
                let text = lines.map(\.text)
                XCTAssertTrue(text[0].contains("HIIT"), "\(size): the header")
                XCTAssertTrue(text.contains { $0.contains("WORK  Burpees") }, "\(size): the title")
                XCTAssertTrue(text.contains { $0.contains("next: Rest 0:20") }, "\(size): next")
                XCTAssertTrue(text.contains { $0.contains("left") }, "\(size): the workout bar")
                XCTAssertTrue(text.last?.contains("space ") == true, "\(size): the keys")
                if variant.message != nil {
                    XCTAssertTrue(text.contains { $0.trimmingCharacters(in: .whitespaces) == "Halfway" }, "\(size)")
                }
                XCTAssertTrue(text.contains { $0.contains("breathe out") || $0.contains("Jab, cross") }, "\(size): the info")
            }
        }
    }

    func testTheInfoHasAnAreaOfItsOwnAndNextShowsItsInfo() {
        var shown = state(message: DisplayMessage("10 seconds", .cue), info: "Jab, cross, hook")
        shown.next?.info = "shake out the arms"
        let text = self.text(ScreenLayout.lines(shown, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        let info = text.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Jab, cross, hook" }
        let message = text.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "10 seconds" }
        XCTAssertNotNil(info, text.joined(separator: "\n"))
        XCTAssertNotNil(message, "a cue does not replace the info")
        XCTAssertNotEqual(info, message)
        XCTAssertTrue(text.contains { $0.trimmingCharacters(in: .whitespaces) == "next: Rest 0:20 · shake out the arms" },
                      text.joined(separator: "\n"))
        // Bold, and centred under the segment bar.
        let lines = ScreenLayout.lines(shown, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode)
        XCTAssertTrue(lines[info!].rendered(color: true).contains("\u{1B}[1mJab, cross, hook"))
        XCTAssertTrue(lines[info! - 1].text.contains("░"), "right under the segment bar")
    }

    func testALongInfoWrapsIntoThreeLinesAtMost() {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let wrapped = ScreenLayout.infoArea(words, width: 36, limit: 3, glyphs: .unicode)
        XCTAssertEqual(wrapped.count, 3)
        XCTAssertEqual(wrapped[0], "word1 word2 word3 word4 word5 word6")
        XCTAssertTrue(wrapped[2].hasSuffix("…"), wrapped[2])
        XCTAssertTrue(wrapped.allSatisfy { $0.unicodeScalars.count <= 36 }, "\(wrapped)")
        XCTAssertEqual(ScreenLayout.infoArea("short", width: 36, limit: 3, glyphs: .unicode), ["short"])
        XCTAssertEqual(ScreenLayout.infoArea(String(repeating: "x", count: 50), width: 20, limit: 3, glyphs: .ascii),
                       [String(repeating: "x", count: 20), String(repeating: "x", count: 20), String(repeating: "x", count: 10)])
        XCTAssertEqual(ScreenLayout.infoArea("a b", width: 20, limit: 0, glyphs: .unicode), [])
    }

    func testInfoInWords() {
        XCTAssertNil(InfoText.summary(.null))
        XCTAssertNil(InfoText.summary(.object([])))
        XCTAssertEqual(InfoText.summary(.object([("reps", .integer(10)), ("tip", .string("land softly"))])),
                       "land softly · reps: 10", "the sentence first, then the other fields")
        XCTAssertEqual(InfoText.summary(.object([("text", .string("Jab, cross")), ("tip", .string("hands up"))])),
                       "Jab, cross · tip: hands up")
        XCTAssertEqual(InfoText.summary(.object([("combo", .array([.string("jab"), .string("cross")])),
                                                 ("load", .number(12.5)), ("timed", .bool(true))])),
                       "combo: jab, cross · load: 12.5 · timed: yes")
        XCTAssertEqual(InfoText.summary(.object([("nested", .object([("a", .integer(1))]))])), #"nested: {"a":1}"#)
        XCTAssertEqual(InfoText.summary(.array([.string("a"), .string("b")])), "a, b")
        XCTAssertEqual(InfoText.summary(.object([("tip", .string("go\u{1B}[2J"))])), "go\\27[2J",
                       "a routine's text cannot drive the terminal")
    }

    func testTheBandTakesTheKindsColourAcrossTheWidth() {
        // Tall for its width: the digits stop growing with the width, and the band gets
        // rows of its own above and below them.
        let size = ScreenSize(columns: 80, rows: 40)
        for (kind, background) in [("work", "41"), ("rest", "42"), ("warmup", "43"), ("cooldown", "46"), ("prep", "45")] {
            var banded = state(band: true)
            banded.kind = kind
            let (lines, moving) = ScreenLayout.layout(banded, size: size, glyphs: .unicode)
            let band = try! XCTUnwrap(moving?.band)
            XCTAssertGreaterThan(band.count, moving!.digits.count, "\(kind): the band has rows above and below the digits")
            for row in band {
                XCTAssertEqual(lines[row].width, 80, "\(kind): row \(row) spans the width")
                XCTAssertTrue(lines[row].rendered(color: true).contains("\u{1B}[\(background)m"), "\(kind): row \(row)")
            }
            XCTAssertFalse(lines[band.upperBound].rendered(color: true).contains("\u{1B}[\(background)m"))
        }
        // Calm, a routine's own kind, and paused: the digits in their colour, no band.
        var own = state(band: true)
        own.kind = "stretch"
        for plain in [state(band: false), own, state(paused: true, band: true)] {
            let lines = ScreenLayout.lines(plain, size: size, glyphs: .unicode)
            XCTAssertFalse(lines.contains { $0.rendered(color: true).contains("\u{1B}[4") }, "no background: \(plain.kind)")
        }
        let calm = ScreenLayout.lines(state(band: false), size: size, glyphs: .unicode)
        XCTAssertTrue(calm.contains { $0.rendered(color: true).contains("\u{1B}[1;31m█") }, "red digits, as before")
    }

    func testTheFlashInvertsTheBand() {
        let size = ScreenSize(columns: 80, rows: 24)
        for band in [true, false] {
            let (plain, moving) = ScreenLayout.layout(state(band: band), size: size, glyphs: .unicode)
            let flashing = ScreenLayout.lines(state(band: band, flash: true), size: size, glyphs: .unicode)
            let digits = try! XCTUnwrap(moving?.digits)
            for row in digits {
                let before = Array(plain[row].text.padding(toLength: 80, withPad: " ", startingAt: 0).unicodeScalars)
                let after = Array(flashing[row].text.unicodeScalars)
                XCTAssertEqual(after.count, 80, "the flash spans the width")
                let inverse: [Unicode.Scalar: Unicode.Scalar] = [" ": "█", "█": " ", "▀": "▄", "▄": "▀"]
                XCTAssertEqual(after, before.map { inverse[$0]! }, "row \(row), band \(band)")
            }
            // Without colour the inverted cells still show it.
            XCTAssertFalse(flashing[digits.lowerBound].rendered(color: false).contains("\u{1B}"))
            XCTAssertTrue(flashing[digits.lowerBound].text.hasPrefix("█"))
            let style = band ? "\u{1B}[1;97;41m" : "\u{1B}[1;31m"
            XCTAssertTrue(flashing[digits.lowerBound].rendered(color: true).hasPrefix(style),
                          flashing[digits.lowerBound].rendered(color: true))
            for row in (moving?.band ?? 0..<0) where !digits.contains(row) {
                XCTAssertEqual(flashing[row].text, String(repeating: "█", count: 80), "the band's edge flashes too")
            }
        }
    }

    func testTheTimeDoneIsTheSummarysWithPausesApart() {
        var shown = state()
        shown.elapsed = 225
        shown.active = 200
        let bar = ScreenLayout.lines(shown, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode)
            .first { $0.text.contains(" left") }?.text ?? ""
        XCTAssertTrue(bar.hasPrefix("  3:45 (0:25 paused) "), bar)
        XCTAssertEqual(shown.elapsedText, SummaryText.elapsed(225, active: 200))
        let summary = Summary(completed: true, segmentsDone: 1, segmentsSkipped: 0, segments: 1, elapsed: 225,
                              active: 200, workSeconds: 0)
        XCTAssertTrue(SummaryText.line(routine: "HIIT", summary).hasPrefix("Finished HIIT in \(shown.elapsedText):"))
    }

    /// The snapshot's time done follows the session: pauses counted in `elapsed`, not in
    /// `active`, both standing still while paused, and equal to the summary at the end.
    func testTheSnapshotsTimeDoneAgreesWithTheSummary() throws {
        let harness = try Harness("""
            return workout { name = "Agree", work(10, "A"), rest(10, "B") }
            """)
        harness.session.start()
        harness.clock.advance(by: 4)
        harness.session.apply(.pause)
        harness.clock.advance(by: 25)
        var snapshot = harness.session.snapshot()
        XCTAssertEqual(snapshot.elapsed, 4, "while paused it stands at the pause")
        XCTAssertEqual(snapshot.active, 4)
        harness.session.apply(.resume)
        harness.clock.advance(by: 3)
        snapshot = harness.session.snapshot()
        XCTAssertEqual(snapshot.elapsed, 32)
        XCTAssertEqual(snapshot.active, 7)
        let shown = DisplayState(snapshot, countUp: false, message: nil, help: false)
        XCTAssertEqual(shown.elapsedText, "0:32 (0:25 paused)")
        XCTAssertEqual(snapshot.json["elapsed"], .number(32))
        XCTAssertEqual(snapshot.json["active"], .number(7))
        harness.clock.advance(by: 20)
        let summary = try XCTUnwrap(harness.session.summary)
        XCTAssertTrue(SummaryText.line(routine: "Agree", summary).hasPrefix("Finished Agree in 0:45 (0:25 paused)"))
    }
}
