import GATT
import IntervalEngine
import WorkoutValues
import XCTest

/// The sensors' measurements, decoded from byte layouts written out from the Bluetooth
/// GATT Specification Supplement (flags first, fields little-endian in the order given).
final class GATTDecoderTests: XCTestCase {
    func testHeartRateEightBitWithoutContactSupport() {
        XCTAssertEqual(HeartRateMeasurement([0x00, 0x48]), HeartRateMeasurement(bpm: 72))
    }

    func testHeartRateSixteenBitWithContactAndRRIntervals() {
        // flags: 16-bit value (bit 0), contact supported and detected (bits 1, 2), RR (bit 4).
        let value: [UInt8] = [0x17, 0xb4, 0x00, 0x00, 0x04, 0x00, 0x02]
        let measurement = HeartRateMeasurement(value)
        XCTAssertEqual(measurement?.bpm, 180)
        XCTAssertEqual(measurement?.contact, true)
        XCTAssertEqual(measurement?.rrIntervals, [1.0, 0.5])
    }

    func testHeartRateContactLostAndEnergyExpended() {
        // flags: contact supported but not detected (bit 2 only), energy expended (bit 3).
        let measurement = HeartRateMeasurement([0x0c, 0x5a, 0x10, 0x00])
        XCTAssertEqual(measurement, HeartRateMeasurement(bpm: 90, contact: false, energyExpended: 16))
    }

    func testHeartRateShorterThanItsFlagsIsRefused() {
        XCTAssertNil(HeartRateMeasurement([0x01, 0x48]))
        XCTAssertNil(HeartRateMeasurement([]))
        XCTAssertNil(HeartRateMeasurement([0x08, 0x48, 0x01]))
    }

    func testCyclingPowerWithCrankData() {
        // flags 0x0020: crank revolution data; 250 W; 100 revolutions at 2048/1024 s.
        let value: [UInt8] = [0x20, 0x00, 0xfa, 0x00, 0x64, 0x00, 0x00, 0x08]
        XCTAssertEqual(CyclingPowerMeasurement(value),
                       CyclingPowerMeasurement(watts: 250, crank: .init(revolutions: 100, eventTime: 2048)))
    }

    func testCyclingPowerPassesOverTheFieldsBeforeTheCrank() {
        // balance (1 byte), accumulated torque (2), wheel data (4 + 2), then the crank.
        let value: [UInt8] = [0x35, 0x00, 0x2c, 0x01, 0x32, 0x10, 0x00, 1, 0, 0, 0, 0, 4, 0x07, 0x00, 0x00, 0x04]
        XCTAssertEqual(CyclingPowerMeasurement(value),
                       CyclingPowerMeasurement(watts: 300, crank: .init(revolutions: 7, eventTime: 1024)))
        XCTAssertNil(CyclingPowerMeasurement([0x00, 0x00, 0x38, 0xff])?.watts, "-200 W is no power")
        XCTAssertNil(CyclingPowerMeasurement([0x20, 0x00, 0xfa, 0x00, 0x64]))
    }

    func testCadenceFromCrankRevolutionsWrapsAndStops() {
        var cadence = CrankCadence()
        XCTAssertNil(cadence.update(revolutions: 65534, eventTime: 64512, at: 0))
        // 2 revolutions in 1024 ticks (1 s), across both counters' wrap: 120 rpm.
        XCTAssertEqual(cadence.update(revolutions: 0, eventTime: 0, at: 1), 120)
        // No new crank event: the cadence holds, then drops to 0 after 3 s.
        XCTAssertEqual(cadence.update(revolutions: 0, eventTime: 0, at: 2), 120)
        XCTAssertEqual(cadence.update(revolutions: 0, eventTime: 0, at: 5), 0)
        XCTAssertEqual(cadence.update(revolutions: 1, eventTime: 512, at: 5.5), 120)
    }

    func testCSCMeasurementWheelAndCrank() {
        let value: [UInt8] = [0x03, 0x10, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00, 0x00, 0x08]
        let measurement = CSCMeasurement(value)
        XCTAssertEqual(measurement?.wheelRevolutions, 16)
        XCTAssertEqual(measurement?.wheelEventTime, 1024)
        XCTAssertEqual(measurement?.crank, .init(revolutions: 5, eventTime: 2048))
        XCTAssertNil(CSCMeasurement([0x02, 0x05, 0x00]))
    }

    func testIndoorBikeDataSpeedCadencePower() {
        // flags 0x0044: speed present (bit 0 clear), cadence (bit 2), power (bit 6).
        let value: [UInt8] = [0x44, 0x00, 0xc4, 0x09, 0xb4, 0x00, 0xc8, 0x00]
        XCTAssertEqual(IndoorBikeData(value), IndoorBikeData(speed: 25, cadence: 90, power: 200))
    }

    func testIndoorBikeDataMoreDataAndSkippedFields() {
        // More Data set (no speed), average speed, cadence, average cadence, distance,
        // resistance, power, average power, energy, heart rate.
        let value: [UInt8] = [0xff, 0x03, 1, 0, 0xa0, 0x00, 2, 0, 3, 0, 0, 4, 0, 0x96, 0x00, 5, 0, 6, 0, 7, 0, 8, 0x8c]
        XCTAssertEqual(IndoorBikeData(value), IndoorBikeData(cadence: 80, power: 150, heartRate: 140))
        XCTAssertNil(IndoorBikeData([0x40, 0x00, 0x10]))
    }

    /// What no person produces is no value (`PlausibleReadings`): a strap's 16-bit 65,535
    /// or its 0, a trainer's −32,768 W, a heart rate of 0 from a trainer without a receiver.
    func testImplausibleReadingsAreNoValue() {
        XCTAssertEqual(HeartRateMeasurement([0x01, 0xff, 0xff]), HeartRateMeasurement(bpm: nil))
        XCTAssertNil(HeartRateMeasurement([0x00, 0x00])?.bpm)
        XCTAssertNil(HeartRateMeasurement([0x00, 0x05])?.bpm)
        XCTAssertEqual(HeartRateMeasurement([0x06, 0x00])?.contact, true, "the contact flag still counts")
        XCTAssertEqual(HeartRateMeasurement([0x00, 250])?.bpm, 250)
        XCTAssertNil(CyclingPowerMeasurement([0x00, 0x00, 0x00, 0x80])?.watts)
        XCTAssertNil(CyclingPowerMeasurement([0x00, 0x00, 0xb9, 0x0b])?.watts, "3,001 W")
        XCTAssertEqual(CyclingPowerMeasurement([0x00, 0x00, 0x00, 0x00])?.watts, 0, "coasting")
        // More Data (no speed), cadence 65,535 half-rpm, power −1 W, heart rate 0.
        XCTAssertEqual(IndoorBikeData([0x45, 0x02, 0xff, 0xff, 0xff, 0xff, 0x00]), IndoorBikeData())
        XCTAssertNil(IndoorBikeData([0x00, 0x00, 0xff, 0xff])?.speed, "655 km/h")
    }

    func testACrankCounterThatJumpsGivesNoCadence() {
        var cadence = CrankCadence()
        _ = cadence.update(revolutions: 100, eventTime: 1024, at: 0)
        XCTAssertEqual(cadence.update(revolutions: 101, eventTime: 2048, at: 1), 60)
        // Back one revolution: 65,535 turns in a second, wrapped.
        XCTAssertNil(cadence.update(revolutions: 100, eventTime: 3072, at: 2))
        XCTAssertNil(cadence.update(revolutions: 5000, eventTime: 3073, at: 2.1))
        XCTAssertEqual(cadence.update(revolutions: 5001, eventTime: 4097, at: 3), 60)
    }

    func testControlPointRequestsAndResponses() {
        XCTAssertEqual(FitnessMachineControl.requestControlBytes(), [0x00])
        XCTAssertEqual(FitnessMachineControl.targetPowerBytes(250), [0x05, 0xfa, 0x00])
        XCTAssertEqual(FitnessMachineControl.targetPowerBytes(-5), [0x05, 0x00, 0x00])
        XCTAssertEqual(FitnessMachineControl.Response([0x80, 0x05, 0x01]), .init(request: 0x05, result: .success))
        XCTAssertEqual(FitnessMachineControl.Response([0x80, 0x00, 0x05])?.result, .controlNotPermitted)
        XCTAssertNil(FitnessMachineControl.Response([0x05, 0x01]))
    }
}

/// The power an ERG trainer is given for a segment.
final class ErgTargetTests: XCTestCase {
    func testWattsPowerOfFTPRangesAndRamps() {
        XCTAssertEqual(ErgTarget(info: .object([("watts", .integer(250))]), ftp: nil)?.watts(elapsed: 3, duration: 60), 250)
        XCTAssertEqual(ErgTarget(info: .object([("power", .integer(90))]), ftp: 200)?.watts(elapsed: 0, duration: 60), 180)
        XCTAssertNil(ErgTarget(info: .object([("power", .integer(90))]), ftp: nil), "power needs an FTP")
        XCTAssertNil(ErgTarget(info: .object([("freeride", .bool(true))]), ftp: 200))
        let range = JSONValue.object([("low", .integer(200)), ("high", .integer(240))])
        XCTAssertEqual(ErgTarget(info: .object([("watts", range)]), ftp: nil)?.watts(elapsed: 10, duration: 60), 220)
        let ramp = ErgTarget(info: .object([("power", .object([("low", .integer(50)), ("high", .integer(100))])),
                                            ("ramp", .bool(true))]), ftp: 200)
        // 100 W → 200 W over 10 s, one step a second.
        XCTAssertEqual([0, 0.9, 1, 5.5, 10].map { ramp?.watts(elapsed: $0, duration: 10) }, [100, 100, 110, 150, 200])
    }
}
