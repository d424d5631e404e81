import ArgumentParser
import IntervalEngine
import Music

/// How the workout is seen and heard, the same for `run` and `follow` (a follower hears
/// the coach's workout as a run of its own would be heard): the output, the sounds and
/// bell, the voice, notifications, music under the cues, the display's band and clock,
/// and sleep. One declaration, so both commands' `--help` say the same.
struct CueOptions: ParsableArguments {
    @Flag(help: "Print one JSON object per event, one per line.")
    var json = false

    /// Nil: on where no sound plays, but off in a dry run.
    @Flag(inversion: .prefixedNo,
          help: "The terminal bell at boundaries and for the countdown (default: where no sound plays; off in run --dry-run).")
    var bell: Bool?

    @Flag(help: "No sounds (default: on where a sound server answers; the terminal bell stands in).")
    var noSound = false

    @Option(help: "The sounds' volume, 0 to 100.")
    var volume = PlainWhole(RunRequest.standard.volume)

    @Flag(help: "No flash of the display's band at boundaries and for the countdown.")
    var noFlash = false

    @Flag(help: "The display without the band of the kind's colour: colour only on the kind's label and digits.")
    var calm = false

    @Flag(inversion: .prefixedNo,
          help: "Desktop notifications at each segment (default: on when a session bus and notify-send exist).")
    var notify: Bool?

    @Flag(help: "Speak each segment's name, the countdown and text cues (spd-say or espeak-ng).")
    var voice = false

    @Option(help: ArgumentHelp("Music players (MPRIS) that are playing while a cue is heard: lowered to a third (duck), paused (pause), or left alone (off).",
                               valueName: "duck|pause|off"))
    var music = RunRequest.standard.music

    @Flag(help: "Show elapsed time in the segment instead of time remaining.")
    var countUp = false

    @Flag(help: "Show tenths of a second in each segment's last 3 seconds (0:02.5), on the display and on run --serve's page.")
    var tenths = false

    /// Off by default: a laptop that suspends mid-workout is what it guards against.
    @Flag(help: "Let the computer sleep during the workout (by default workout asks logind to keep it awake).")
    var allowSleep = false

    /// These options' part of a request.
    func apply(to request: inout RunRequest) {
        request.json = json
        request.bell = bell
        request.noSound = noSound
        request.volume = volume.value
        request.noFlash = noFlash
        request.calm = calm
        request.notify = notify
        request.voice = voice
        request.music = music
        request.countUp = countUp
        request.tenths = tenths
        request.allowSleep = allowSleep
    }
}
