import CSDBus
import Foundation

/// A connection to the system bus (BlueZ's sensors and trainers) or the session bus (the
/// music players a run lowers under its cues), through sd-bus opened at run time
/// (`SDBus`), on the main thread: calls are sent without waiting, and their replies and the
/// signals matched come back through the run loop — a `DispatchSource` watches the bus's
/// descriptor on the main queue, so a sensor's notifications never hold up a timer. A
/// burst of messages is handled a batch at a time, the rest after the run loop has had its
/// turn. It lives on the main thread (`@MainActor`, so the compiler checks its callers);
/// sd-bus's callbacks come in from `pump` and `settle`, on that thread. A blocking call
/// from another thread is `BusConnection.callOnce`.
@MainActor
public final class BusConnection {
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

    /// A connection to `bus`: the one its address variable names, or the usual one; a
    /// failure without libsystemd or a bus to reach (its message says which).
    public static func open(_ bus: Bus, environment: [String: String]) -> Result<BusConnection, BusFailure> {
        SDBus.open(bus, environment: environment).map { BusConnection(table: $0.table, bus: $0.bus) }
    }

    private init(table: workout_sd_bus, bus: OpaquePointer) {
        self.table = table
        self.bus = bus
        let fd = table.get_fd(bus)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.pump() } }
        source.resume()
        reading = source
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.pump() } }
        timer.resume()
        timeout = timer
    }

    isolated deinit { close() }

    /// Lets go of the bus: no more replies or signals are handled.
    public func close() {
        guard !closed else { return }
        closed = true
        reading?.cancel()
        timeout?.cancel()
        for match in matches { match.cancel() }
        matches = []
        _ = table.flush_close_unref(bus)
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
                     reply: @escaping (Result<[BusValue], BusFailure>) -> Void) {
        guard !closed else { return reply(.failure(BusFailure(name: "Closed", message: "the bus is closed"))) }
        var message: OpaquePointer? = nil
        guard table.message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else {
            return reply(.failure(BusFailure(name: "NoMemory", message: "cannot make a call")))
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
            MainActor.assumeIsolated { box.handle(message) }
            return 1
        }, box, UInt64(seconds * 1_000_000))
        if status < 0 {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            pending -= 1
            return reply(.failure(BusFailure(name: "SendFailed", message: String(cString: strerror(-status)))))
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
            let match = Unmanaged<Match>.fromOpaque(userdata).takeUnretainedValue()
            MainActor.assumeIsolated { match.handle(message) }
            return 0
        }, userdata) >= 0 else { return }
        match.slot = slot
        matches.append(match)
        _ = table.flush(bus)
    }

    @MainActor
    private final class ReplyBox {
        let table: workout_sd_bus
        let reply: (Result<[BusValue], BusFailure>) -> Void
        init(table: workout_sd_bus, reply: @escaping (Result<[BusValue], BusFailure>) -> Void) {
            self.table = table
            self.reply = reply
        }

        func handle(_ message: OpaquePointer?) {
            guard let message else {
                return reply(.failure(BusFailure(name: "NoReply", message: "no reply")))
            }
            if let failure = SDBus.failure(of: message, table: table) { return reply(.failure(failure)) }
            reply(.success(BusReader(table: table, message: message).readAll()))
        }
    }

    @MainActor
    private final class Match {
        let table: workout_sd_bus
        let handler: (String, String, [BusValue]) -> Void
        var slot: OpaquePointer?
        init(table: workout_sd_bus, handler: @escaping (String, String, [BusValue]) -> Void) {
            self.table = table
            self.handler = handler
        }

        func handle(_ message: OpaquePointer) {
            let path = table.message_get_path(message).map { String(cString: $0) } ?? ""
            let member = table.message_get_member(message).map { String(cString: $0) } ?? ""
            handler(path, member, BusReader(table: table, message: message).readAll())
        }

        func cancel() {
            if let slot { _ = table.slot_unref(slot) }
            slot = nil
        }
    }
}
