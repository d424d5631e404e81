import DBus
import Foundation
import GATT
import IntervalEngine

/// BlueZ, the system's Bluetooth stack, as its D-Bus API presents it: a tree of objects
/// (adapters, devices, their GATT services and characteristics) kept current from the
/// ObjectManager's InterfacesAdded/InterfacesRemoved and each object's PropertiesChanged.
/// Everything runs on the main thread, through a `BusConnection` to the system bus.
@MainActor
public final class BlueZ {
    public static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"

    public let bus: BusConnection
    /// Object path → interface → property → value.
    private(set) var objects: [String: [String: [String: BusValue]]] = [:]
    /// Who hears of changes: the property changes of one object's interface, and objects
    /// added or removed.
    private var watchers: [UUID: Watcher] = [:]
    /// How many links are looking for a device BlueZ has not found yet.
    var discoverers = 0

    struct Watcher {
        var changed: (_ path: String, _ interface: String, _ properties: [String: BusValue]) -> Void
        var removed: (_ path: String) -> Void
    }

    private init(bus: BusConnection) { self.bus = bus }

    /// Connects to BlueZ: listens for its signals, then reads its objects; `ready` hears
    /// the client or why there is none (no bus, no bluetoothd, no adapter).
    public static func connect(environment: [String: String], ready: @escaping (Result<BlueZ, BusFailure>) -> Void) {
        switch BusConnection.open(.system, environment: environment) {
        case .failure(let failure):
            ready(.failure(failure.name == "NoBus" && !Bus.system.isReachable(environment: environment)
                ? BusFailure(name: failure.name, message: "no system bus to reach Bluetooth through") : failure))
        case .success(let bus):
            let client = BlueZ(bus: bus)
            client.listen()
            bus.call(service, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", timeout: 5) { reply in
                switch reply {
                case .failure(let failure):
                    bus.close()
                    ready(.failure(failure.name == "org.freedesktop.DBus.Error.ServiceUnknown"
                        ? BusFailure(name: failure.name, message: "Bluetooth is not running (no bluetoothd on the system bus)")
                        : failure))
                case .success(let values):
                    for (path, interfaces) in values.first?.dictionary ?? [:] {
                        client.add(path, interfaces)
                    }
                    guard client.adapter != nil else {
                        bus.close()
                        return ready(.failure(BusFailure(name: "NoAdapter", message: "no Bluetooth adapter")))
                    }
                    ready(.success(client))
                }
            }
        }
    }

    private func listen() {
        bus.match("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'") { [weak self] _, member, arguments in
            guard let self, let path = arguments.first?.string else { return }
            if member == "InterfacesAdded", let interfaces = arguments.dropFirst().first {
                add(path, interfaces)
            } else if member == "InterfacesRemoved" {
                let gone = arguments.dropFirst().first?.strings ?? []
                for interface in gone { objects[path]?[interface] = nil }
                if objects[path]?.isEmpty == true {
                    objects[path] = nil
                    for watcher in watchers.values { watcher.removed(path) }
                }
            }
        }
        bus.match("type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'") { [weak self] path, _, arguments in
            guard let self, arguments.count >= 2, let interface = arguments[0].string,
                  let changed = arguments[1].dictionary else { return }
            if objects[path]?[interface] != nil {
                for (name, value) in changed where name != "Value" { objects[path]?[interface]?[name] = value }
            }
            for watcher in watchers.values { watcher.changed(path, interface, changed) }
        }
    }

    private func add(_ path: String, _ interfaces: BusValue) {
        for (interface, properties) in interfaces.dictionary ?? [:] {
            objects[path, default: [:]][interface] = properties.dictionary ?? [:]
        }
        for watcher in watchers.values { watcher.changed(path, "", [:]) }
    }

    /// Hears every change until the returned token is given to `unwatch`.
    func watch(changed: @escaping (String, String, [String: BusValue]) -> Void,
               removed: @escaping (String) -> Void = { _ in }) -> UUID {
        let token = UUID()
        watchers[token] = Watcher(changed: changed, removed: removed)
        return token
    }

    func unwatch(_ token: UUID) { watchers[token] = nil }

    /// The first adapter's object path.
    public var adapter: String? {
        objects.keys.sorted().first { objects[$0]?[Self.adapterInterface] != nil }
    }

    /// The devices BlueZ knows (paired ones, and the ones a discovery found).
    public var devices: [BluetoothDevice] {
        objects.compactMap { path, interfaces in
            interfaces[Self.deviceInterface].map { BluetoothDevice(path: path, properties: $0) }
        }.sorted { $0.address < $1.address }
    }

    public func device(_ address: String) -> BluetoothDevice? {
        devices.first { $0.address == address.uppercased() }
    }

    /// A device's characteristics: path and 16-bit UUID, for those with a base UUID.
    func characteristics(of device: String) -> [(path: String, uuid: String)] {
        objects.compactMap { path, interfaces in
            guard path.hasPrefix(device + "/"), let uuid = interfaces[Self.characteristicInterface]?["UUID"]?.string,
                  let short = SensorService.short(uuid) else { return nil }
            return (path, short)
        }.sorted { $0.path < $1.path }
    }
}

/// A device as BlueZ describes it.
public struct BluetoothDevice: Sendable, Equatable {
    public var path: String
    public var address: String
    public var name: String?
    public var rssi: Int?
    public var paired: Bool
    public var connected: Bool
    public var servicesResolved: Bool
    /// The sensor services it advertises.
    public var services: [SensorService]

    init(path: String, properties: [String: BusValue]) {
        self.path = path
        address = properties["Address"]?.string?.uppercased() ?? ""
        name = properties["Name"]?.string ?? properties["Alias"]?.string
        rssi = properties["RSSI"]?.integer.map(Int.init)
        paired = properties["Paired"]?.bool ?? false
        connected = properties["Connected"]?.bool ?? false
        servicesResolved = properties["ServicesResolved"]?.bool ?? false
        services = SensorService.allCases.filter { service in
            properties["UUIDs"]?.strings.contains { SensorService(uuid: $0) == service } ?? false
        }
    }
}

extension BlueZ {
    /// Starts discovery for the first who asks and stops it when the last one is done,
    /// so that links looking for unpaired devices share one.
    func beginDiscovery() {
        discoverers += 1
        guard discoverers == 1, let adapter else { return }
        bus.call(Self.service, adapter, Self.adapterInterface, "StartDiscovery") { _ in }
    }

    func endDiscovery() {
        guard discoverers > 0 else { return }
        discoverers -= 1
        guard discoverers == 0, let adapter else { return }
        bus.call(Self.service, adapter, Self.adapterInterface, "StopDiscovery") { _ in }
    }
}
