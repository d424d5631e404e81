import Foundation

/// Waits for something another process or thread does: polls `condition` every
/// `interval` until it holds or `timeout` seconds pass, and says whether it held. The one
/// way tests wait on a signal (a line on screen, a file's complete record, a recorder's
/// first bytes) instead of sleeping for a fixed time; the timeout is generous, for a
/// loaded machine, and costs nothing when the condition comes early.
@discardableResult
func eventually(timeout: Double = 10, every interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let giveUp = Date().addingTimeInterval(timeout)
    while Date() < giveUp {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}
