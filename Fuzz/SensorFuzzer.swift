// libFuzzer target: the surfaces a device, a file or a damaged line reaches without a
// routine. Built by Fuzz/build.sh sensors; `make test` runs it briefly beside the others.
// Besides no crash and no hang, it checks what each promises:
// - the GATT decoders (heart rate, cycling power, CSC, Indoor Bike Data, the control
//   point's indications; a treadmill's, a rower's and a foot pod's data, the supported
//   ranges and the machine's status) give values or nothing, never an implausible value (a
//   heart rate of 0 or 65,535, a cadence from a wrapped crank counter);
// - a history line that reads (with `hr`, `power`, `laps`, `pauses`) is written back by the
//   writer as a line the reader reads to the same entry;
// - the athlete and sensors files give settings or an error naming the file and line;
// - the FIT activity file of a session (its laps, pauses and records, out of order) reads
//   back through `FITDecoder` (header and CRCs, every message defined before it is used and
//   within the data) with every lap.
import Activity
import FIT
import Foundation
import GATT
import History
import IntervalEngine
import PastSessions
import Platform
import WorkoutValues

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzDecoders(bytes)
    let entries = fuzzHistory(bytes)
    fuzzFiles(bytes)
    if let entry = entries.first { fuzzActivity(entry, bytes) }
    return 0
}

// MARK: GATT

/// Whether `value`, if any, is a plausible `quantity` (`SensorQuantity.plausible`).
private func plausible(_ quantity: SensorQuantity, _ value: Double?) -> Bool { value.map { quantity.plausible($0) != nil } ?? true }

/// Every prefix of the input as each characteristic's value, and its 4-byte words as a
/// crank's successive (revolutions, event time) pairs.
private func fuzzDecoders(_ bytes: [UInt8]) {
    for end in stride(from: 0, through: min(bytes.count, 64), by: 1) {
        let value = Array(bytes[..<end])
        if let heart = HeartRateMeasurement(value) {
            precondition(plausible(.hr, heart.bpm.map(Double.init)), "heart rate \(String(describing: heart.bpm)) from \(value)")
            precondition(heart.rrIntervals.allSatisfy { $0.isFinite && $0 >= 0 && $0 < 64 })
        }
        if let power = CyclingPowerMeasurement(value) {
            precondition(plausible(.power, power.watts.map(Double.init)), "power \(String(describing: power.watts)) from \(value)")
        }
        _ = CSCMeasurement(value)
        if let bike = IndoorBikeData(value) {
            precondition(bike.values.allSatisfy { plausible($0.key, $0.value) }, "indoor bike data \(bike) from \(value)")
        }
        _ = FitnessMachineControl.Response(value)
        // A runner's and a rower's machines, and a foot pod at any calibration.
        if let treadmill = TreadmillData(value) {
            precondition(treadmill.values.allSatisfy { plausible($0.key, $0.value) }, "treadmill data \(treadmill) from \(value)")
        }
        if let rower = RowerData(value) {
            precondition(rower.values.allSatisfy { plausible($0.key, $0.value) }, "rower data \(rower) from \(value)")
        }
        for calibration in [0.5, 1, 2] {
            if let pod = RSCMeasurement(value, calibration: calibration) {
                precondition(pod.values.allSatisfy { plausible($0.key, $0.value) }, "foot pod \(pod) from \(value)")
            }
        }
        _ = SupportedRange(speed: value)
        _ = SupportedRange(inclination: value)
        _ = FitnessMachineStatus(value)
    }
    var crank = CrankCadence()
    var time = 0.0
    for word in stride(from: 0, to: bytes.count - 3, by: 4) {
        let revolutions = UInt16(bytes[word]) | UInt16(bytes[word + 1]) << 8
        let eventTime = UInt16(bytes[word + 2]) | UInt16(bytes[word + 3]) << 8
        time += Double(bytes[word] % 4) * 0.5
        let rpm = crank.update(revolutions: revolutions, eventTime: eventTime, at: time)
        precondition(plausible(.cadence, rpm), "cadence \(String(describing: rpm))")
    }
}

// MARK: History

/// Each line as a history line; one that reads, written again, reads back the same.
private func fuzzHistory(_ bytes: [UInt8]) -> [HistoryEntry] {
    var entries: [HistoryEntry] = []
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").prefix(16) {
        guard let entry = HistoryEntry(line: String(line)) else { continue }
        let written = entry.json.text
        guard let again = HistoryEntry(line: written) else {
            preconditionFailure("the writer wrote a line its reader refuses:\n\(written)")
        }
        precondition(again == entry, "the line read back differs:\n\(line)\n\(written)")
        precondition(again.json.text == written, "written twice, two lines:\n\(written)")
        entries.append(entry)
    }
    return entries
}

// MARK: The athlete and sensors files

private let folder: String = {
    let path = NSTemporaryDirectory() + "workout-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path + "/workout", withIntermediateDirectories: true)
    return path
}()

private func fuzzFiles(_ bytes: [UInt8]) {
    let directories = UserDirectories(environment: ["XDG_CONFIG_HOME": folder, "HOME": folder])
    for name in ["athlete", "sensors"] {
        _ = FileManager.default.createFile(atPath: "\(folder)/workout/\(name)", contents: Data(bytes))
    }
    let athlete = AthleteFile(directories: directories)
    do {
        for setting in try athlete.read() {
            precondition(Athlete.settingNames.contains(setting.name), "a setting the file does not take: \(setting.name)")
        }
    } catch {
        precondition(error.message.hasPrefix(athlete.path), "an error that does not name the file: \(error.message)")
        precondition(!error.message.unicodeScalars.contains { VisibleText.isControl($0) && $0 != "\n" },
                     "an unescaped control character: \(error.message)")
    }
    if let sensors = try? RememberedSensors(directories: directories).read() {
        for sensor in sensors {
            precondition(RememberedSensors.isAddress(sensor.address), "not an address: \(sensor.address)")
        }
    }
}

// MARK: FIT activity files

/// The session of `entry` with records made of the input's bytes, in the order they come
/// (out of order, some before the start, some long after the end), as a FIT file.
private func fuzzActivity(_ entry: HistoryEntry, _ bytes: [UInt8]) {
    var records: [ActivityRecord] = []
    for index in stride(from: 0, to: min(bytes.count, 4_000) - 5, by: 6) {
        let t = Double(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / 8
        let sample = Sample(hr: Int(bytes[index + 2]), power: Int(bytes[index + 3]) * 4,
                                    cadence: Double(bytes[index + 4]), speed: Double(bytes[index + 5]) / 4)
        records.append(ActivityRecord(t: t, time: entry.started.addingTimeInterval(t), segment: Int(bytes[index] % 8),
                                      sample: sample))
    }
    let activity = Activity(entry: entry, records: records)
    checkFIT(FITActivity.encode(activity, creator: .init(name: "fuzz", version: "1.0")), laps: activity.laps.count)
}

/// The file as `FITDecoder` reads it (the import's reader: header and both CRCs checked,
/// every message defined before it is used and within the data): a 14-byte header, and
/// the session's laps there.
private func checkFIT(_ file: [UInt8], laps: Int) {
    precondition(file.count >= 16 && file[0] == 14, "not a 14-byte FIT header")
    do throws(FITDecoder.Problem) {
        let messages = try FITDecoder.messages(file)
        precondition(messages.filter { $0.global == 19 }.count == laps, "the laps of the session")
    } catch {
        preconditionFailure("our own FIT file does not read back: \(error.message)")
    }
}
