import Foundation
import IntervalEngine
import WorkoutValues

/// A command from a remote: the body of `POST /control` (WebRemote) and a message on
/// `PREFIX/cmd` (`run --mqtt`, ClassPublishing) alike, one parser for both so that both
/// take and refuse the same: `{"action":"pause"}`, … `{"action":"done"}`,
/// `{"action":"add","seconds":N}` or `{"action":"tally","name":"rounds","add":1}`, read
/// into the same `SessionCommand` a key gives. Anything else is refused with a message
/// that says what was expected (the 400's body), where a name the client sent is shown
/// escaped as the terminal's output is.
public enum ControlRequest {
    /// The actions by name, `add` apart (it needs its seconds).
    public static let plain: [String: SessionCommand] = [
        "pause": .pause, "resume": .resume, "toggle": .toggle, "next": .next, "back": .back, "quit": .quit,
        "done": .done, "lap": .lap,
    ]
    public static let actions = "pause, resume, toggle, next, back, quit, done, lap, add or tally"
    /// The largest command read, from either remote: far above any command, small enough
    /// that a flood costs nothing.
    public static let largestBody = 4096

    public static func command(from body: Data) throws(ControlRequestError) -> SessionCommand {
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
        let allowed: Set<String> = action == "add" ? ["action", "seconds"]
            : action == "tally" ? ["action", "name", "add"] : ["action"]
        if let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ControlRequestError("unknown field \"\(VisibleText.escape(extra))\" for action \"\(VisibleText.escape(action))\"")
        }
        if let command = plain[action] { return command }
        if action == "tally" { return try tally(object) }
        guard action == "add" else {
            throw ControlRequestError("unknown action \"\(VisibleText.escape(action))\": one of \(actions)")
        }
        let seconds: Double? = switch object["seconds"] {
        case .integer(let whole)?: Double(whole)
        case .number(let number)?: number
        default: nil
        }
        // `PlainNumber.isPlain`: finite, and no denormal (`1e-320`), as every number typed.
        guard let seconds, PlainNumber.isPlain(seconds), abs(seconds) <= Duration.maximum else {
            throw ControlRequestError("\"add\" needs \"seconds\": a number of seconds from -86400 to 86400")
        }
        return .add(seconds: seconds)
    }
}

extension ControlRequest {
    /// `{"action":"tally","name":"rounds","add":1}`: `name` defaults to `rounds`, `add` to 1.
    static func tally(_ object: [String: JSONValue]) throws(ControlRequestError) -> SessionCommand {
        var name = "rounds"
        if let given = object["name"] {
            guard case .string(let text) = given, Session.isTallyName(text) else {
                throw ControlRequestError("\"name\" must be a tally's name: text of 1 to \(Session.longestTallyName) bytes, no control characters")
            }
            name = text
        }
        var add = 1
        if let given = object["add"] {
            guard case .number(let number) = given, PlainNumber.isPlain(number), number.rounded() == number,
                  abs(number) <= Double(Session.largestTallyStep) else {
                throw ControlRequestError("\"add\" must be a whole number from -\(Session.largestTallyStep) to \(Session.largestTallyStep)")
            }
            add = Int(number)
        }
        return .tally(name: name, add: add)
    }
}

public struct ControlRequestError: Error, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
