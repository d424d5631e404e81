import ArgumentParser
import Broker
import Foundation
import WorkoutValues

/// A broker's password typed into the command line (`--mqtt mqtts://coach:PW@…`, `follow
/// mqtts://coach:PW@…`) is in `/proc/PID/cmdline`, which every user of the machine reads
/// (`ps`), for as long as the process runs. The kernel shows the strings the process
/// started with, where they lie in its own memory (its initial stack), and
/// `CommandLine.unsafeArgv` points at them: before anything else, `hide()` overwrites the
/// password's bytes there with `*`. The command line is read from the copy Swift made of
/// them first. A password is better not typed there at all (`--mqtt-password-file`,
/// `WORKOUT_MQTT_PASSWORD`, the athlete file's `mqtt_password_file`): `warning` says so.
enum CommandLinePasswords {
    /// Overwrites every broker password in the process's arguments with `*`, in place;
    /// returns the arguments that held one, as given (for `warning`). Call it after
    /// `CommandLine.arguments` has been read.
    static func hide() -> [String] {
        var hidden: [String] = []
        let argv = CommandLine.unsafeArgv
        for index in 0..<Int(CommandLine.argc) where index > 0 {
            // C memory the kernel reads /proc/PID/cmdline from; written only here, before
            // any other thread runs.
            guard let string = argv[index] else { continue }
            let length = strlen(string)
            let bytes = UnsafeMutableRawPointer(string).bindMemory(to: UInt8.self, capacity: length)
            let buffer = UnsafeMutableBufferPointer(start: bytes, count: length)
            guard let range = BrokerAddress.passwordRange(in: Array(buffer)), !range.isEmpty else { continue }
            hidden.append(String(decoding: buffer, as: UTF8.self))
            for offset in range { buffer[offset] = UInt8(ascii: "*") }
        }
        return hidden
    }

    /// What is said once for each address whose password was typed on the command line.
    static func warning(_ argument: String) -> String {
        var typed = BrokerAddress.withoutPassword(argument)?.argument ?? ""
        // `--mqtt=URL`: the address alone.
        if typed.hasPrefix("--"), let equals = typed.firstIndex(of: "=") { typed = String(typed[typed.index(after: equals)...]) }
        let address = (try? BrokerAddress(parsing: typed))?.description ?? VisibleText.escape(typed)
        return "workout: mqtt: the password of \(address) was in the process list (ps), "
            + "readable by every user of this machine, until workout hid it as it started; give it with "
            + "--mqtt-password-file FILE or \(BrokerAddress.passwordVariable) instead (docs/mqtt.md)"
    }

    /// `arguments` for `workout-serve` without a password: the address keeps its user, and
    /// the password goes in the environment (`WORKOUT_MQTT_PASSWORD`, which only this user
    /// may read), where `workout-serve` finds it as the address's. A password that is not
    /// percent-encoded UTF-8 is the error the address would give, said here.
    static func handedOn(_ arguments: [String]) -> [String] {
        arguments.map { argument in
            guard let (address, password) = BrokerAddress.withoutPassword(argument) else { return argument }
            guard let password else {
                Output.error("workout: --mqtt: the password in \(VisibleText.escape(address)) is not percent-encoded UTF-8")
                exit(ExitCode.validationFailure.rawValue)
            }
            setenv(BrokerAddress.passwordVariable, password, 1)
            return address
        }
    }
}
