import DBus
import Foundation
import GATT
import IntervalEngine
import WorkoutValues

/// One remembered sensor, kept connected for a run: found among BlueZ's devices (a
/// discovery finds one that is not paired), connected, its measurement characteristics
/// notifying, their values decoded into `SensorSample`s. When it drops out it warns once,
/// reports itself stale, and tries again with back-off (1 s, doubling to 30 s); the
/// workout's timers never wait for it. A device that needs pairing is told so and left.
/// It lives on the main thread, as its `BusConnection` does; its waits (the retries, the
/// warning that it is not found yet) are real seconds on the session's scheduler, timers
/// of the main run loop beside the workout's.
@MainActor
public final class SensorLink {
    public let address: String
    /// Its name once BlueZ knows it, else the address.
    public private(set) var name: String
    private let client: BlueZ
    private let scheduler: any Scheduler
    private let wantsControl: Bool
    private let handlers: Handlers
    private var state = State.idle
    private var devicePath: String?
    /// Characteristic path → 16-bit UUID, for the ones notifying.
    private var subscribed: [String: String] = [:]
    public private(set) var controlPoint: String?
    /// A treadmill or a rower, by the data it sends: no ERG for it (it has no watts to hold).
    public var isTreadmillOrRower: Bool { isTreadmill || isRower }
    /// A treadmill, by its Treadmill Data: `TreadmillControl` sets its speed and incline.
    public private(set) var isTreadmill = false
    public private(set) var isRower = false
    private var cadence = CrankCadence()
    private var quirks = MachineQuirks()
    /// A foot pod's calibration factor (the athlete file's `foot_pod_factor`), 1 unless set.
    public var footPodCalibration = 1.0
    private var backOff = 1.0
    private var warnedDropOut = false
    private var watch: UUID?
    private var generation = 0

    public struct Handlers {
        public var sample: (SensorSample) -> Void
        public var stale: (String) -> Void
        public var warn: (String) -> Void
        /// The trainer's answer to a control point write.
        public var control: (FitnessMachineControl.Response) -> Void
        /// Connected and notifying (again).
        public var live: (SensorLink) -> Void
        /// A treadmill's status: stopped at the machine, its safety key, a speed set on its console.
        public var status: (FitnessMachineStatus) -> Void = { _ in }

        public init(sample: @escaping (SensorSample) -> Void, stale: @escaping (String) -> Void = { _ in },
                    warn: @escaping (String) -> Void, control: @escaping (FitnessMachineControl.Response) -> Void = { _ in },
                    live: @escaping (SensorLink) -> Void = { _ in }) {
            self.sample = sample
            self.stale = stale
            self.warn = warn
            self.control = control
            self.live = live
        }
    }

    enum State: Equatable {
        case idle, finding, connecting, resolving, subscribing, live, waiting, needsPairing, stopped
    }

    /// `control`: also take the FTMS control point's indications, for ERG.
    public init(address: String, client: BlueZ, control: Bool, scheduler: any Scheduler, handlers: Handlers) {
        self.address = address.uppercased()
        name = self.address
        self.client = client
        self.scheduler = scheduler
        wantsControl = control
        self.handlers = handlers
    }

    public var isLive: Bool { state == .live }

    /// Starts connecting; from now on it keeps trying until `stop()`.
    public func start() {
        guard state == .idle else { return }
        watch = client.watch(changed: { [weak self] path, interface, properties in
            self?.changed(path, interface, properties)
        }, removed: { [weak self] path in
            if path == self?.devicePath { self?.droppedOut() }
        })
        find()
    }

    /// Stops trying and disconnects from nothing: BlueZ keeps the device for other programs.
    public func stop() {
        if state == .finding { client.endDiscovery() }
        state = .stopped
        if let watch { client.unwatch(watch) }
        watch = nil
    }

    private func find() {
        guard let device = client.device(address) else {
            if state != .finding {
                // BlueZ lists a device that is not paired only once a discovery finds it.
                state = .finding
                client.beginDiscovery()
                generation += 1
                let attempt = generation
                scheduler.scheduleAside(at: scheduler.time(afterReal: 15)) { [weak self] _ in
                    guard let self, attempt == generation, state == .finding, !warnedDropOut else { return }
                    warnedDropOut = true
                    handlers.warn("sensor \(address) not found yet; still looking (is it awake and in range?)")
                }
            }
            return
        }
        if state == .finding { client.endDiscovery() }
        devicePath = device.path
        if let found = device.name { name = VisibleText.escape(found) }
        connect(device)
    }

    private func connect(_ device: BluetoothDevice) {
        state = .connecting
        generation += 1
        let attempt = generation
        client.bus.call(BlueZ.service, device.path, BlueZ.deviceInterface, "Connect", timeout: 30) { [weak self] reply in
            guard let self, attempt == generation, state == .connecting else { return }
            switch reply {
            case .failure(let failure):
                failed(failure)
            case .success:
                state = .resolving
                if client.device(address)?.servicesResolved == true { subscribe() }
            }
        }
    }

    private func subscribe() {
        guard let devicePath, state == .resolving else { return }
        state = .subscribing
        let wanted = [SensorService.heartRateMeasurement, SensorService.cyclingPowerMeasurement,
                      SensorService.cscMeasurement, SensorService.indoorBikeData, SensorService.treadmillData,
                      SensorService.rowerData, SensorService.rscMeasurement, SensorService.fitnessMachineStatus]
            + (wantsControl ? [SensorService.fitnessMachineControlPoint] : [])
        let targets = client.characteristics(of: devicePath).filter { wanted.contains($0.uuid) }
        isTreadmill = targets.contains { $0.uuid == SensorService.treadmillData }
        isRower = targets.contains { $0.uuid == SensorService.rowerData }
        subscribed = [:]
        controlPoint = nil
        guard !targets.isEmpty else {
            handlers.warn("sensor \(name) (\(address)) has no heart rate, power, cadence, trainer, treadmill, rower "
                + "or foot pod data")
            state = .stopped
            return
        }
        var waiting = targets.count
        let attempt = generation
        for target in targets {
            client.bus.call(BlueZ.service, target.path, BlueZ.characteristicInterface, "StartNotify") { [weak self] reply in
                guard let self, attempt == generation, state == .subscribing else { return }
                switch reply {
                case .failure(let failure):
                    failed(failure)
                case .success:
                    subscribed[target.path] = target.uuid
                    if target.uuid == SensorService.fitnessMachineControlPoint { controlPoint = target.path }
                    waiting -= 1
                    if waiting == 0 { becameLive() }
                }
            }
        }
    }

    private func becameLive() {
        state = .live
        backOff = 1
        if warnedDropOut { handlers.warn("sensor \(name) (\(address)) is back") }
        warnedDropOut = false
        cadence = CrankCadence()
        handlers.live(self)
    }

    /// A refusal that pairing would lift ends the attempts with a message saying so; any
    /// other failure is tried again later.
    private func failed(_ failure: BusFailure) {
        let pairing = ["org.bluez.Error.NotPermitted", "org.bluez.Error.NotAuthorized",
                       "org.bluez.Error.AuthenticationFailed", "org.bluez.Error.AuthenticationRejected",
                       "org.bluez.Error.AuthenticationCanceled"]
        if pairing.contains(failure.name) {
            state = .needsPairing
            handlers.warn("sensor \(name) (\(address)) needs pairing: pair it in the desktop's Bluetooth settings "
                + "(or with bluetoothctl pair \(address)), then start again")
            return
        }
        retryLater(after: backOff,
                   warning: warnedDropOut ? nil : "sensor \(name) (\(address)) cannot connect (\(VisibleText.escape(failure.message))); trying again")
        warnedDropOut = true
    }

    private func droppedOut() {
        guard state == .live || state == .subscribing || state == .resolving else { return }
        handlers.stale(address)
        subscribed = [:]
        controlPoint = nil
        retryLater(after: backOff,
                   warning: warnedDropOut ? nil : "sensor \(name) (\(address)) dropped out; reconnecting")
        warnedDropOut = true
    }

    /// Tries again after `seconds` (doubling the next wait, up to 30 s), warning once.
    private func retryLater(after seconds: Double, warning: String?) {
        if let warning { handlers.warn(warning) }
        state = .waiting
        generation += 1
        let attempt = generation
        backOff = min(backOff * 2, 30)
        scheduler.scheduleAside(at: scheduler.time(afterReal: seconds)) { [weak self] _ in
            guard let self, attempt == generation, state == .waiting else { return }
            find()
        }
    }

    private func changed(_ path: String, _ interface: String, _ properties: [String: BusValue]) {
        if state == .finding, interface.isEmpty || interface == BlueZ.deviceInterface, client.device(address) != nil {
            return find()
        }
        if path == devicePath, interface == BlueZ.deviceInterface {
            if properties["Connected"]?.bool == false { return droppedOut() }
            if properties["ServicesResolved"]?.bool == true, state == .resolving { subscribe() }
            return
        }
        guard let uuid = subscribed[path], let value = properties["Value"]?.bytes else { return }
        decode(uuid, value)
    }

    private func decode(_ uuid: String, _ value: [UInt8]) {
        var sample = SensorSample(sensor: address, name: name)
        switch uuid {
        case SensorService.heartRateMeasurement:
            guard let measurement = HeartRateMeasurement(value) else { return }
            // A strap off the skin measures nothing, and one that sends a rate no heart
            // has (0, 65,535: `PlausibleReadings`) gives no value: either is shown as stale.
            guard measurement.contact != false, let bpm = measurement.bpm else { return handlers.stale(address) }
            sample[.hr] = Double(bpm)
        case SensorService.cyclingPowerMeasurement:
            guard let measurement = CyclingPowerMeasurement(value) else { return }
            sample[.power] = measurement.watts.map(Double.init)
            if let crank = measurement.crank {
                sample[.cadence] = cadence.update(revolutions: crank.revolutions, eventTime: crank.eventTime, at: Self.now())
            }
        case SensorService.cscMeasurement:
            guard let measurement = CSCMeasurement(value), let crank = measurement.crank else { return }
            sample[.cadence] = cadence.update(revolutions: crank.revolutions, eventTime: crank.eventTime, at: Self.now())
        case SensorService.indoorBikeData:
            guard let data = IndoorBikeData(value) else { return }
            sample.values = data.values
        case SensorService.treadmillData:
            guard let data = TreadmillData(value) else { return }
            sample.values = data.values
            if let warning = quirks.treadmill(data.values, name: name) { handlers.warn(warning) }
        case SensorService.rowerData:
            guard let data = RowerData(value) else { return }
            let (values, warning) = quirks.rower(data.values, strokeCount: data.strokeCount, name: name)
            sample.values = values
            if let warning { handlers.warn(warning) }
        case SensorService.rscMeasurement:
            guard let measurement = RSCMeasurement(value, calibration: footPodCalibration) else { return }
            sample.values = measurement.values
        case SensorService.fitnessMachineControlPoint:
            if let response = FitnessMachineControl.Response(value) { handlers.control(response) }
            return
        case SensorService.fitnessMachineStatus:
            if let status = FitnessMachineStatus(value) { handlers.status(status) }
            return
        default:
            return
        }
        if !sample.isEmpty { handlers.sample(sample) }
    }

    /// Writes `bytes` to the trainer's control point (a write with response); a failure
    /// comes back as `failure` — only while the link is still the one written through: a
    /// write that fails because the trainer dropped out or was removed in the middle of it
    /// is the drop-out's, warned of once ("dropped out; reconnecting"), not the trainer
    /// refusing its target (which would be a second, wrong warning). Its failure may come
    /// before BlueZ signals the drop-out, so a failure that says the trainer is gone
    /// (`isGone`) is taken as the drop-out itself.
    public func writeControl(_ bytes: [UInt8], failure: @escaping (BusFailure) -> Void) {
        guard let controlPoint, state == .live else { return }
        let attempt = generation
        client.bus.call(BlueZ.service, controlPoint, BlueZ.characteristicInterface, "WriteValue", timeout: 5, arguments: { writer in
            writer.bytes(bytes)
            writer.options([("type", .string("request"))])
        }) { [weak self] reply in
            guard let self, attempt == generation, state == .live, case .failure(let error) = reply else { return }
            if Self.isGone(error) { droppedOut() } else { failure(error) }
        }
    }

    /// Reads one of the device's characteristics (a treadmill's supported ranges): its
    /// value, or nil when it has none or the read fails.
    public func readValue(_ uuid: String, reply: @escaping ([UInt8]?) -> Void) {
        guard let devicePath, state == .live,
              let target = client.characteristics(of: devicePath).first(where: { $0.uuid == uuid }) else { return reply(nil) }
        client.bus.call(BlueZ.service, target.path, BlueZ.characteristicInterface, "ReadValue", timeout: 5, arguments: { writer in
            writer.options([])
        }) { result in
            if case .success(let values) = result { reply(values.first?.bytes) } else { reply(nil) }
        }
    }

    /// A call's failure that means the device is no longer there: its object removed, or
    /// bluetoothd's "Not connected".
    static func isGone(_ failure: BusFailure) -> Bool {
        ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"].contains(failure.name)
            || (failure.name.hasPrefix("org.bluez.Error.") && failure.message.localizedCaseInsensitiveContains("not connected"))
    }

    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
