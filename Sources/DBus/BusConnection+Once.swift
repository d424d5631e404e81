import CSDBus
import Foundation

extension BusConnection {
    /// One call on a connection of its own, waiting for the reply on the calling thread (a
    /// queue of its own: never the main thread, whose timers must not wait on a bus), then
    /// closed. `reading` sees the reply's arguments while the reply is alive: a descriptor
    /// it carries (`h`, read as its number) is the reply's, and must be copied there to be
    /// kept.
    nonisolated public static func callOnce<Value>(on which: Bus, environment: [String: String],
                                       _ destination: String, _ path: String, _ interface: String, _ member: String,
                                       timeout seconds: Double, arguments: (BusWriter) -> Void = { _ in },
                                       reading: ([BusValue]) -> Value) -> Result<Value, BusFailure> {
        SDBus.open(which, environment: environment).flatMap { table, bus in
            defer { _ = table.flush_close_unref(bus) }
            var call: OpaquePointer? = nil
            guard table.message_new_method_call(bus, &call, destination, path, interface, member) >= 0, let call else {
                return .failure(BusFailure(name: "NoMemory", message: "cannot make a call"))
            }
            defer { _ = table.message_unref(call) }
            arguments(BusWriter(table: table, message: call))
            var error = sd_bus_error()
            defer { table.error_free(&error) }
            var reply: OpaquePointer? = nil
            let status = table.call(bus, call, UInt64(seconds * 1_000_000), &error, &reply)
            defer { if let reply { _ = table.message_unref(reply) } }
            guard status >= 0, let reply else {
                let name = error.name.map { String(cString: $0) } ?? "CallFailed"
                return .failure(BusFailure(name: name, message: error.message.map { String(cString: $0) } ?? String(cString: strerror(-status))))
            }
            return .success(reading(BusReader(table: table, message: reply).readAll()))
        }
    }
}
