import ArgumentParser
import Foundation
import IntervalEngine
import SoundPlayer
import WorkoutValues

/// `workout sound-check [ROUTINE]`: plays each sound once, saying its name as it plays, so
/// a user can set the volume (and learn the sounds) before training; with a routine, also
/// each sound file it plays (its own and the user's defaults), decoded as a run would.
struct SoundCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sound-check",
        abstract: "Play each sound once, with its name, to set the volume before training.",
        discussion: "With a routine, also play the sound files it names. "
            + "Exit status: 0 played, 1 no sound server answered or the routine does not load, 64 usage error.")

    @Option(help: "The sounds' volume, 0 to 100 (as for run).")
    var volume = PlainWhole(80)

    @Argument(help: "A routine whose sound files to play as well: a file, or a name in your or the bundled programs.",
              completion: .routine)
    var routine: String?

    /// Seconds between the end of one sound file and the next.
    static let gap = 0.6

    /// Seconds from one sound to the next: the longest (the finish chime) fits with room.
    static let spacing = 1.6

    func validate() throws {
        try Self.validate(volume: volume.value)
    }

    /// `--volume`, here and for `run`.
    static func validate(volume: Int) throws {
        guard (0...100).contains(volume) else {
            throw ValidationError("--volume must be a whole number from 0 to 100, got \(volume)")
        }
    }

    func run() throws {
        // The routine first: a file that cannot be played is said before any sound.
        let files = try routine.map { try RoutineLookup.loadOrFail($0, sounds: true).soundFiles } ?? []
        let output: PulseOutput
        switch PulseOutput.connect(volume: Double(volume.value) / 100, warn: { Output.error("workout: \($0)") }) {
        case .success(let connected):
            output = connected
        case .failure(let failure):
            Output.error("workout: sound-check: \(failure.reason)")
            throw ExitCode(1)
        }
        let sounds = Sound.builtIn.map { ($0, Sound.purposes[$0.name] ?? "") }
            + files.map { (Sound(file: $0), "a sound file of \(routine ?? ""), \(Number.format(Number.rounded($0.seconds, places: 1))) s") }
        var deadlines: [UInt64] = []
        var next = Clocks.system.monotonic() + 300_000_000
        for (sound, _) in sounds {
            deadlines.append(next)
            // The built-in sounds fit the spacing; a file may be longer.
            next += UInt64(max(Self.spacing, sound.file == nil ? 0 : sound.seconds + Self.gap) * 1e9)
        }
        for (index, (sound, _)) in sounds.enumerated() {
            output.schedule(UInt64(index), sound, at: deadlines[index])
        }
        for (index, (sound, purpose)) in sounds.enumerated() {
            Self.sleep(until: deadlines[index])
            guard output.isWorking else { break }
            let name = sound.name.visible
            Output.line(Padding.column(name, 8) + (name.count < 8 ? "" : "  ") + purpose.visible)
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
