import DBus
import Foundation
import GATT
import IntervalEngine

/// `workout sensors`: BlueZ's discovery for a few seconds, then the devices that offer a
/// sensor service (heart rate, power, speed and cadence, a trainer), with their signal.
@MainActor
public enum SensorScan {
    /// Scans for `seconds`, then hands the devices found (or why none could be looked for)
    /// to `done`, on the main thread. The run loop must turn meanwhile.
    public static func run(seconds: Double, environment: [String: String],
                           done: @escaping (Result<[BluetoothDevice], BusFailure>) -> Void) {
        BlueZ.connect(environment: environment) { result in
            switch result {
            case .failure(let failure):
                done(.failure(failure))
            case .success(let client):
                guard let adapter = client.adapter else { return }
                let uuids = SensorService.allCases.map { "0000\($0.rawValue)-0000-1000-8000-00805f9b34fb" }
                // Low-energy devices advertising one of the services, as BlueZ filters them.
                client.bus.call(BlueZ.service, adapter, BlueZ.adapterInterface, "SetDiscoveryFilter", arguments: {
                    $0.options([("UUIDs", .strings(uuids)), ("Transport", .string("le"))])
                }) { _ in
                    client.bus.call(BlueZ.service, adapter, BlueZ.adapterInterface, "StartDiscovery") { reply in
                        if case .failure(let failure) = reply {
                            client.bus.close()
                            return done(.failure(failure))
                        }
                        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                            client.bus.call(BlueZ.service, adapter, BlueZ.adapterInterface, "StopDiscovery", timeout: 2) { _ in
                                let found = client.devices.filter { !$0.services.isEmpty }
                                client.bus.close()
                                done(.success(found))
                            }
                        }
                    }
                }
            }
        }
    }
}
