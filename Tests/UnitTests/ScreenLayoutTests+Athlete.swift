@testable import Display
import WorkoutValues
import TestSupport
import XCTest
@testable import IntervalEngine

/// An open segment on screen (a set that ends when the athlete says so): its time counting
/// up, the cap the bar fills toward, `Enter done` on the key line, and the tallies in words
/// and, where they fit, in big digits beside the clock.
extension ScreenLayoutTests {
    /// A set 42 s in, its cap (if any) 3 minutes, with `tallies` counted.
    func openSet(cap: Double? = 180, tallies: [TallyCount] = [], paused: Bool = false, info: String? = nil,
                 band: Bool = false) -> DisplayState {
        let duration = cap ?? 86_400
        var state = DisplayState(routine: "Strength", name: "Squats ×5", kind: "work", index: 3, count: 10,
                                 clock: ShownTime(remaining: duration - 42, tenths: false), duration: duration,
                                 countUp: true, round: 2, rounds: 5, info: info,
                                 next: .init(name: "Rest", kind: "rest", duration: 90),
                                 workoutDone: 400, workoutLeft: 600, paused: paused, band: band)
        state.open = true
        state.cap = cap
        state.tallies = tallies
        return state
    }

    static let sevenRounds = [TallyCount(name: "rounds", value: 7)]

    func testAnOpenSegmentFitsExactlyAtEverySize() {
        let variants = [openSet(), openSet(cap: nil), openSet(tallies: Self.sevenRounds),
                        openSet(cap: nil, tallies: [TallyCount(name: "rounds", value: 1234), TallyCount(name: "reps", value: 56)],
                                paused: true, info: String(repeating: "brace and breathe ", count: 10), band: true),
                        openSet(tallies: Self.sevenRounds, info: "Bar on the back", band: true),
                        withSensors(openSet(tallies: Self.sevenRounds), hr: 188, power: 1234, zone: 5),
                        withSensors(openSet(cap: nil, band: true), hr: 62, power: nil, zone: nil, stale: true)]
        var sizes = Self.roomSizes + [ScreenSize(columns: 41, rows: 13), ScreenSize(columns: 200, rows: 12),
                                      ScreenSize(columns: 39, rows: 24), ScreenSize(columns: 20, rows: 5)]
        for columns in stride(from: 40, through: 130, by: 9) {
            for rows in stride(from: 12, through: 44, by: 4) { sizes.append(ScreenSize(columns: columns, rows: rows)) }
        }
        for size in sizes {
            for (number, variant) in variants.enumerated() {
                for glyphs in [Glyphs.unicode, .ascii] {
                    let lines = ScreenLayout.lines(variant, size: size, glyphs: glyphs)
                    let full = size.columns >= 40 && size.rows >= 12
                    XCTAssertEqual(lines.count, full ? size.rows : 1, "\(size) variant \(number)")
                    for line in lines {
                        XCTAssertLessThanOrEqual(line.width, size.columns, "\(size) variant \(number): \(line.text)")
                    }
                    let text = lines.map(\.text).joined(separator: "\n")
                    if let first = variant.tallies.first, size.columns >= 40 {
                        XCTAssertTrue(text.contains("\(first.name) \(first.value)"), "\(size) variant \(number):\n\(text)")
                    }
                    if full {
                        XCTAssertTrue(text.contains("WORK  Squats ×5"), "\(size) variant \(number):\n\(text)")
                    }
                }
            }
        }
    }

    func testTheClockCountsUpAndTheKeyLineOffersDone() {
        let lines = text(ScreenLayout.lines(openSet(), size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertEqual(openSet().clockText, "0:42")
        XCTAssertTrue(lines.last!.contains("Enter done"), lines.last!)
        let narrow = text(ScreenLayout.lines(openSet(), size: ScreenSize(columns: 40, rows: 12), glyphs: .unicode))
        XCTAssertTrue(narrow.last!.trimmingCharacters(in: .whitespaces).hasPrefix("Enter done  space pause"),
                      "first, so that 40 columns show it: \(narrow.last!)")
        let timed = text(ScreenLayout.lines(state(), size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertFalse(timed.last!.contains("Enter"), "a timed segment has no done: \(timed.last!)")
        let status = StatusLine.line(openSet(tallies: Self.sevenRounds), width: 80, glyphs: .unicode).text
        XCTAssertEqual(status, "WORK  Squats ×5  0:42  rounds 7  round 2/5  next: Rest  10:00 left")
    }

    func testTheSegmentBarFillsTowardTheCap() {
        // 42 of 168 s on a bar of 44 − 4 − 9 ("cap 2:48" and its space) = 31 cells: 7.75.
        var set = openSet(cap: 168)
        set.clock = ShownTime(remaining: 126, tenths: false)
        let lines = text(ScreenLayout.lines(set, size: ScreenSize(columns: 44, rows: 12), glyphs: .ascii))
        let bar = "  " + String(repeating: "#", count: 7) + String(repeating: "-", count: 24) + " cap 2:48"
        XCTAssertTrue(lines.contains(bar), lines.joined(separator: "\n"))
    }

    func testWithoutACapTheBarSaysHowTheSetEnds() {
        let lines = text(ScreenLayout.lines(openSet(cap: nil), size: ScreenSize(columns: 60, rows: 16), glyphs: .unicode))
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "open · Enter when done" },
                      lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains { $0.contains("░") && !$0.contains("left") }, "no bar toward a day")
    }

    /// The tallies' words take a spare row below the band; where there is none (40×12)
    /// they lead the row of round and next and survive its cut.
    func testTheTalliesInWords() {
        let tallies = [TallyCount(name: "rounds", value: 7), TallyCount(name: "reps", value: 30)]
        let roomy = text(ScreenLayout.lines(openSet(tallies: tallies), size: ScreenSize(columns: 80, rows: 24),
                                            glyphs: .unicode))
        XCTAssertTrue(roomy.contains { $0.trimmingCharacters(in: .whitespaces) == "rounds 7 · reps 30" },
                      roomy.joined(separator: "\n"))
        XCTAssertTrue(roomy.contains { $0.trimmingCharacters(in: .whitespaces) == "round 2/5" })
        let tight = text(ScreenLayout.lines(openSet(tallies: tallies), size: ScreenSize(columns: 40, rows: 12),
                                            glyphs: .unicode))
        XCTAssertTrue(tight.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("rounds 7 · reps 30  ·  round 2/5") },
                      tight.joined(separator: "\n"))
        let styled = ScreenLayout.lines(openSet(tallies: tallies), size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode)
            .first { $0.text.contains("rounds 7") }!
        XCTAssertTrue(styled.rendered(color: true).contains("\u{1B}[1mrounds 7"), "bold")
    }

    /// The count stands beside the clock in the same digits where the height, not the
    /// width, limits the clock (a wide terminal, or the smallest); it never makes the
    /// clock smaller: its scale is the clock's own.
    func testTheFirstTallyInBigDigitsBesideTheClock() {
        let ink = { (layout: (lines: [Line], moving: ScreenLayout.MovingRows?)) in
            layout.moving!.digits.map { layout.lines[$0].text.filter { $0 != " " }.count }.reduce(0, +)
        }
        for (size, beside) in [(ScreenSize(columns: 40, rows: 12), true), (ScreenSize(columns: 120, rows: 20), true),
                               (ScreenSize(columns: 200, rows: 30), true), (ScreenSize(columns: 80, rows: 24), false),
                               (ScreenSize(columns: 200, rows: 60), false)] {
            let plain = ScreenLayout.layout(openSet(), size: size, glyphs: .unicode)
            let counted = ScreenLayout.layout(openSet(tallies: Self.sevenRounds), size: size, glyphs: .unicode)
            XCTAssertEqual(plain.moving?.digits.count, counted.moving?.digits.count, "the same digits at \(size)")
            // A 7 is a top row and a stroke: more ink than the clock alone.
            XCTAssertEqual(ink(counted) > ink(plain), beside, "the 7 beside the clock at \(size): \(beside)")
            XCTAssertTrue(counted.lines.contains { $0.text.contains("rounds 7") }, "and in words at \(size)")
        }
        // 40 columns: "0:42" is 26 columns at this scale; "1234" beside it is not room.
        let narrow = ScreenSize(columns: 40, rows: 12)
        let many = openSet(tallies: [TallyCount(name: "rounds", value: 1234)])
        XCTAssertEqual(ScreenLayout.lines(many, size: narrow, glyphs: .unicode)[2...6].map(\.text),
                       ScreenLayout.lines(openSet(), size: narrow, glyphs: .unicode)[2...6].map(\.text),
                       "the digits as without it")
    }

    /// `state` with a heart-rate strap (and a power meter) giving values.
    func withSensors(_ state: DisplayState, hr: Int?, power: Int?, zone: Int?, stale: Bool = false) -> DisplayState {
        var readings = SensorReadings()
        readings.take(SensorSample(sensor: "AA:BB:CC:DD:EE:FF", name: "Strap", hr: hr, power: power))
        if stale { _ = readings.markStale("AA:BB:CC:DD:EE:FF") }
        var state = state
        state.sensors = SensorLine(readings: readings, zone: zone)
        return state
    }

    /// The styles of the spans in the rows of the big digits.
    func digitStyles(_ state: DisplayState, size: ScreenSize) -> Set<String> {
        let layout = ScreenLayout.layout(state, size: size, glyphs: .unicode)
        return Set(layout.moving!.digits.flatMap { layout.lines[$0].spans.compactMap(\.sgr) })
    }

    /// The heart rate stands beside the clock in the same big digits at every size of the
    /// full display (the clock keeps room for three digits), in its zone's colour on the
    /// terminal's background, dim when the strap dropped out; and in words in the title row.
    func testTheHeartRateStandsBesideTheClockInItsZonesColour() {
        /// Cells of ink in the digits' spans styled `sgr`.
        func ink(_ state: DisplayState, _ size: ScreenSize, _ sgr: String) -> Int {
            let layout = ScreenLayout.layout(state, size: size, glyphs: .unicode)
            return layout.moving!.digits.flatMap { layout.lines[$0].spans }
                .filter { $0.sgr == sgr }.map { $0.text.filter { $0 != " " }.count }.reduce(0, +)
        }
        func digits(_ state: DisplayState, _ size: ScreenSize) -> [String] {
            let layout = ScreenLayout.layout(state, size: size, glyphs: .unicode)
            return layout.moving!.digits.map { layout.lines[$0].text }
        }
        for size in [ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 80, rows: 24),
                     ScreenSize(columns: 120, rows: 30), ScreenSize(columns: 200, rows: 60)] {
            let hr = withSensors(openSet(), hr: 142, power: nil, zone: 3)
            XCTAssertGreaterThan(ink(hr, size, "1;32"), 0, "142 beside the clock, zone 3 green, at \(size)")
            XCTAssertNotEqual(digits(hr, size), digits(withSensors(openSet(), hr: 118, power: nil, zone: 3), size),
                              "the number itself is drawn at \(size)")
            let lines = ScreenLayout.lines(hr, size: size, glyphs: .unicode)
            XCTAssertTrue(lines[0].text.contains("142 bpm Z3"), "in words too at \(size): \(lines[0].text)")
            XCTAssertTrue(lines.allSatisfy { $0.width <= size.columns }, "fits at \(size)")
            let stale = withSensors(openSet(), hr: 142, power: nil, zone: 3, stale: true)
            XCTAssertGreaterThan(ink(stale, size, "2"), 0, "dim when stale at \(size)")
            XCTAssertEqual(ink(stale, size, "1;32"), 0, "not in its zone's colour at \(size)")
            // On a coloured band the number takes the clock's ink: a zone's colour could be the band's.
            let banded = withSensors(openSet(band: true), hr: 142, power: nil, zone: 2)
            XCTAssertEqual(ink(banded, size, "1;34"), 0, "no zone colour on the band at \(size)")
            XCTAssertNotEqual(digits(banded, size), digits(openSet(band: true), size), "but the number at \(size)")
        }
        // Without a heart rate, the power takes its place.
        let size = ScreenSize(columns: 80, rows: 24)
        XCTAssertNotEqual(digits(withSensors(openSet(), hr: nil, power: 250, zone: nil), size),
                          digits(withSensors(openSet(), hr: nil, power: 888, zone: nil), size), "250 W beside the clock")
    }

    /// A tick redraws only the moving rows, as for a timed segment; a count lays the
    /// screen out again. Either way the frame is what a whole layout gives.
    func testATickOfAnOpenSegmentRedrawsOnlyTheMovingRows() {
        let size = ScreenSize(columns: 80, rows: 24)
        let first = openSet(tallies: Self.sevenRounds)
        var later = first
        later.clock = ShownTime(remaining: 180 - 43, tenths: false)
        let frame = ScreenFrame(first, size: size, glyphs: .unicode)
        let ticked = frame.updated(to: later)
        XCTAssertNotNil(ticked.relaid)
        XCTAssertEqual(ticked.lines, ScreenLayout.lines(later, size: size, glyphs: .unicode))
        var counted = later
        counted.tallies = [TallyCount(name: "rounds", value: 8)]
        let relaid = ticked.updated(to: counted)
        XCTAssertNil(relaid.relaid, "a new count is a new layout")
        XCTAssertEqual(relaid.lines, ScreenLayout.lines(counted, size: size, glyphs: .unicode))
    }

    /// From a real session on the virtual clock: the open set counts up with a whole
    /// second's wake-ups, the tally and the cap come through, and done starts the rest.
    /// A distance step's bar: what it waits for before a source said, then the metres
    /// covered of the step's, filling toward them.
    func testADistanceStepsBarFillsTowardItsMetres() throws {
        let harness = try Harness("""
            return workout { name = "Track", countdown = 0, work{ distance = 400, name = "Rep", cap = "3m" } }
            """)
        harness.session.start()
        harness.clock.advance(by: 1)
        var state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(state.distance, DisplayState.DistanceStep(metres: 400, covered: nil))
        var lines = text(ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "400 m · no distance yet" }, lines.joined(separator: "\n"))
        harness.session.take(SensorSample(sensor: "T", name: "Treadmill", values: [.distance: 1_000, .speed: 12]))
        harness.clock.advance(by: 30)
        harness.session.take(SensorSample(sensor: "T", name: "Treadmill", values: [.distance: 1_100.6, .speed: 12]))
        state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        lines = text(ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertTrue(lines.contains { $0.hasSuffix(" 100 m of 400 m") }, lines.joined(separator: "\n"))
    }

    func testTheStateOfARunningOpenSegment() throws {
        let harness = try Harness("""
            return workout { name = "Sets", countdown = 0, rest(5, "Ready"),
              work{ open = true, name = "Squats", cap = "3m", expect = 45 }, rest(90, "Rest") }
            """)
        harness.session.start()
        let ready = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertEqual(ScreenLayout.nextText(ready, glyphs: .unicode), "next: Squats open ~0:45")
        harness.clock.advance(by: 5 + 42.5)
        harness.session.apply(.tally(name: "rounds", add: 1))
        let snapshot = harness.session.snapshot()
        XCTAssertEqual(snapshot.nextChange!, 48, accuracy: 1e-9, "the next whole second, as a countdown")
        var state = DisplayState(snapshot, countUp: false, message: nil, help: false)
        XCTAssertTrue(state.open)
        XCTAssertEqual(state.cap, 180)
        XCTAssertEqual(state.clockText, "0:42")
        XCTAssertEqual(state.tallies, [TallyCount(name: "rounds", value: 1)])
        var lines = text(ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertTrue(lines.contains { $0.hasSuffix(" cap 3:00") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "rounds 1" })
        harness.clock.advance(by: 1)
        harness.session.apply(.done)
        harness.clock.advance(by: 0.5)
        state = DisplayState(harness.session.snapshot(), countUp: false, message: nil, help: false)
        XCTAssertFalse(state.open)
        XCTAssertEqual(state.name, "Rest")
        XCTAssertEqual(state.clockText, "1:30", "the rest counts down from the done moment")
        lines = text(ScreenLayout.lines(state, size: ScreenSize(columns: 80, rows: 24), glyphs: .unicode))
        XCTAssertFalse(lines.last!.contains("Enter"), lines.last!)
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "rounds 1" }, "tallies last the workout")
    }
}
