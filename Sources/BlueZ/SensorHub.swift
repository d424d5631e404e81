import Foundation
import IntervalEngine
import WorkoutValues

/// A run's sensors: BlueZ reached once, one `SensorLink` per sensor asked for, their
/// samples handed to the session, and a trainer's control point to `TrainerControl`
/// (unless `--no-erg`). Without Bluetooth (no bus, no bluetoothd, no adapter) it warns
/// once and the workout runs without sensors.
@MainActor
public final class SensorHub {
    private var links: [SensorLink] = []
    private var client: BlueZ?
    public let trainer: TrainerControl?
    private var stopped = false

    /// `take`, `stale` and `warn` run on the main thread; `scheduler` (the session's) times
    /// the links' retries; `footPodFactor` calibrates a foot pod's speed and distance.
    public init(addresses: [String], environment: [String: String], erg: TrainerControl?, scheduler: any Scheduler,
                footPodFactor: Double = 1, take: @escaping (SensorSample) -> Void, stale: @escaping (String) -> Void,
                warn: @escaping (String) -> Void) {
        trainer = erg
        BlueZ.connect(environment: environment) { [weak self] result in
            guard let self, !stopped else { return }
            switch result {
            case .failure(let failure):
                warn("sensors: \(VisibleText.escape(failure.message)); the workout runs without them")
            case .success(let client):
                self.client = client
                for address in addresses {
                    let link = SensorLink(address: address, client: client, control: erg != nil, scheduler: scheduler, handlers: .init(
                        sample: take, stale: stale, warn: warn,
                        control: { erg?.response($0) },
                        live: { erg?.attach($0) }))
                    link.footPodCalibration = footPodFactor
                    links.append(link)
                    link.start()
                }
            }
        }
    }

    /// Stops every link and lets go of the bus.
    public func stop() {
        stopped = true
        trainer?.stop()
        for link in links { link.stop() }
        links = []
        client?.bus.close()
        client = nil
    }
}
