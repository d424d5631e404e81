import CSDBus
import Foundation

/// Which bus a connection reaches.
public enum Bus: Sendable {
    /// The system bus: BlueZ, logind. DBUS_SYSTEM_BUS_ADDRESS, or /run/dbus/system_bus_socket.
    case system
    /// The user's session bus: the music players. DBUS_SESSION_BUS_ADDRESS, or
    /// $XDG_RUNTIME_DIR/bus.
    case session

    /// Whether there is a bus to reach at all, read without loading libsystemd (a
    /// container or a server has neither bus, and pays nothing for asking).
    public func isReachable(environment: [String: String]) -> Bool {
        switch self {
        case .system:
            return !(environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "").isEmpty
                || access("/run/dbus/system_bus_socket", F_OK) == 0
        case .session:
            let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
            return !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
                || (!runtime.isEmpty && access(runtime + "/bus", F_OK) == 0)
        }
    }

    /// The variables sd-bus reads the bus's address from: it reads them from the process's
    /// own environment, so a test's private bus is handed over there.
    var addressVariables: [String] {
        switch self {
        case .system: ["DBUS_SYSTEM_BUS_ADDRESS"]
        case .session: ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]
        }
    }
}

/// What went wrong with a bus or a call: the D-Bus error's name
/// (org.bluez.Error.NotPermitted) and its message.
public struct BusFailure: Error, Sendable, Equatable {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// libsystemd's sd-bus: its function table (`Sources/CSDBus/shim.h`), loaded once, the
/// first time a bus is opened, and a bus opened through it.
enum SDBus {
    /// The table, or nil where libsystemd.so.0 (or one of its functions) is missing.
    static let table: workout_sd_bus? = {
        var table = workout_sd_bus()
        return workout_sd_bus_load(&table) == 0 ? table : nil
    }()

    /// Opens `bus` as `environment` names it; a failure without a bus to reach or
    /// without libsystemd.
    static func open(_ bus: Bus, environment: [String: String]) -> Result<(table: workout_sd_bus, bus: OpaquePointer), BusFailure> {
        guard bus.isReachable(environment: environment) else {
            return .failure(BusFailure(name: "NoBus", message: bus == .system ? "no system bus to reach" : "no session bus"))
        }
        guard let table else {
            return .failure(BusFailure(name: "NoLibrary", message: "libsystemd.so.0 is missing (Debian's libsystemd0)"))
        }
        for name in bus.addressVariables {
            if let value = environment[name], !value.isEmpty, getenv(name).map({ String(cString: $0) }) != value {
                setenv(name, value, 1)
            }
        }
        var opened: OpaquePointer? = nil
        let status = bus == .system ? table.open_system(&opened) : table.open_user(&opened)
        guard status >= 0, let opened else {
            let which = bus == .system ? "system" : "session"
            return .failure(BusFailure(name: "NoBus", message: "cannot reach the \(which) bus: \(String(cString: strerror(-status)))"))
        }
        return .success((table, opened))
    }

    /// The error a reply carries, if it is one.
    static func failure(of message: OpaquePointer, table: workout_sd_bus) -> BusFailure? {
        guard let error = table.message_get_error(message), let name = error.pointee.name else { return nil }
        let text = String(cString: name)
        return BusFailure(name: text, message: error.pointee.message.map { String(cString: $0) } ?? text)
    }
}
