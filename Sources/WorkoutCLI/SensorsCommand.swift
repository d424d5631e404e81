import ArgumentParser
import BlueZ
import DBus
import Foundation
import IntervalEngine
import Platform
import WorkoutValues

/// `workout sensors`: find Bluetooth sensors (the default), and remember or forget them.
struct Sensors: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensors",
        abstract: "Find Bluetooth heart-rate straps, power meters and trainers; remember the ones a run uses.",
        discussion: """
            A run connects to the sensors remembered in $XDG_CONFIG_HOME/workout/sensors \
            (default ~/.config/workout/sensors), one address a line. Pairing stays with the \
            desktop's Bluetooth settings (or bluetoothctl).
            """,
        subcommands: [SensorsScan.self, SensorsAdd.self, SensorsRemove.self],
        defaultSubcommand: SensorsScan.self)
}

struct SensorsScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Scan for sensors and list them: address, name, services, signal.")

    @Option(help: "How many seconds to scan.")
    var seconds = PlainDecimal(5)

    func validate() throws {
        guard seconds.value > 0, seconds.value <= 60 else { throw ValidationError("--seconds must be more than 0 and at most 60") }
    }

    // A command runs on the main thread, where the bus's replies come in.
    func run() throws {
        try MainActor.assumeIsolated { try scan() }
    }

    @MainActor
    private func scan() throws {
        let remembered = Set(((try? RememberedSensors(directories: UserDirectories(environment: Terminal.environment)).read()) ?? [])
            .map(\.address))
        let outcome = MainThreadBox<Result<[BluetoothDevice], BusFailure>?>(nil)
        SensorScan.run(seconds: seconds.value, environment: Terminal.environment) { result in
            outcome.value = result
            MainLoop.wake()
        }
        MainLoop.run { outcome.value != nil }
        switch outcome.value! {
        case .failure(let failure):
            Output.error("workout: cannot scan for sensors: \(VisibleText.escape(failure.message))")
            throw ExitCode(1)
        case .success(let devices):
            guard !devices.isEmpty else {
                Output.line("No sensors found. Wake the sensor (put the strap on, pedal) and scan again.")
                return
            }
            for device in devices {
                Output.line(Self.line(device, remembered: remembered.contains(device.address)))
            }
        }
    }

    /// `C0:FF:EE:00:00:01  Strap  heart rate  -52 dBm  remembered`
    static func line(_ device: BluetoothDevice, remembered: Bool) -> String {
        var parts = [device.address, VisibleText.escape(device.name ?? "(no name)"),
                     device.services.map(\.words).joined(separator: ", ")]
        parts.append(device.rssi.map { "\($0) dBm" } ?? "no signal")
        if !device.paired { parts.append("not paired") }
        if remembered { parts.append("remembered") }
        return parts.joined(separator: "  ")
    }
}

struct SensorsAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Remember a sensor for every run.")

    @Argument(help: "The sensor's Bluetooth address, as `workout sensors` lists it.")
    var address: String

    func validate() throws {
        guard RememberedSensors.isAddress(address) else {
            throw ValidationError("not a Bluetooth address: \(VisibleText.escape(address)) (six pairs of hex digits, C0:FF:EE:00:00:01)")
        }
    }

    func run() throws {
        let file = RememberedSensors(directories: UserDirectories(environment: Terminal.environment))
        do {
            let added = try file.add(address)
            Output.line(added ? "Remembered \(address.uppercased()) in \(VisibleText.escape(file.path))"
                : "\(address.uppercased()) is remembered already")
        } catch {
            Output.error("workout: \(VisibleText.escape(String(describing: error)))")
            throw ExitCode(1)
        }
    }
}

struct SensorsRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a remembered sensor.")

    @Argument(help: "The sensor's Bluetooth address.")
    var address: String

    func validate() throws {
        guard RememberedSensors.isAddress(address) else {
            throw ValidationError("not a Bluetooth address: \(VisibleText.escape(address))")
        }
    }

    func run() throws {
        let file = RememberedSensors(directories: UserDirectories(environment: Terminal.environment))
        do {
            guard try file.remove(address) else {
                Output.error("workout: \(address.uppercased()) is not remembered")
                throw ExitCode(1)
            }
            Output.line("Forgot \(address.uppercased())")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Output.error("workout: \(VisibleText.escape(String(describing: error)))")
            throw ExitCode(1)
        }
    }
}
