import Foundation
import IntervalEngine

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
                <Activity Sport="\(activity.hasPower ? "Biking" : "Other")">
                  <Id>\(time(activity.start))</Id>

            """
        var records = activity.records[...]
        for (number, lap) in activity.laps.enumerated() {
            let figures = lap.figures
            xml += "      <Lap StartTime=\"\(time(lap.start))\">\n"
            xml += "        <TotalTimeSeconds>\(Number.format(Number.rounded(lap.timer, places: 3)))</TotalTimeSeconds>\n"
            xml += "        <DistanceMeters>0</DistanceMeters>\n"
            if let speed = figures.maximumSpeed {
                xml += "        <MaximumSpeed>\(Number.format(Number.rounded(speed, places: 3)))</MaximumSpeed>\n"
            }
            xml += "        <Calories>0</Calories>\n"
            if let hr = figures.averageHR, hr > 0 { xml += "        <AverageHeartRateBpm><Value>\(hr)</Value></AverageHeartRateBpm>\n" }
            if let hr = figures.maximumHR, hr > 0 { xml += "        <MaximumHeartRateBpm><Value>\(hr)</Value></MaximumHeartRateBpm>\n" }
            xml += "        <Intensity>\(FITIntensity(kind: lap.kind) == .rest ? "Resting" : "Active")</Intensity>\n"
            if let cadence = figures.averageCadence { xml += "        <Cadence>\(min(cadence, 254))</Cadence>\n" }
            xml += "        <TriggerMethod>Time</TriggerMethod>\n"
            var points = ""
            while let record = records.first, record.time < lap.end || number == activity.laps.count - 1 {
                points += trackpoint(record)
                records = records.dropFirst()
            }
            if !points.isEmpty { xml += "        <Track>\n" + points + "        </Track>\n" }
            xml += "        <Notes>\(XMLText.escape(lap.name))</Notes>\n"
            if let power = figures.averagePower {
                xml += "        <Extensions><ax:LX><ax:AvgWatts>\(power)</ax:AvgWatts></ax:LX></Extensions>\n"
            }
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
        if let hr = record.sample.hr, hr > 0 { point += "<HeartRateBpm><Value>\(min(hr, 255))</Value></HeartRateBpm>" }
        if let cadence = record.sample.cadence { point += "<Cadence>\(min(Int(cadence.rounded()), 254))</Cadence>" }
        var extensions = ""
        if let speed = record.sample.speed { extensions += "<ax:Speed>\(Number.format(Number.rounded(speed, places: 3)))</ax:Speed>" }
        if let power = record.sample.power { extensions += "<ax:Watts>\(power)</ax:Watts>" }
        if !extensions.isEmpty { point += "<Extensions><ax:TPX>\(extensions)</ax:TPX></Extensions>" }
        return point + "</Trackpoint>\n"
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
