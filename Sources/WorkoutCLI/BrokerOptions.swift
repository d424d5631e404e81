import ArgumentParser
import Broker
import IntervalEngine

/// `run --mqtt URL` and `--insecure`: the session published on an MQTT broker for Home
/// Assistant, a coach's screen or a script (docs/mqtt.md). The same address may be written
/// once as `mqtt = URL` in the athlete file.
struct BrokerOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Publish the workout on an MQTT broker under PREFIX, and take commands from PREFIX/cmd: "
            + "mqtt://HOST[:PORT]/PREFIX, or mqtts://USER:PASSWORD@HOST[:PORT]/PREFIX for TLS "
            + "(default: the athlete file's mqtt = …).",
        valueName: "url"))
    var mqtt: String?

    @Flag(help: "With --mqtt: send the address's password over plain mqtt://, readable by anyone on the network.")
    var insecure = false

    func validate() throws {
        if let mqtt {
            do {
                _ = try BrokerAddress(parsing: mqtt)
            } catch {
                throw ValidationError("--mqtt: \(error.message)")
            }
        }
    }

    var address: BrokerAddress? {
        mqtt.flatMap { try? BrokerAddress(parsing: $0) }
    }
}

extension BrokerAddress {
    /// A password over plain mqtt:// crosses the network readable: refused unless the
    /// user says `--insecure`.
    func passwordProblem(insecure: Bool) -> String? {
        guard password != nil, !tls, !insecure else { return nil }
        return "a password over mqtt:// crosses the network in plain text: use mqtts://, "
            + "or give --insecure to send it anyway"
    }
}

extension BrokerAddress {
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
