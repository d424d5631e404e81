import CSystem
import Foundation

/// The system bus, through sd-bus opened at run time (`Sources/CSystem/bus.h`), on the main
/// thread: calls are sent without waiting, and their replies and the signals matched come
/// back through the run loop — a `DispatchSource` watches the bus's descriptor on the main
/// queue, so a sensor's notifications never hold up a timer. A burst of messages is handled
/// a batch at a time, the rest after the run loop has had its turn. Used on the main thread
/// only (hence unchecked). The same binding reaches the session bus (`openSession`), for
/// the music players a run lowers under its cues (Sources/Music).
public final class SystemBus: @unchecked Sendable {
    /// What went wrong with a call: the D-Bus error's name (org.bluez.Error.NotPermitted)
    /// and its message.
    public struct Failure: Error, Sendable, Equatable {
        public var name: String
        public var message: String
    }

    let table: workout_sd_bus
    private let bus: OpaquePointer
    private var reading: DispatchSourceRead?
    private var timeout: DispatchSourceTimer?
    private var matches: [Match] = []
    private var closed = false
    /// Calls sent whose reply (or failure) has not been handed over yet.
    public private(set) var pending = 0

    /// Messages handled before the run loop gets its turn again.
    static let batch = 64

    /// The bus DBUS_SYSTEM_BUS_ADDRESS names, or the system's; nil without libsystemd or a bus
    /// to reach (`reason` says which).
    public static func open(environment: [String: String]) -> Result<SystemBus, Failure> {
        let address = environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? ""
        guard !address.isEmpty || access("/run/dbus/system_bus_socket", F_OK) == 0 else {
            return .failure(Failure(name: "NoBus", message: "no system bus to reach Bluetooth through"))
        }
        var table = workout_sd_bus()
        guard workout_sd_bus_load(&table) == 0 else {
            return .failure(Failure(name: "NoLibrary", message: "libsystemd.so.0 is missing (Debian's libsystemd0)"))
        }
        var bus: OpaquePointer? = nil
        // sd-bus reads DBUS_SYSTEM_BUS_ADDRESS from the process's own environment.
        if let value = environment["DBUS_SYSTEM_BUS_ADDRESS"] { setenv("DBUS_SYSTEM_BUS_ADDRESS", value, 1) }
        let status = table.open_system(&bus)
        guard status >= 0, let bus else {
            return .failure(Failure(name: "NoBus", message: "cannot reach the system bus: \(String(cString: strerror(-status)))"))
        }
        return .success(SystemBus(table: table, bus: bus))
    }

    /// The session bus DBUS_SESSION_BUS_ADDRESS names, or $XDG_RUNTIME_DIR/bus; nil without
    /// libsystemd or a bus to reach.
    public static func openSession(environment: [String: String]) -> Result<SystemBus, Failure> {
        let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let runtime = environment["XDG_RUNTIME_DIR"] ?? ""
        guard !address.isEmpty || (!runtime.isEmpty && access(runtime + "/bus", F_OK) == 0) else {
            return .failure(Failure(name: "NoBus", message: "no session bus"))
        }
        var table = workout_sd_bus()
        guard workout_sd_bus_load(&table) == 0 else {
            return .failure(Failure(name: "NoLibrary", message: "libsystemd.so.0 is missing (Debian's libsystemd0)"))
        }
        var bus: OpaquePointer? = nil
        // sd-bus reads the address from the process's own environment.
        if !address.isEmpty { setenv("DBUS_SESSION_BUS_ADDRESS", address, 1) }
        if !runtime.isEmpty { setenv("XDG_RUNTIME_DIR", runtime, 1) }
        let status = table.open_user(&bus)
        guard status >= 0, let bus else {
            return .failure(Failure(name: "NoBus", message: "cannot reach the session bus: \(String(cString: strerror(-status)))"))
        }
        return .success(SystemBus(table: table, bus: bus))
    }

    private init(table: workout_sd_bus, bus: OpaquePointer) {
        self.table = table
        self.bus = bus
        let fd = table.get_fd(bus)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in self?.pump() }
        source.resume()
        reading = source
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [weak self] in self?.pump() }
        timer.resume()
        timeout = timer
    }

    deinit { close() }

    /// Lets go of the bus: no more replies or signals are handled.
    public func close() {
        guard !closed else { return }
        closed = true
        reading?.cancel()
        timeout?.cancel()
        for match in matches { match.cancel() }
        matches = []
        _ = table.close(bus)
    }

    /// Handles replies on this thread, waiting for them, until `done()` holds, no call is
    /// pending or `seconds` have passed: for the end of a run, when the run loop no longer
    /// turns and what was lowered must be put back before the process exits.
    public func settle(within seconds: Double, until done: () -> Bool) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let end = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
        while !closed, !done(), pending > 0 {
            while !closed, table.process(bus, nil) > 0 {}
            if closed || done() || pending == 0 { break }
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            if left <= 0 { break }
            _ = table.wait(bus, UInt64(left * 1_000_000))
        }
        if !closed { _ = table.flush(bus) }
    }

    /// Handles what has arrived, a batch at a time, then arms the timer for the earliest
    /// call's time-out.
    func pump() {
        guard !closed else { return }
        var handled = 0
        while handled < Self.batch {
            let result = table.process(bus, nil)
            if result <= 0 || closed { break }
            handled += 1
        }
        guard !closed else { return }
        if handled == Self.batch {
            DispatchQueue.main.async { [weak self] in self?.pump() }
        }
        armTimeout()
    }

    private func armTimeout() {
        var deadline: UInt64 = 0
        guard table.get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else {
            timeout?.schedule(deadline: .distantFuture)
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let wait = deadline > nowMicroseconds ? deadline - nowMicroseconds : 0
        timeout?.schedule(deadline: .now() + .microseconds(Int(min(wait, 3_600_000_000))))
    }

    /// Calls `member` and hands its reply (the arguments read) or failure to `reply` on the
    /// main thread. `arguments` appends the call's arguments.
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                     timeout seconds: Double = 25, arguments: (BusWriter) -> Void = { _ in },
                     reply: @escaping (Result<[BusValue], Failure>) -> Void) {
        guard !closed else { return reply(.failure(Failure(name: "Closed", message: "the bus is closed"))) }
        var message: OpaquePointer? = nil
        guard table.new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else {
            return reply(.failure(Failure(name: "NoMemory", message: "cannot make a call")))
        }
        defer { _ = table.message_unref(message) }
        arguments(BusWriter(table: table, message: message))
        pending += 1
        let box = Unmanaged.passRetained(ReplyBox(table: table, reply: { [weak self] result in
            self?.pending -= 1
            reply(result)
        })).toOpaque()
        let status = table.call_async(bus, nil, message, { message, userdata, _ in
            let box = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue()
            box.handle(message)
            return 1
        }, box, UInt64(seconds * 1_000_000))
        if status < 0 {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            pending -= 1
            return reply(.failure(Failure(name: "SendFailed", message: String(cString: strerror(-status)))))
        }
        // A call on a local socket is written at once; flush in case the socket was full.
        _ = table.flush(bus)
        armTimeout()
    }

    /// Hands each signal matching `rule` (a D-Bus match rule) to `handler`, with the
    /// object path it came from and its arguments, until the bus closes.
    public func match(_ rule: String, _ handler: @escaping (_ path: String, _ member: String, _ arguments: [BusValue]) -> Void) {
        let match = Match(table: table, handler: handler)
        let userdata = Unmanaged.passUnretained(match).toOpaque()
        var slot: OpaquePointer? = nil
        guard table.add_match(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<Match>.fromOpaque(userdata).takeUnretainedValue().handle(message)
            return 0
        }, userdata) >= 0 else { return }
        match.slot = slot
        matches.append(match)
        _ = table.flush(bus)
    }

    private final class ReplyBox {
        let table: workout_sd_bus
        let reply: (Result<[BusValue], Failure>) -> Void
        init(table: workout_sd_bus, reply: @escaping (Result<[BusValue], Failure>) -> Void) {
            self.table = table
            self.reply = reply
        }

        func handle(_ message: OpaquePointer?) {
            guard let message else {
                return reply(.failure(Failure(name: "NoReply", message: "no reply")))
            }
            if let error = table.get_error(message), error.pointee.name != nil {
                let name = String(cString: error.pointee.name)
                let text = error.pointee.message.map { String(cString: $0) } ?? name
                return reply(.failure(Failure(name: name, message: text)))
            }
            reply(.success(BusReader(table: table, message: message).readAll()))
        }
    }

    private final class Match {
        let table: workout_sd_bus
        let handler: (String, String, [BusValue]) -> Void
        var slot: OpaquePointer?
        init(table: workout_sd_bus, handler: @escaping (String, String, [BusValue]) -> Void) {
            self.table = table
            self.handler = handler
        }

        func handle(_ message: OpaquePointer) {
            let path = table.get_path(message).map { String(cString: $0) } ?? ""
            let member = table.get_member(message).map { String(cString: $0) } ?? ""
            handler(path, member, BusReader(table: table, message: message).readAll())
        }

        func cancel() {
            if let slot { _ = table.slot_unref(slot) }
            slot = nil
        }
    }
}

/// Appends a call's arguments.
public struct BusWriter {
    let table: workout_sd_bus
    let message: OpaquePointer

    public func string(_ value: String) {
        _ = table.append_basic(message, CChar(UInt8(ascii: "s")), value)
    }

    public func objectPath(_ value: String) {
        _ = table.append_basic(message, CChar(UInt8(ascii: "o")), value)
    }

    /// A variant holding a double (a property's value for `Properties.Set`).
    public func variant(_ value: Double) {
        var number = value
        _ = table.open_container(message, CChar(UInt8(ascii: "v")), "d")
        _ = table.append_basic(message, CChar(UInt8(ascii: "d")), &number)
        _ = table.close_container(message)
    }

    public func bytes(_ value: [UInt8]) {
        _ = value.withUnsafeBytes { table.append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
    }

    /// An `a{sv}` whose values are strings or string arrays (BlueZ's options and filters).
    public func options(_ entries: [(String, BusOption)]) {
        _ = table.open_container(message, CChar(UInt8(ascii: "a")), "{sv}")
        for (key, value) in entries {
            _ = table.open_container(message, CChar(UInt8(ascii: "e")), "sv")
            _ = table.append_basic(message, CChar(UInt8(ascii: "s")), key)
            switch value {
            case .string(let text):
                _ = table.open_container(message, CChar(UInt8(ascii: "v")), "s")
                _ = table.append_basic(message, CChar(UInt8(ascii: "s")), text)
            case .strings(let texts):
                _ = table.open_container(message, CChar(UInt8(ascii: "v")), "as")
                _ = table.open_container(message, CChar(UInt8(ascii: "a")), "s")
                for text in texts { _ = table.append_basic(message, CChar(UInt8(ascii: "s")), text) }
                _ = table.close_container(message)
            }
            _ = table.close_container(message)
            _ = table.close_container(message)
        }
        _ = table.close_container(message)
    }
}

/// A value in an `a{sv}` of options.
public enum BusOption {
    case string(String)
    case strings([String])
}
