import ArgumentParser
import Foundation
import IntervalEngine
import SoundPlayer

/// `workout sound-check`: plays each sound once, saying its name as it plays, so a user
/// can set the volume (and learn the sounds) before training.
struct SoundCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sound-check",
        abstract: "Play each sound once, with its name, to set the volume before training.",
        discussion: "Exit status: 0 played, 1 no sound server answered, 64 usage error.")

    @Option(help: "The sounds' volume, 0 to 100 (as for run).")
    var volume = 80

    /// Seconds from one sound to the next: the longest (the finish chime) fits with room.
    static let spacing = 1.6

    func validate() throws {
        try Self.validate(volume: volume)
    }

    /// `--volume`, here and for `run`.
    static func validate(volume: Int) throws {
        guard (0...100).contains(volume) else {
            throw ValidationError("--volume must be a whole number from 0 to 100, got \(volume)")
        }
    }

    func run() throws {
        let output: PulseOutput
        switch PulseOutput.connect(volume: Double(volume) / 100, warn: { Output.error("workout: \($0)") }) {
        case .success(let connected):
            output = connected
        case .failure(let failure):
            Output.error("workout: sound-check: \(failure.reason)")
            throw ExitCode(1)
        }
        let first = Clocks.system.monotonic() + 300_000_000
        let deadlines = Sound.builtIn.indices.map { first + UInt64(Double($0) * Self.spacing * 1e9) }
        for (index, sound) in Sound.builtIn.enumerated() {
            output.schedule(UInt64(index), sound, at: deadlines[index])
        }
        for (index, sound) in Sound.builtIn.enumerated() {
            Self.sleep(until: deadlines[index])
            guard output.isWorking else { break }
            Output.line(Padding.column(sound.name, 8) + (Sound.purposes[sound.name] ?? ""))
        }
        let working = output.isWorking
        output.close(timeout: 3)
        if !working { throw ExitCode(1) }
    }

    private static func sleep(until deadline: UInt64) {
        let now = Clocks.system.monotonic()
        guard deadline > now else { return }
        var wait = timespec(tv_sec: Int(deadline - now) / 1_000_000_000, tv_nsec: Int(deadline - now) % 1_000_000_000)
        var left = timespec()
        while nanosleep(&wait, &left) != 0 { wait = left }
    }
}
