import WorkoutValues

/// Text inside an XML file workout writes (a Zwift workout, a TCX activity), by one rule
/// for attributes and elements alike: the five specials as entities; tab, line feed and
/// carriage return as character references, so that an attribute keeps them and no reader
/// turns them into something else; every other control character (`VisibleText.isControl`:
/// C0, C1, the bidirectional marks) and the non-characters U+FFFE and U+FFFF, which XML
/// cannot hold or a reader would not show, left out.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t": output += "&#9;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case _ where VisibleText.isControl(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
