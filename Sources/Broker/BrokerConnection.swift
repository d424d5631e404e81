import CMosquitto
import Foundation
import WorkoutValues

/// One connection to an MQTT broker through libmosquitto, for `run --mqtt`. mosquitto's
/// own network thread (`mosquitto_loop_start`) connects, writes, reads and reconnects with
/// back-off; a publish from the main thread only queues the message for it, so the
/// timers never wait on the network. Retained messages are kept here too and published
/// again on every connection: a broker restarted without persistence has them back.
/// Unretained messages published while the broker is away wait, in order and bounded,
/// for the next connection: the first events of a run that starts as it connects, and a
/// broker's restart, lose nothing. Messages on the subscribed topic are handed to the
/// main queue, bounded in size and in number waiting. A broker that is down or goes away costs one warning per outage.
///
/// Shared by the main thread and mosquitto's network thread: its state is guarded by
/// `lock`, and the mosquitto handle is a C pointer the library itself guards. The compiler
/// cannot see either, hence `@unchecked Sendable`.
public final class BrokerConnection: @unchecked Sendable {
    public let address: BrokerAddress
    private let handle: OpaquePointer
    private let warn: @Sendable (String) -> Void
    /// Guards everything below, and every call that queues a packet: a retained message
    /// republished on connecting can never overtake a newer one.
    private let lock = NSLock()
    private var connected = false
    private var warned = false
    private var closed = false
    /// Retained topics in the order first published, with their latest payload.
    private var retainedOrder: [String] = []
    private var retained: [String: [UInt8]] = [:]
    private var subscriptions: [Subscription] = []
    /// Messages under a `PREFIX/LEVEL/+` filter, handed over on the network thread itself.
    private var wildcard: (filter: String, largest: Int, handler: @Sendable (String, [UInt8]) -> Void)?
    private var waiting = 0
    /// Unretained messages waiting for a connection, oldest first, and their bytes.
    private var queued: [(topic: String, payload: [UInt8])] = []
    private var queuedBytes = 0

    /// What waits for a connection: past either bound, the oldest are dropped.
    public static let mostQueued = (messages: 1000, bytes: 4 * 1024 * 1024)

    /// Messages handed to the main queue and not yet taken: more are dropped.
    public static let mostWaiting = 16
    /// Seconds between reconnections: from 1, doubling, to 30.
    public static let reconnectDelays = (first: 1, last: 30)
    public static let keepAlive: Int32 = 15
    /// Where Debian (and most systems) keep the CAs a browser trusts, hashed for OpenSSL.
    public static let systemCertificates = "/etc/ssl/certs"

    private init(address: BrokerAddress, handle: OpaquePointer, warn: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.handle = handle
        self.warn = warn
    }

    /// A connection that will say `will` on `willTopic` (retained) if it dies without
    /// closing. Nothing is sent before `start()`. Fails where libmosquitto is missing or
    /// refuses the settings (a TLS library without a CA store).
    /// `willRetained: false` for a will that is news, not a state (a follower gone).
    public static func open(_ address: BrokerAddress, clientID: String, willTopic: String, will: String,
                            willRetained: Bool = true,
                            warn: @escaping @Sendable (String) -> Void) throws(BrokerError) -> BrokerConnection {
        guard let api = mosquittoLibrary else {
            throw BrokerError("libmosquitto is not installed (Debian: apt install libmosquitto1); everything but --mqtt works without it")
        }
        guard let handle = api.new!(clientID, true, nil) else { throw BrokerError("libmosquitto could not make a client") }
        let connection = BrokerConnection(address: address, handle: handle, warn: warn)
        api.user_data_set!(handle, Unmanaged.passUnretained(connection).toOpaque())
        do throws(BrokerError) {
            try connection.configure(willTopic: willTopic, will: will, willRetained: willRetained)
        } catch {
            api.destroy!(handle)
            throw error
        }
        return connection
    }

    private func configure(willTopic: String, will: String, willRetained: Bool) throws(BrokerError) {
        let api = mosquitto
        // No mosquitto_threaded_set: that is for a thread of one's own; loop_start refuses it.
        _ = api.int_option!(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let user = address.user {
            try check(api.username_pw_set!(handle, user, address.password), "the user name")
        }
        let willBytes = Array(will.utf8)
        try check(api.will_set!(handle, willTopic, Int32(willBytes.count), willBytes, 1, willRetained), "the last will")
        if address.tls {
            if let caFile = address.caFile {
                // A private CA alone (a home broker's): the system's store stays out.
                try check(api.tls_set!(handle, caFile, nil, nil, nil, nil), "the CA file \(VisibleText.escape(caFile))")
            } else {
                // The system's CA store, as a browser trusts it.
                _ = api.int_option!(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
                try check(api.tls_set!(handle, nil, Self.systemCertificates, nil, nil, nil), "TLS")
            }
        }
        try check(api.reconnect_delay_set!(handle, UInt32(Self.reconnectDelays.first), UInt32(Self.reconnectDelays.last), true),
                  "the reconnection delay")
        api.connect_callback_set!(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<BrokerConnection>.fromOpaque(context).takeUnretainedValue().didConnect(code)
        }
        api.disconnect_callback_set!(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<BrokerConnection>.fromOpaque(context).takeUnretainedValue().didDisconnect(code)
        }
        api.message_callback_set!(handle) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<BrokerConnection>.fromOpaque(context).takeUnretainedValue().received(message.pointee)
        }
        // A TLS handshake that fails is said only in libmosquitto's log, not to a callback.
        api.log_callback_set!(handle) { _, context, level, text in
            guard let context, let text, level == MOSQ_LOG_ERR else { return }
            Unmanaged<BrokerConnection>.fromOpaque(context).takeUnretainedValue().logged(String(cString: text))
        }
    }

    /// On the network thread: an error libmosquitto logged. OpenSSL's are the TLS
    /// handshake failing (a certificate from a CA not trusted here, a name that does not
    /// match), which is one warning saying why, at once, not a silence of `patience` s.
    /// Said from another thread: libmosquitto holds its log lock while calling this, and
    /// `lostOnce` takes `lock`, which the main thread may hold while calling into it. Kept
    /// too (under a lock of its own), for a handshake that fails within `connect_async`
    /// on the main thread, whose return says only "A TLS error occurred".
    private func logged(_ text: String) {
        // libmosquitto checks the name itself, in OpenSSL's verify callback, and says so in
        // a line of its own just before OpenSSL's "certificate verify failed", which
        // alone would blame the CA.
        if text.contains(Self.nameMismatch) {
            tlsLock.withLock { nameMismatched = true }
            return
        }
        let mismatched = tlsLock.withLock { () -> Bool in
            defer { nameMismatched = false }
            return nameMismatched
        }
        guard let problem = Self.tlsProblem(text, nameMismatchFor: mismatched ? address.host : nil) else { return }
        tlsLock.withLock { lastTLSProblem = problem }
        DispatchQueue.global().async { [self] in lostOnce(tlsFailure(problem)) }
    }

    private let tlsLock = NSLock()
    private var lastTLSProblem: String?
    /// libmosquitto said the certificate's names do not hold the host (under `tlsLock`).
    private var nameMismatched = false
    /// What libmosquitto 2.0 logs when a certificate, its CA trusted, is for other names.
    static let nameMismatch = "host name verification failed"

    private func tlsFailure(_ problem: String) -> String { "TLS with \(address.description) failed: \(problem)" }

    /// What an OpenSSL error logged by libmosquitto means, for a user; nil for any other line.
    /// `nameMismatchFor`: the host, when libmosquitto said just before that the
    /// certificate is not for it (its CA may well be the right one).
    public static func tlsProblem(_ logged: String, nameMismatchFor host: String? = nil) -> String? {
        guard logged.hasPrefix("OpenSSL Error") else { return nil }
        // "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed"
        let reason = logged.components(separatedBy: ":").last?.trimmingCharacters(in: .whitespaces) ?? logged
        let shown = VisibleText.escape(reason.isEmpty ? logged : reason)
        guard reason.contains("certificate verify failed") else { return shown }
        if let host {
            return "\(shown) (the broker's certificate is not for \(VisibleText.escape(host)): its CA signed it "
                + "for other names; connect by a name the certificate holds, or have one made for this one)"
        }
        return "\(shown) (the broker's certificate is not signed by a CA trusted here: "
            + "name its CA with --mqtt-ca FILE, or mqtt_ca = FILE in the athlete file)"
    }

    private func check(_ code: Int32, _ what: String) throws(BrokerError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw BrokerError("libmosquitto refused \(what): \(Self.reason(code))")
        }
    }

    /// Messages on `topic` (at most `largest` bytes; the broker's retained one too only
    /// when `retained`; others are dropped) go to `handler` on the main queue, and the size
    /// of one too large to `tooLarge`. Before `start()`; subscribed again on every connection.
    public func subscribe(_ topic: String, largest: Int, retained: Bool = false,
                          tooLarge: (@MainActor @Sendable (Int) -> Void)? = nil,
                          handler: @escaping @MainActor @Sendable ([UInt8]) -> Void) {
        // Delivered on the main queue (not `onNetworkThread`): the main actor's.
        var told: (@Sendable (Int) -> Void)?
        if let tooLarge {
            told = { size in MainActor.assumeIsolated { tooLarge(size) } }
        }
        subscribe(Subscription(topic: topic, largest: largest, retained: retained, tooLarge: told) { bytes in
            MainActor.assumeIsolated { handler(bytes) }
        })
    }

    /// One topic read, and how: `retained` takes the broker's retained message too (a
    /// follower's first timeline and state; never a command); `onNetworkThread` calls
    /// the handler on mosquitto's thread at once, not on the main queue (a clock's answer,
    /// which must not wait behind the timers).
    public struct Subscription: Sendable {
        public var topic: String
        public var largest: Int
        public var retained = false
        public var onNetworkThread = false
        public var handler: @Sendable ([UInt8]) -> Void
        /// Told (on the main queue) the size of a message over `largest`, which is dropped.
        public var tooLarge: (@Sendable (Int) -> Void)?

        public init(topic: String, largest: Int, retained: Bool = false, onNetworkThread: Bool = false,
                    tooLarge: (@Sendable (Int) -> Void)? = nil, handler: @escaping @Sendable ([UInt8]) -> Void) {
            self.topic = topic
            self.largest = largest
            self.retained = retained
            self.onNetworkThread = onNetworkThread
            self.tooLarge = tooLarge
            self.handler = handler
        }
    }

    /// Adds a topic read. Before `start()`; subscribed again on every connection.
    public func subscribe(_ subscription: Subscription) {
        lock.withLock { subscriptions.append(subscription) }
    }

    /// Messages on the topics `filter` (`a/b/+`: one level more) matches, at most `largest`
    /// bytes and not retained, go to `handler` on mosquitto's network thread, at once:
    /// for many senders (a class's participants) whose messages the handler counts and
    /// drops by itself, cheaply, before anything reaches the main thread. Before `start()`.
    public func subscribeOnNetworkThread(_ filter: String, largest: Int,
                                         handler: @escaping @Sendable (String, [UInt8]) -> Void) {
        lock.withLock { wildcard = (filter, largest, handler) }
    }

    /// Whether `topic` is one level under the `…/+` of `filter`.
    static func matches(_ topic: String, _ filter: String) -> Bool {
        guard filter.hasSuffix("/+") else { return topic == filter }
        let stem = filter.dropLast()
        guard topic.hasPrefix(stem) else { return false }
        let level = topic.dropFirst(stem.count)
        return !level.isEmpty && !level.contains("/")
    }

    /// Starts the network thread and the first connection. A broker that does not answer
    /// is a warning, and the thread goes on trying.
    public func start() {
        let api = mosquitto
        let code = api.connect_async!(handle, address.host, Int32(address.port), Self.keepAlive)
        if code == MOSQ_ERR_TLS.rawValue, let problem = tlsLock.withLock({ lastTLSProblem }) {
            lostOnce(tlsFailure(problem))
        } else if code != MOSQ_ERR_SUCCESS.rawValue {
            lostOnce("cannot reach \(address.description) (\(Self.reason(code)))")
        }
        let started = api.loop_start!(handle)
        if started != MOSQ_ERR_SUCCESS.rawValue { lostOnce("cannot start the network thread (\(Self.reason(started)))") }
        expectAnswer()
    }

    /// A connection that fails without a word from libmosquitto (a refused or silent TCP
    /// connection on a later try, a TLS handshake that fails) is a warning too, once it
    /// has not answered for `patience` seconds.
    private func expectAnswer() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) { [self] in
            let silent = lock.withLock { !connected && !closed }
            if silent { lostOnce("no answer from \(address.description) after \(Int(Self.patience)) s") }
        }
    }

    public static let patience = 5.0

    /// Queues `payload` on `topic`; a retained one is also kept for the next connection,
    /// an unretained one waits for it while the broker is away.
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool) {
        lock.withLock {
            guard !closed else { return }
            if retain {
                if retained.updateValue(payload, forKey: topic) == nil { retainedOrder.append(topic) }
            }
            if connected {
                send(topic, payload, retain: retain)
            } else if !retain {
                queued.append((topic, payload))
                queuedBytes += payload.count
                while queued.count > Self.mostQueued.messages || queuedBytes > Self.mostQueued.bytes {
                    queuedBytes -= queued.removeFirst().payload.count
                }
            }
        }
    }

    public func publish(_ topic: String, _ text: String, retain: Bool) {
        publish(topic, Array(text.utf8), retain: retain)
    }

    /// With the lock held.
    private func send(_ topic: String, _ payload: [UInt8], retain: Bool) {
        // QoS 0 for all: TCP keeps them in order while connected, and the retained ones are
        // sent again on every connection. QoS 1's acknowledgements would be unread when the
        // client closes its socket right after `offline`, which makes the kernel reset the
        // connection, and the broker then sends the will as if the run had died.
        _ = payload.withUnsafeBytes { bytes in
            mosquitto.publish!(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, 0, retain)
        }
    }

    /// Says `lastWords` (retained), disconnects cleanly (so the broker does not send the
    /// will) and stops the network thread. Once. Without a connection the thread may be in
    /// its back-off sleep, which a disconnect does not wake (libmosquitto 2.0): it is
    /// cancelled instead of waited for, and the client left to the process's end, since a
    /// cancelled thread may leave the client's locks as they were.
    public func close(lastWords: (topic: String, payload: String)?, retainLastWords: Bool = true) {
        let api = mosquitto
        let wasConnected: Bool? = lock.withLock {
            guard !closed else { return nil }
            if let lastWords, connected { send(lastWords.topic, Array(lastWords.payload.utf8), retain: retainLastWords) }
            closed = true
            _ = api.disconnect!(handle)
            return connected
        }
        guard let wasConnected else { return }
        // A broker that stopped reading leaves the disconnect queued behind what it did not
        // read, and the thread would wait for the keep-alive to give up (12 s): the
        // disconnect is waited for `mostClosingWait` at most, and past that the thread is
        // cancelled as an unconnected one's is.
        let clean = wasConnected && disconnected.wait(timeout: .now() + Self.mostClosingWait) == .success
        _ = api.loop_stop!(handle, !clean)
        if clean { api.destroy!(handle) }
    }

    /// Signalled by our own disconnect's callback: the DISCONNECT was written.
    private let disconnected = DispatchSemaphore(value: 0)
    /// Seconds the end waits for the disconnect to be written before it leaves the client.
    public static let mostClosingWait = 1.0

    /// On the network thread.
    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            let reason = mosquitto.connack_string!(code).map { String(cString: $0) } ?? "code \(code)"
            lostOnce("\(address.description) refused the connection (\(reason))")
            return
        }
        lock.withLock {
            // Closed while connecting: nothing more is sent (the thread is being stopped).
            guard !closed else { return }
            connected = true
            warned = false
            // What waited first, in its order; then the retained, the newest state last.
            for message in queued { send(message.topic, message.payload, retain: false) }
            queued = []
            queuedBytes = 0
            for topic in retainedOrder {
                if let payload = retained[topic] { send(topic, payload, retain: true) }
            }
            for subscription in subscriptions { _ = mosquitto.subscribe!(handle, nil, subscription.topic, 1) }
            // QoS 0: a reading that is lost is replaced by the next one a second later.
            if let wildcard { _ = mosquitto.subscribe!(handle, nil, wildcard.filter, 0) }
        }
    }

    /// On the network thread; 0 is our own disconnect.
    private func didDisconnect(_ code: Int32) {
        let closing: Bool = lock.withLock {
            connected = false
            return closed
        }
        if closing { disconnected.signal() }
        if code != 0 {
            lostOnce("lost \(address.description) (\(Self.reason(code)))")
            expectAnswer()
        }
    }

    private func lostOnce(_ text: String) {
        let first: Bool = lock.withLock {
            defer { warned = true }
            return !warned && !closed
        }
        if first { warn("mqtt: \(text); the workout goes on, reconnecting in the background") }
    }

    /// On the network thread: a copy of the payload goes to its handler, on the main
    /// queue unless the subscription asks for this thread.
    private func received(_ message: mosquitto_message) {
        guard let topic = message.topic else { return }
        let name = String(cString: topic)
        if receivedUnderWildcard(message, topic: name) { return }
        let taken: Subscription? = lock.withLock {
            // A retained command would act again on every run that subscribes: taken only
            // where the subscription asks for retained messages.
            guard !closed, let subscription = subscriptions.first(where: { $0.topic == name }),
                  subscription.retained || !message.retain, message.payloadlen >= 0 else { return nil }
            if Int(message.payloadlen) > subscription.largest {
                if let tooLarge = subscription.tooLarge {
                    let size = Int(message.payloadlen)
                    DispatchQueue.main.async { tooLarge(size) }
                }
                return nil
            }
            if subscription.onNetworkThread { return subscription }
            guard waiting < Self.mostWaiting else { return nil }
            waiting += 1
            return subscription
        }
        guard let taken else { return }
        let bytes = message.payloadlen == 0 ? []
            : Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)))
        if taken.onNetworkThread { return taken.handler(bytes) }
        DispatchQueue.main.async {
            self.lock.withLock { self.waiting -= 1 }
            taken.handler(bytes)
        }
    }

    /// A message for the wildcard's handler (true: taken or dropped here); on the network thread.
    private func receivedUnderWildcard(_ message: mosquitto_message, topic: String) -> Bool {
        let handler: (@Sendable (String, [UInt8]) -> Void)?? = lock.withLock {
            guard let wildcard, Self.matches(topic, wildcard.filter) else { return .none }
            guard !closed, !message.retain, message.payloadlen >= 0, Int(message.payloadlen) <= wildcard.largest
            else { return .some(nil) }
            return .some(wildcard.handler)
        }
        guard let handler else { return false }
        guard let handler else { return true }
        let bytes = message.payloadlen == 0 ? []
            : Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen)))
        handler(topic, bytes)
        return true
    }

    static func reason(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return mosquitto.strerror!(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

public struct BrokerError: Error, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
