import FIT
import Foundation
import IntervalEngine
import WorkoutValues

/// A session as a TCX file (Garmin's Training Center XML, TrainingCenterDatabase v2),
/// which Strava and most other services take too: an activity with a lap a segment
/// (its name in the lap's notes, since TCX laps have no name), each lap's heart rate and
/// cadence, and a trackpoint a record; power goes in Garmin's ActivityExtension v2
/// (`Watts` on a trackpoint, `AvgWatts` on a lap), as every reader of TCX expects it.
public enum TCXActivity {
    public static func encode(_ activity: Activity, creator: FITActivity.Creator) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" \
            xmlns:ax="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
              <Activities>
                <Activity Sport="\(activity.sport == .running ? "Running" : activity.sport == .cycling ? "Biking" : "Other")">
                  <Id>\(time(activity.start))</Id>

            """
        var records = activity.records[...]
        for (number, lap) in activity.laps.enumerated() {
            xml += "      <Lap StartTime=\"\(time(lap.start))\">\n"
            // Lap_t's sequence: the lap's own elements and the quantities' figures, each at
            // its position in it.
            var elements: [(position: Int, text: String)] = [
                (0, "<TotalTimeSeconds>\(Number.format(Number.rounded(lap.timer, places: 3)))</TotalTimeSeconds>"),
                (1, "<DistanceMeters>0</DistanceMeters>"), (3, "<Calories>0</Calories>"),
                (6, "<Intensity>\(FITIntensity(kind: lap.kind) == .rest ? "Resting" : "Active")</Intensity>"),
                (8, "<TriggerMethod>Time</TriggerMethod>"), (10, "<Notes>\(XMLText.escape(lap.name))</Notes>"),
            ]
            var points = ""
            while let record = records.first, record.time < lap.end || number == activity.laps.count - 1 {
                points += trackpoint(record)
                records = records.dropFirst()
            }
            if !points.isEmpty { elements.append((9, "<Track>\n" + points + "        </Track>")) }
            let (figures, extensions) = quantities { quantity in
                [(quantity.tcx.lapAverage, lap.figures[quantity, .average]), (quantity.tcx.lapMaximum, lap.figures[quantity, .maximum])]
            }
            elements += figures
            if !extensions.isEmpty { elements.append((11, "<Extensions><ax:LX>\(extensions)</ax:LX></Extensions>")) }
            for element in elements.sorted(by: { $0.position < $1.position }) { xml += "        " + element.text + "\n" }
            xml += "      </Lap>\n"
        }
        xml += """
                  <Notes>\(XMLText.escape(activity.name))</Notes>
                </Activity>
              </Activities>
              <Author xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Application_t">
                <Name>\(XMLText.escape(creator.name))</Name>
                <Build><Version><VersionMajor>\(creator.version / 100)</VersionMajor><VersionMinor>\(creator.version % 100)</VersionMinor></Version></Build>
                <LangID>en</LangID>
                <PartNumber>000-00000-00</PartNumber>
              </Author>
            </TrainingCenterDatabase>

            """
        return xml
    }

    private static func trackpoint(_ record: ActivityRecord) -> String {
        var point = "          <Trackpoint><Time>\(time(record.time))</Time>"
        let (elements, extensions) = quantities { [($0.tcx.trackpoint, record.sample[$0])] }
        point += elements.map(\.text).joined()
        if !extensions.isEmpty { point += "<Extensions><ax:TPX>\(extensions)</ax:TPX></Extensions>" }
        return point + "</Trackpoint>\n"
    }

    /// The quantities' elements (`SensorQuantity.tcx`) that `values` gives for each, with
    /// a value: those of the schema's own sequence, and the extension's, written in
    /// their sequence's order.
    private static func quantities(_ values: (SensorQuantity) -> [(TCXElement?, Double?)])
        -> (elements: [(position: Int, text: String)], extensions: String) {
        var elements: [(position: Int, text: String)] = []
        var extensions: [(position: Int, text: String)] = []
        for quantity in SensorQuantity.allCases {
            for case let (element?, value?) in values(quantity) {
                guard let text = text(element, value * quantity.inActivityFiles) else { continue }
                if element.inExtension { extensions.append((element.position, text)) } else { elements.append((element.position, text)) }
            }
        }
        let sorted = extensions.sorted { $0.position < $1.position }.map(\.text).joined()
        return (elements.sorted { $0.position < $1.position }, sorted)
    }

    /// `<Cadence>90</Cadence>`, `<HeartRateBpm><Value>142</Value></HeartRateBpm>`,
    /// `<ax:Watts>250</ax:Watts>`; nil for a 0 the element leaves out.
    private static func text(_ element: TCXElement, _ value: Double) -> String? {
        var number: String
        if element.places == 0 {
            var whole = Int(value.rounded())
            if element.positive, whole <= 0 { return nil }
            if let largest = element.largest { whole = min(whole, largest) }
            number = String(whole)
        } else {
            number = Number.format(Number.rounded(value, places: element.places))
        }
        if element.valueElement { number = "<Value>\(number)</Value>" }
        let name = (element.inExtension ? "ax:" : "") + element.name
        return "<\(name)>\(number)</\(name)>"
    }

    /// `2026-11-25T18:14:25.000Z`: xsd:dateTime in UTC, to the millisecond.
    static func time(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let seconds = time_t((milliseconds / 1000).rounded(.down))
        var parts = tm()
        var value = seconds
        gmtime_r(&value, &parts)
        // Digits by hand: String(format:) costs more than the rest of a trackpoint.
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + "-" + digits(parts.tm_mon + 1, 2) + "-" + digits(parts.tm_mday, 2)
            + "T" + digits(parts.tm_hour, 2) + ":" + digits(parts.tm_min, 2) + ":" + digits(parts.tm_sec, 2) + "."
            + digits(Int32(Int(milliseconds) - Int(seconds) * 1000), 3) + "Z"
    }
}
