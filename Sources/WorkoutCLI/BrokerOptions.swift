import ArgumentParser
import Broker
import Foundation
import IntervalEngine
import Platform
import WorkoutValues

/// `run --mqtt URL`, with `--mqtt-ca FILE` and `--insecure`: the session published on an MQTT
/// broker for Home Assistant, a coach's screen or a script (docs/mqtt.md). The same address
/// and CA may be written once as `mqtt = URL` and `mqtt_ca = FILE` in the athlete file.
struct BrokerOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Publish the workout on an MQTT broker under PREFIX, and take commands from PREFIX/cmd: "
            + "mqtt://HOST[:PORT]/PREFIX, or mqtts://USER@HOST[:PORT]/PREFIX for TLS, the password from "
            + "--mqtt-password-file (default: the athlete file's mqtt = …).",
        valueName: "url"))
    var mqtt: String?

    @OptionGroup var trust: BrokerTrustOptions

    func validate() throws {
        if let mqtt {
            do {
                _ = try BrokerAddress(parsing: mqtt)
            } catch {
                throw ValidationError("--mqtt: \(error.message)")
            }
        }
        try trust.check(mqtt)
    }

    var address: BrokerAddress? {
        mqtt.flatMap { try? BrokerAddress(parsing: $0) }
    }
}

/// `--mqtt-password-file FILE`, `--mqtt-ca FILE` and `--insecure`, the same for `run --mqtt`
/// and `follow`: where the broker's password is read from (not the command line, which
/// every user of the machine reads: `BrokerPassword.swift`), which CA a TLS broker's
/// certificate is checked against, and whether a password may cross the network in plain text.
struct BrokerTrustOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Read the broker's password from FILE (its one line), for the user the address names "
            + "(mqtts://USER@HOST/PREFIX): unlike a password in the address, other users of this machine cannot see it "
            + "(default: the environment's WORKOUT_MQTT_PASSWORD, else the athlete file's mqtt_password_file = …).",
        valueName: "file"))
    var mqttPasswordFile: String?

    @Option(help: ArgumentHelp(
        "With an mqtts:// address: trust only the CA certificates (PEM) in FILE, for a broker whose certificate "
            + "a private CA signed (default: the athlete file's mqtt_ca = …, else the system's CAs in /etc/ssl/certs).",
        valueName: "file"))
    var mqttCa: String?

    @Flag(help: "Send the broker address's password over plain mqtt://, readable by anyone on the network.")
    var insecure = false

    /// `--mqtt-ca` against the command line's address `url` (nil: the athlete file's,
    /// checked when it is read).
    func check(_ url: String?) throws {
        if let problem = BrokerAddress.caProblem(mqttCa, address: url.flatMap { try? BrokerAddress(parsing: $0) }) {
            throw ValidationError("--mqtt-ca: \(problem)")
        }
        if let problem = BrokerAddress.givenPasswordProblem(file: mqttPasswordFile, url: url, insecure: insecure,
                                                            environment: Terminal.environment) {
            throw ValidationError(problem)
        }
    }
}

extension BrokerAddress {
    /// A password over plain mqtt:// crosses the network readable: refused unless the
    /// user says `--insecure`.
    func passwordProblem(insecure: Bool) -> String? {
        guard password != nil, !tls, !insecure else { return nil }
        return Self.plainPasswordProblem
    }
}

extension BrokerAddress {
    /// Why `caFile` cannot be the CA of `address` (nil: it can, or there is none): a CA
    /// goes with TLS, and must be a file this user can read.
    static func caProblem(_ caFile: String?, address: BrokerAddress?) -> String? {
        guard let caFile else { return nil }
        if let address, !address.tls { return "a CA goes with an mqtts:// address, not mqtt://" }
        // Opened here as sound files are (non-blocking, then checked to be a regular file
        // of a CA's size): libmosquitto opens it plainly, and a FIFO there waited forever.
        do throws(BoundedFile.Problem) {
            let (descriptor, _) = try BoundedFile.open(caFile, maximumSize: Self.largestCAFile)
            close(descriptor)
        } catch .missing, .unreadable {
            return "cannot read the CA file \(VisibleText.escape(caFile))"
        } catch {
            return "the CA file \(VisibleText.escape(caFile)): \(error.explanation(what: "a CA certificate (PEM)"))"
        }
        return nil
    }

    /// A CA file holds a certificate or a few: a few kilobytes. A system's whole bundle
    /// is about 200 KiB.
    static let largestCAFile = 4 * 1024 * 1024

    /// This address with the CA of `--mqtt-ca` (checked by `caProblem` already), which
    /// goes with TLS: an athlete file's plain mqtt:// with it is an error.
    func withGivenCA(_ caFile: String?) throws(RoutineError) -> BrokerAddress {
        guard let caFile else { return self }
        guard tls else { throw RoutineError("--mqtt-ca: a CA goes with an mqtts:// address, not \(description)") }
        var address = self
        address.caFile = caFile
        return address
    }

    /// This address with the athlete file's `mqtt_ca = FILE` (a path relative to the
    /// file's folder) where it is TLS and the command line named no CA; the file and line
    /// in any error.
    func withCA(from file: AthleteFile, options: [String: AthleteFile.RunOption]) throws(RoutineError) -> BrokerAddress {
        guard tls, caFile == nil, let line = options["mqtt_ca"] else { return self }
        let path = line.value.hasPrefix("/") ? line.value
            : URL(fileURLWithPath: file.path).deletingLastPathComponent().appendingPathComponent(line.value).path
        if let problem = Self.caProblem(path, address: self) { throw RoutineError("\(line.place): mqtt_ca: \(problem)") }
        var address = self
        address.caFile = path
        return address
    }

    /// The athlete file's `mqtt = URL`, with its file and line in any error.
    static func fromFile(_ line: AthleteFile.RunOption, insecure: Bool) throws(RoutineError) -> BrokerAddress {
        let address: BrokerAddress
        do {
            address = try BrokerAddress(parsing: line.value)
        } catch {
            throw RoutineError("\(line.place): mqtt: \(error.message)")
        }
        if let problem = address.passwordProblem(insecure: insecure) {
            throw RoutineError("\(line.place): mqtt: \(problem)")
        }
        return address
    }
}
