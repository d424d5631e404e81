import GATT
import WorkoutValues
import XCTest

/// A treadmill's, a rower's and a foot pod's measurements, decoded from byte layouts
/// written out from the Fitness Machine Service 1.0 (Treadmill Data 4.9, Rower Data 4.8)
/// and the Running Speed and Cadence Service 1.0: flags first, fields little-endian in
/// the order the flags list them.
final class RunnerDecoderTests: XCTestCase {
    func testTreadmillSpeedDistanceAndIncline() {
        // flags 0x000c: total distance (bit 2), inclination and ramp angle (bit 3); bit 0
        // clear: the speed is there. 12.00 km/h, 1,234 m (uint24), 2.5 %, ramp 1.4°.
        let value: [UInt8] = [0x0c, 0x00, 0xb0, 0x04, 0xd2, 0x04, 0x00, 0x19, 0x00, 0x0e, 0x00]
        XCTAssertEqual(TreadmillData(value),
                       TreadmillData(values: [.speed: 12, .pace: 300, .distance: 1234, .incline: 2.5]))
    }

    func testTreadmillPassesOverFieldsToHeartRateAndPower() {
        // flags 0x11f3: more data (no speed), average speed (2), elevation gain (2 + 2),
        // instantaneous and average pace (1 + 1), energy (2 + 2 + 1), heart rate 150,
        // force on belt (2) and power 180 W.
        var value: [UInt8] = [0xf3, 0x11]
        value += [0x10, 0x04] + [0, 0, 0, 0] + [0x32, 0x32] + [1, 0, 2, 0, 3] + [150] + [0x05, 0x00, 0xb4, 0x00]
        XCTAssertEqual(TreadmillData(value), TreadmillData(values: [.hr: 150, .power: 180]))
        XCTAssertNil(TreadmillData(Array(value.dropLast())), "power promised, one byte short")
    }

    func testTreadmillDownhillAndStandingStill() {
        // −3.0 % is an incline; a belt at 0 km/h has no pace.
        let value: [UInt8] = [0x08, 0x00, 0x00, 0x00, 0xe2, 0xff, 0x00, 0x00]
        XCTAssertEqual(TreadmillData(value), TreadmillData(values: [.speed: 0, .incline: -3]))
        XCTAssertNil(TreadmillData([0x04, 0x00, 0xb0, 0x04, 0xd2, 0x04]), "distance is three bytes")
        XCTAssertNil(TreadmillData([0x00]))
    }

    func testRowerStrokesDistanceAndSplit() {
        // flags 0x002c: total distance, instantaneous pace, power; bit 0 clear: stroke rate
        // 25/min (50 halves), 120 strokes, 450 m, 2:00/500m (120 s), 180 W.
        let value: [UInt8] = [0x2c, 0x00, 50, 120, 0, 0xc2, 0x01, 0x00, 120, 0, 0xb4, 0x00]
        let data = RowerData(value)
        XCTAssertEqual(data, RowerData(values: [.strokeRate: 25, .distance: 450, .split: 120, .speed: 15, .power: 180],
                                       strokeCount: 120))
    }

    func testRowerIdleAndSkippedFields() {
        // A flywheel standing still: split 0 is no split and no speed. Average stroke rate
        // (1), average pace (2), average power (2), resistance (2), energy (5), heart rate 130.
        var value: [UInt8] = [0xda, 0x03, 0, 0, 0, 40]
        value += [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 3, 130]
        XCTAssertEqual(RowerData(value), RowerData(values: [.strokeRate: 0, .hr: 130], strokeCount: 0))
        XCTAssertNil(RowerData([0x00, 0x00, 50, 120]), "the stroke count is two bytes")
    }

    func testFootPodSpeedCadenceStrideAndDistance() {
        // flags 0x07: stride length, total distance, running. 3.5 m/s (896/256) = 12.6 km/h,
        // 170 a minute, 1.23 m strides, 4,000.0 m.
        let value: [UInt8] = [0x07, 0x80, 0x03, 170, 0x7b, 0x00, 0x40, 0x9c, 0x00, 0x00]
        let measurement = RSCMeasurement(value)
        XCTAssertEqual(measurement?.values[.speed] ?? 0, 12.6, accuracy: 1e-9)
        XCTAssertEqual(measurement?.values[.pace] ?? 0, 3_600 / 12.6, accuracy: 1e-9)
        XCTAssertEqual(measurement?.values[.cadence], 170)
        XCTAssertEqual(measurement?.values[.distance], 4_000)
        XCTAssertEqual(measurement?.strideLength, 1.23)
        XCTAssertEqual(measurement?.running, true)
    }

    func testFootPodCalibrationAndShortValues() {
        // Walking, no stride or distance: 1.5 m/s, 110 a minute; calibrated by 1.1.
        let value: [UInt8] = [0x02, 0x80, 0x01, 110, 0x10, 0x27, 0x00, 0x00]
        let calibrated = RSCMeasurement(value, calibration: 1.1)
        XCTAssertEqual(calibrated?.values[.distance] ?? 0, 1_100, accuracy: 1e-9)
        XCTAssertEqual(calibrated?.values[.speed] ?? 0, 1.5 * 3.6 * 1.1, accuracy: 1e-9)
        XCTAssertEqual(calibrated?.running, false)
        XCTAssertEqual(RSCMeasurement(value, calibration: 40)?.values[.distance], 1_000, "a slip of a factor is none")
        XCTAssertNil(RSCMeasurement([0x02, 0x80, 0x01, 110, 0x10, 0x27]), "distance is four bytes")
        XCTAssertNil(RSCMeasurement([0x00, 0x80, 0x01]))
    }

    func testRunnersQuantitiesInWords() {
        XCTAssertEqual(SensorQuantity.pace.words(245.4), "4:05/km")
        XCTAssertEqual(SensorQuantity.split.words(118), "1:58/500m")
        XCTAssertEqual(SensorQuantity.incline.words(2.5), "2.5 %")
        XCTAssertEqual(SensorQuantity.distance.words(399.6), "400 m")
        XCTAssertEqual(SensorQuantity.strokeRate.words(24.5), "25 spm")
        XCTAssertEqual(SensorQuantity.strokeRate.key, "stroke_rate")
    }
}
