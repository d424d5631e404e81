import Foundation

/// Runs a program to completion off the main thread: an argument vector (no shell),
/// no input, standard error discarded, standard output captured. It is always reaped,
/// and one that outlives `timeout` is killed so a hung helper cannot pile up.
enum ChildProcess {
    enum Result: Equatable {
        case exited(Int32, output: String)
        case timedOut
        case failedToStart
    }

    static func run(_ path: String, _ arguments: [String], timeout: Double) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return .failedToStart
        }
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            return .timedOut
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return .exited(process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
