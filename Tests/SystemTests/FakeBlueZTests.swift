import Foundation
import XCTest

/// The fake BlueZ is held to BlueZ: Debian's own client, bluetoothctl, sees its adapter
/// and devices as it would a real bluetoothd's.
final class FakeBlueZTests: XCTestCase {
    func testBluetoothctlListsTheFakeAdapterAndDevices() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bluetoothctl") else {
            throw Missing(program: "bluetoothctl (Debian's bluez)")
        }
        let outcome = try FakeBlueZ.run(devices: [FakeBlueZ.strap, FakeBlueZ.trainer], """
            timeout 10 bluetoothctl list >> "$DIR/report"
            timeout 10 bluetoothctl devices >> "$DIR/report"
            timeout 10 bluetoothctl --timeout 1 scan on > /dev/null
            timeout 10 bluetoothctl devices >> "$DIR/report"
            timeout 10 bluetoothctl info C0:FF:EE:00:00:02 | grep -E 'Name|Paired|UUID' | tr -s ' \\t' ' ' >> "$DIR/report"
            """)
        XCTAssertEqual(outcome.report, [
            "Controller 00:1A:7D:DA:71:13 fake-bluez [default]",
            "Device C0:FF:EE:00:00:01 Strap",
            "Device C0:FF:EE:00:00:01 Strap",
            "Device C0:FF:EE:00:00:02 Trainer",
            " Name: Trainer",
            " Paired: yes",
            " UUID: Fitness Machine (00001826-0000-1000-8000-00805f9b34fb)",
            " UUID: Cycling Power (00001818-0000-1000-8000-00805f9b34fb)",
        ])
        XCTAssertEqual(outcome.log, ["discovery start"])
    }
}
