import Foundation
import IntervalEngine

/// The body of `POST /control`: `{"action":"pause"}`, … or `{"action":"add","seconds":N}`,
/// read into the same `SessionCommand` a key gives. Anything else is refused with a
/// message that says what was expected (the 400's body), where a name the client sent is
/// shown escaped as the terminal's output is.
enum ControlRequest {
    /// The actions by name, `add` apart (it needs its seconds).
    static let plain: [String: SessionCommand] = [
        "pause": .pause, "resume": .resume, "toggle": .toggle, "next": .next, "back": .back, "quit": .quit,
    ]
    static let actions = "pause, resume, toggle, next, back, quit or add"

    static func command(from body: Data) throws(ControlRequestError) -> SessionCommand {
        guard let parsed = try? JSONSerialization.jsonObject(with: body, options: []) else {
            throw ControlRequestError("the body is not JSON: send {\"action\":\"pause\"}")
        }
        guard let object = parsed as? [String: Any] else {
            throw ControlRequestError("the body must be a JSON object such as {\"action\":\"pause\"}")
        }
        guard let action = object["action"] as? String else {
            throw ControlRequestError("\"action\" is missing or not a string: one of \(actions)")
        }
        let allowed: Set<String> = action == "add" ? ["action", "seconds"] : ["action"]
        if let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ControlRequestError("unknown field \"\(VisibleText.escape(extra))\" for action \"\(VisibleText.escape(action))\"")
        }
        if let command = plain[action] { return command }
        guard action == "add" else {
            throw ControlRequestError("unknown action \"\(VisibleText.escape(action))\": one of \(actions)")
        }
        // JSONDecoder tells a number from `true`, which JSONSerialization hands over as 1.
        let typed = try? JSONDecoder().decode(Seconds.self, from: body)
        guard let seconds = typed?.seconds, seconds.isFinite, abs(seconds) <= Duration.maximum else {
            throw ControlRequestError("\"add\" needs \"seconds\": a number of seconds from -86400 to 86400")
        }
        return .add(seconds: seconds)
    }


    private struct Seconds: Decodable {
        var seconds: Double?
    }
}

struct ControlRequestError: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
