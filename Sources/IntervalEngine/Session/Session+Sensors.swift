import WorkoutValues

/// Bluetooth sensors' values in a running workout: the run hands each decoded notification
/// to `take`; the session keeps the latest (for snapshots, the routine's `sensor` table and
/// the history's totals), emits a `sample` event at most once a second per sensor, and
/// calls `on_sample` at most once a second. Seconds here are real ones (workout seconds
/// over the speed), so a sped-up test keeps the same pace of events as a real run.
extension Session {
    public func take(_ sample: SensorSample) {
        // The decoders drop implausible values already; a sample from elsewhere is held to
        // the same bounds, so the history never sums one its reader would refuse.
        var sample = sample.plausible
        guard state == .running || state == .paused, !sample.isEmpty else { return }
        let t = now - startedAt
        sensors.count(until: t, running: state == .running, athlete: options.athlete)
        if let total = sample[.distance] {
            // A source standing still (a belt at 0 km/h that counts on after a stop) covers nothing.
            let counting = state == .running && sample[.speed] != 0
            distance.take(sensor: sample.sensor, total: total, counting: counting)
            // From here on the distance is this run's, from 0: a foot pod counts from when it
            // was switched on and a treadmill may not reset its total, and the display, the
            // history, the activity files and the routine want what the athlete covered.
            runDistance.take(sensor: sample.sensor, total: total, counting: counting)
            sample.values[.distance] = runDistance.covered(by: sample.sensor)
        }
        sensors.take(sample)
        if sample[.distance] != nil {
            if let metres = segment.open?.distance, let covered = distance.covered, covered >= metres,
               state == .running, phase.boundary == nil {
                markDone(by: .distance)
            }
        }
        if let band = segment.steer, let bpm = sample[.hr], state == .running, phase.boundary == nil {
            steer(band, bpm: bpm, at: t)
        }
        if case .hrBelow(let bpm)? = segment.until, let hr = sensors[.hr]?.current, hr < Double(bpm),
           state == .running, phase.boundary == nil {
            markDone(by: .sample)
        }
        let second = scheduler.speed
        if let last = sensors.lastEvent[sample.sensor], t - last < second { return }
        sensors.lastEvent[sample.sensor] = t
        updateSensorTable()
        emit(.sample(sample))
        if case .function(let until)? = segment.until, state == .running, phase.boundary == nil,
           !disabledHooks.contains(until) {
            do {
                if try routine.code.test(until, named: "until_sample", with: [.sample(sensors, zone: sensorZone)]) {
                    markDone(by: .sample)
                }
            } catch where error.interrupted {
                return
            } catch {
                disabledHooks.insert(until)
                emit(.error(message: error.message, hook: "until_sample", traceback: error.traceback))
            }
        }
        guard routine.hooks.onSample != nil, state == .running, phase.boundary == nil else { return }
        if let last = sensors.lastHook, t - last < second { return }
        sensors.lastHook = t
        callHook(routine.hooks.onSample, "on_sample", with: [segmentArgument, .sample(sensors, zone: sensorZone)])
    }

    /// `hr = { low, high }`: the trainer's watts steered by heart rate (`HeartRateSteering`),
    /// on top of the segment's own target (its `watts` or `power`, else the power read, else
    /// 100 W), within 40–120 % of the FTP (50–400 W without one), through `erg`; with a pace
    /// target, a treadmill's speed instead, 0.2 km/h steps from the pace's, 3 km/h to the
    /// athlete's `max_speed` (16 without one), through a `treadmill` event.
    private func steer(_ band: ClosedRange<Double>, bpm: Double, at t: Double) {
        if steering?.index != segment.index, let speed = segmentPower().treadmill?.speed {
            let limits = 3...max(3, options.athlete.maxSpeed ?? 16)
            steering = (segment.index, HeartRateSteering(band: band, base: min(max(speed, 3), limits.upperBound), step: 0.2,
                                                         limits: limits))
            treadmillSteering = true
        }
        if steering?.index != segment.index {
            treadmillSteering = false
            let limits = options.athlete.ftp.map { (0.4 * $0)...(1.2 * $0) } ?? 50...400
            let own = segmentPower().target.map { Double($0.watts(elapsed: elapsedInSegment, duration: segment.duration)) }
            let base = own ?? sensors[.power]?.current ?? 100
            steering = (segment.index, HeartRateSteering(band: band, base: min(max(base, limits.lowerBound), limits.upperBound),
                                                         step: 5, limits: limits))
        }
        guard let output = steering?.controller.update(bpm: bpm, at: t) else { return }
        if treadmillSteering {
            emit(.treadmill(kmh: Number.rounded(output, places: 2)))
        } else {
            erg(Int(output.rounded()))
        }
    }

    /// A sensor dropped out (or lost contact): its values are stale from now on, and the
    /// routine sees them as nil.
    public func sensorStale(_ sensor: String) {
        guard state == .running || state == .paused else { return }
        sensors.count(until: now - startedAt, running: state == .running, athlete: options.athlete)
        if sensors.markStale(sensor) { updateSensorTable() }
    }

    /// For a distance step: the metres covered so far, nil until a treadmill, rower or foot
    /// pod has given a total; nil in any other segment.
    public var coveredInSegment: Double? {
        segment.open?.distance == nil ? nil : distance.covered
    }

    /// The sensors' values as a viewer shows them (stale ones marked), with the heart-rate zone.
    public var sensorValues: SensorReadings { sensors }

    /// The current heart rate's zone, when there is one and a maximum to read it against.
    public var sensorZone: Int? { sensors[.hr]?.current.flatMap { options.athlete.zone(heartRate: Int($0)) } }

    /// The totals so far, counted up to now (for the history at the end).
    public func sensorTotals() -> SensorTotals {
        sensors.count(until: now - startedAt, running: state == .running, athlete: options.athlete)
        return sensors.totals
    }

    /// Shows the current values in the routine's `sensor` table (nil for stale ones).
    private func updateSensorTable() {
        routine.code.showSensors(sensors, zone: sensorZone)
    }
}
