import Foundation
import IntervalEngine

/// The body of `POST /control`: `{"action":"pause"}`, … or `{"action":"add","seconds":N}`,
/// read into the same `SessionCommand` a key gives. Anything else is refused with a
/// message that says what was expected (the 400's body).
enum ControlRequest {
    /// The actions by name, `add` apart (it needs its seconds).
    static let plain: [String: SessionCommand] = [
        "pause": .pause, "resume": .resume, "toggle": .toggle, "next": .next, "back": .back, "quit": .quit,
    ]
    static let actions = "pause, resume, toggle, next, back, quit or add"

    static func command(from body: Data) throws(ControlRequestError) -> SessionCommand {
        let parsed = body.withUnsafeBytes { JSONReader.value($0.bindMemory(to: UInt8.self)) }
        guard let parsed else {
            throw ControlRequestError("the body is not JSON: send {\"action\":\"pause\"}")
        }
        guard case .object(let fields) = parsed else {
            throw ControlRequestError("the body must be a JSON object such as {\"action\":\"pause\"}")
        }
        let object = Dictionary(fields, uniquingKeysWith: { _, last in last })
        guard case .string(let action)? = object["action"] else {
            throw ControlRequestError("\"action\" is missing or not a string: one of \(actions)")
        }
        let allowed: Set<String> = action == "add" ? ["action", "seconds"] : ["action"]
        if let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ControlRequestError("unknown field \"\(extra)\" for action \"\(action)\"")
        }
        if let command = plain[action] { return command }
        guard action == "add" else {
            throw ControlRequestError("unknown action \"\(action)\": one of \(actions)")
        }
        let seconds: Double? = switch object["seconds"] {
        case .integer(let whole)?: Double(whole)
        case .number(let number)?: number
        default: nil
        }
        guard let seconds, seconds.isFinite, abs(seconds) <= Duration.maximum else {
            throw ControlRequestError("\"add\" needs \"seconds\": a number of seconds from -86400 to 86400")
        }
        return .add(seconds: seconds)
    }
}

struct ControlRequestError: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
