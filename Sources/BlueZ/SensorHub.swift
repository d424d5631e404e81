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
    public let treadmill: TreadmillControl?
    private var stopped = false

    /// `take`, `stale` and `warn` run on the main thread; `scheduler` (the session's) times
    /// the links' retries; `footPodFactor` calibrates a foot pod's speed and distance.
    public init(addresses: [String], environment: [String: String], erg: TrainerControl?,
                treadmill: TreadmillControl? = nil, scheduler: any Scheduler, footPodFactor: Double = 1, take: @escaping (SensorSample) -> Void, stale: @escaping (String) -> Void,
                warn: @escaping (String) -> Void) {
        trainer = erg
        self.treadmill = treadmill
        BlueZ.connect(environment: environment) { [weak self] result in
            guard let self, !stopped else { return }
            switch result {
            case .failure(let failure):
                warn("sensors: \(VisibleText.escape(failure.message)); the workout runs without them")
            case .success(let client):
                self.client = client
                for address in addresses {
                    // A treadmill's answers and data go to its control, a trainer's to ERG.
                    weak var made: SensorLink?
                    var handlers = SensorLink.Handlers(
                        sample: { sample in
                            take(sample)
                            if made?.isTreadmill == true { treadmill?.observe(sample) }
                        },
                        stale: stale, warn: warn,
                        control: { response in
                            if made?.isTreadmill == true { treadmill?.response(response) } else { erg?.response(response) }
                        },
                        live: { link in
                            if link.isTreadmill { treadmill?.attach(link) } else { erg?.attach(link) }
                        })
                    handlers.status = { status in treadmill?.status(status) }
                    let link = SensorLink(address: address, client: client, control: erg != nil,
                                          scheduler: scheduler, handlers: handlers)
                    made = link
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
        treadmill?.stop()
        for link in links { link.stop() }
        links = []
        client?.bus.close()
        client = nil
    }
}
