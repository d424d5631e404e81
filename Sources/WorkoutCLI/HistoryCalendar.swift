import Display
import IntervalEngine

/// The calendar heatmap of `workout history stats`, as GitHub draws contributions: one
/// row per weekday (Monday first), one column per week (the latest on the right), each
/// day shaded by its minutes of work, months named above, a legend below. The shade is
/// in the glyph as well as the colour, so it reads with `NO_COLOR` and in ASCII.
public enum HistoryCalendar {
    /// Minutes of work from which a day gets the next darker shade (any work at all
    /// gets the first).
    public static let thresholds: [Double] = [10, 20, 40]
    /// Greens from the 256-colour palette, darkest for the least; a day without work is dim.
    static let colours = ["2", "38;5;22", "38;5;28", "38;5;34", "38;5;40"]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// Columns before the first week: a weekday's name and a space.
    static let margin = 4

    /// 0 for no work, then 1 to 4.
    public static func level(_ seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return 1 + thresholds.filter { seconds / 60 >= $0 }.count
    }

    /// The first day the calendar shows: the Monday `weeks - 1` weeks before `last`'s.
    public static func firstDay(through last: LocalDay, weeks: Int) -> LocalDay {
        last.monday.advanced(by: -7 * (max(1, weeks) - 1))
    }

    /// The month names line, the seven weekday rows and the legend. Days after `last`
    /// (the rest of this week) are blank.
    public static func lines(work: [LocalDay: Double], through last: LocalDay, weeks: Int, glyphs: Glyphs) -> [Line] {
        let weeks = max(1, weeks)
        let first = firstDay(through: last, weeks: weeks)
        var rows: [Line] = [monthNames(from: first, weeks: weeks)]
        for weekday in 0..<7 {
            var spans = [Span(weekdays[weekday] + " ")]
            for week in 0..<weeks {
                let day = first.advanced(by: 7 * week + weekday)
                guard day <= last else { break }
                let shade = level(work[day] ?? 0)
                spans.append(Span(glyphs.shades[shade], colours[shade]))
                spans.append(Span(" "))
            }
            rows.append(Line(spans))
        }
        rows.append(legend(glyphs))
        return rows
    }

    /// `Jun` over the week holding the 1st of June (and the first week's month, when
    /// there is room before the next name).
    static func monthNames(from first: LocalDay, weeks: Int) -> Line {
        var text = ""
        for week in 0..<weeks {
            let monday = first.advanced(by: 7 * week)
            let dates = (0..<7).map { monday.advanced(by: $0).date }
            guard let month = week == 0 ? dates[0].month : dates.first(where: { $0.day == 1 })?.month else { continue }
            let column = margin + 2 * week
            // The first week's name only when the second week does not start a month.
            guard text.count <= column else { continue }
            if week == 0, weeks > 1, (7..<14).contains(where: { first.advanced(by: $0).date.day == 1 }) { continue }
            text += String(repeating: " ", count: column - text.count) + months[month - 1]
        }
        return Line(text)
    }

    static func legend(_ glyphs: Glyphs) -> Line {
        let dash = glyphs == .unicode ? "–" : "-"
        let labels = ["no work", "under \(Int(thresholds[0])) min", "\(Int(thresholds[0]))\(dash)\(Int(thresholds[1]))",
                      "\(Int(thresholds[1]))\(dash)\(Int(thresholds[2]))", "\(Int(thresholds[2])) min or more"]
        var spans = [Span(String(repeating: " ", count: margin))]
        for (shade, label) in labels.enumerated() {
            spans.append(Span(glyphs.shades[shade], colours[shade]))
            spans.append(Span(" " + label + (shade < labels.count - 1 ? "  " : "")))
        }
        return Line(spans)
    }
}
