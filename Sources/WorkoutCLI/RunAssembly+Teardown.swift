import Foundation
import IntervalEngine
import LuaBridge
import WorkoutValues

/// Taking a run down once its session has ended, in the order that loses nothing: the
/// last event lines and answers go out, the alert programs and the sound finish (the
/// finish chime is still ringing), the music lowered under it comes back (at once after
/// a signal), then the screen closes and what it showed that must
/// outlive it is printed below the summary.
extension RunAssembly {
    func tearDown() {
        sensors?.stop()
        music?.cues.stop()
        // After a signal the music comes back at once; else once the finish sound has rung.
        if signal.value != nil { music?.players.finish(within: 1) }
        awake?.release()
        // A reader that is slow gets the rest; one that never reads is given up on when a
        // signal asks the process to stop, or a quarter second after such a signal, so
        // that a reader that reads still gets the last lines (`workout_end`).
        if let stream {
            let stopped = signal.value != nil
            let giveUpAt = DispatchTime.now() + 0.25
            stream.drain { stopped ? DispatchTime.now() >= giveUpAt : LuaInterrupt.isRequested }
        }
        server?.finish(within: 1)
        publisher?.finish()
        lineKeys?.stop()
        alerts.waitForNotifications(timeout: 2)
        spoken?.stop()
        alerts.stop()
        // The finish chime is still ringing; after a signal, nothing waits.
        sound?.close(timeout: signal.value == nil ? 3 : 0)
        printSoundLine()
        if signal.value == nil { music?.players.finish(within: 1) }
        display?.close()
    }

    /// What the closed screen no longer shows, and the exit status: 128 + the signal
    /// that stopped the run, 1 after a hook's error, else 0.
    func report() -> Int32 {
        if let display {
            // Below the summary, on the normal screen: what on_finish printed, then the
            // run's warnings and errors.
            if let summary = session.summary {
                Output.line(SummaryText.line(routine: routine.name.visible, summary))
            }
            for line in display.finishLines {
                Output.line(line)
            }
            for warning in display.warnings {
                Output.error(warning)
            }
            for error in display.errors {
                Output.error("workout: \(error)")
            }
        }
        // A run of the calendar in a terminal, not stopped by a signal: how hard was it?
        if request.plannedEvent != nil, display != nil, signal.value == nil, Terminal.hasKeyboard,
           let history, history.entry != nil {
            let (rpe, feel) = RatingPrompt.ask()
            history.rate(rpe: rpe, feel: feel)
        }
        if let failure = history?.failure {
            Output.error("workout: \(failure)")
        }
        reportActivity()
        sendToCalendar()
        if let dropped = stream?.dropped, dropped > 0 {
            Output.error("workout: the reader of standard output fell behind; \(dropped) event line\(dropped == 1 ? " was" : "s were") not written")
        }
        if let number = signal.value ?? SignalTraps.received { return 128 + number }
        return errors.value > 0 ? 1 : 0
    }
}
