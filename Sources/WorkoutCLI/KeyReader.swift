import Dispatch
import Display
import Foundation

/// Key presses from standard input as actions, read by a `DispatchSource` on the main
/// queue: the source wakes a sleeping run loop, so a key acts at once.
@MainActor
final class KeyReader {
    private let source: DispatchSourceRead

    init(_ handle: @escaping @MainActor @Sendable (KeyAction) -> Void) {
        source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        let source = source
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            if count > 0 {
                for action in KeyParser.actions(in: Array(bytes[..<count])) {
                    MainActor.assumeIsolated { handle(action) }
                }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                // End of input: without this the source would fire forever.
                source.cancel()
            }
        }
        source.resume()
    }

    func stop() {
        source.cancel()
    }
}
