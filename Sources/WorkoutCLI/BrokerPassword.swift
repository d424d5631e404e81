import Broker
import Foundation
import IntervalEngine
import Platform
import WorkoutValues

/// Where a broker's password comes from, so that it need not be typed into the command
/// line, where every user of the machine reads it (`ps`; `CommandLinePasswords`). The
/// first of these wins: `--mqtt-password-file FILE`, the address's own
/// (`mqtts://USER:PASSWORD@…`), the environment's `WORKOUT_MQTT_PASSWORD`, the athlete
/// file's `mqtt_password_file = FILE`. Each but the first goes with an address that names
/// its user (`mqtts://coach@broker/gym`); a password never goes over plain `mqtt://`
/// without `--insecure`.
extension BrokerAddress {
    /// A password is one line: a file larger than this is not a password file.
    static let largestPasswordFile = 4096

    /// The password in the file at `path`: its one line (a final LF or CRLF is not part of
    /// it), read as the CA file is (a regular file, non-blocking: a FIFO is refused, not
    /// waited on), or why it cannot be read, the file named.
    static func password(inFile path: String) -> Result<String, PasswordFileProblem> {
        let name = VisibleText.escape(path)
        let bytes: [UInt8]
        do throws(BoundedFile.Problem) {
            bytes = try BoundedFile.read(path, maximumSize: largestPasswordFile)
        } catch .missing, .unreadable {
            return .failure(PasswordFileProblem("cannot read the password file \(name)"))
        } catch {
            return .failure(PasswordFileProblem("the password file \(name): \(error.explanation(what: "a password file"))"))
        }
        var line = bytes[...]
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard let text = String(validating: line, as: UTF8.self), !text.unicodeScalars.contains(where: { $0.value == 0 }) else {
            return .failure(PasswordFileProblem("the password file \(name) is not UTF-8 text"))
        }
        guard !text.isEmpty else { return .failure(PasswordFileProblem("the password file \(name) is empty")) }
        guard !text.contains(where: \.isNewline) else {
            return .failure(PasswordFileProblem("the password file \(name) holds more than one line: the password is its only line"))
        }
        return .success(text)
    }

    /// The environment's password, where it gives one.
    static func environmentPassword(_ environment: [String: String]) -> String? {
        environment[passwordVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why the command line's password file (`--mqtt-password-file`) or the environment's
    /// password cannot go with the command line's address `url` (nil: it can, or there is
    /// neither), said as the option or the variable: a file that cannot be read, a password
    /// without a user, a password over plain mqtt:// without `insecure`.
    static func givenPasswordProblem(file: String?, url: String?, insecure: Bool,
                                     environment: [String: String]) -> String? {
        if let file, case .failure(let problem) = password(inFile: file) { return "--mqtt-password-file: \(problem.message)" }
        guard let url, let address = try? BrokerAddress(parsing: url) else { return nil }
        if file != nil {
            guard address.user != nil else {
                return "--mqtt-password-file: the address names no user for the password: "
                    + "\(address.tls ? "mqtts" : "mqtt")://USER@HOST[:PORT]/PREFIX"
            }
            if !address.tls, !insecure { return "--mqtt-password-file: \(plainPasswordProblem)" }
        } else if address.password == nil, address.user != nil, environmentPassword(environment) != nil,
                  !address.tls, !insecure {
            return "\(passwordVariable): \(plainPasswordProblem)"
        }
        return nil
    }

    static let plainPasswordProblem = "a password over mqtt:// crosses the network in plain text: use mqtts://, "
        + "or give --insecure to send it anyway"

    /// This address with its password from the first place that gives one (the type's
    /// comment), with the place named in any error: `--mqtt-password-file` (`file`), the
    /// address's own, the environment's, the athlete file's `mqtt_password_file` (relative
    /// to the file's folder).
    func withPassword(file: String?, insecure: Bool, environment: [String: String], from athlete: AthleteFile,
                      options: [String: AthleteFile.RunOption]) throws(RoutineError) -> BrokerAddress {
        let given: (source: String, read: Result<String, PasswordFileProblem>)
        if let file {
            guard user != nil else {
                throw RoutineError("--mqtt-password-file: the address \(description) names no user for the password")
            }
            given = ("--mqtt-password-file", Self.password(inFile: file))
        } else if password != nil || user == nil {
            return self
        } else if let secret = Self.environmentPassword(environment) {
            given = (Self.passwordVariable, .success(secret))
        } else if let line = options["mqtt_password_file"] {
            let path = line.value.hasPrefix("/") ? line.value
                : URL(fileURLWithPath: athlete.path).deletingLastPathComponent().appendingPathComponent(line.value).path
            given = ("\(line.place): mqtt_password_file", Self.password(inFile: path))
        } else {
            return self
        }
        let source = given.source
        var address = self
        switch given.read {
        case .success(let secret): address.password = secret
        case .failure(let problem): throw RoutineError("\(source): \(problem.message)")
        }
        if !tls, !insecure { throw RoutineError("\(source): \(Self.plainPasswordProblem)") }
        return address
    }
}

/// Why a password file cannot be read, the file named.
struct PasswordFileProblem: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
