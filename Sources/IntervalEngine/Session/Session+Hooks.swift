import WorkoutValues

/// Calling the routine's hooks, through `RoutineHooks` (the routine's `code`). A hook that
/// raises is reported as an `error` event with its traceback and disabled for the rest of
/// the run; the timer keeps going.
extension Session {
    func callHook(_ hook: RoutineReference?, _ name: String, with arguments: [HookArgument]) {
        guard let hook, !disabledHooks.contains(hook), state != .ready else { return }
        do {
            try routine.code.call(hook, named: name, with: arguments)
        } catch where error.interrupted {
            // Ctrl-C stopped the hook; the workout is about to end as asked.
            return
        } catch {
            disabledHooks.insert(hook)
            emit(.error(message: error.message, hook: name, traceback: error.traceback))
        }
    }

    /// Calls the hook the machine names, with the current segment as `seg`.
    func call(_ hook: SessionMachine.Hook) {
        switch hook {
        case .workoutStart: callHook(routine.hooks.onStart, "on_start", with: [.workout(routine)])
        case .finish:
            guard let summary else { return }
            callHook(routine.hooks.onFinish, "on_finish", with: [.summary(summary)])
        case .pause: callSegmentHook(routine.hooks.onPause, "on_pause")
        case .resume: callSegmentHook(routine.hooks.onResume, "on_resume")
        case .segmentsOwnStart: callSegmentHook(segment.onStart, "on_start")
        case .segmentStart: callSegmentHook(routine.hooks.onSegmentStart, "on_segment_start")
        case .segmentsOwnEnd: callSegmentHook(segment.onEnd, "on_end")
        case .segmentEnd: callSegmentHook(routine.hooks.onSegmentEnd, "on_segment_end")
        case .cue(let position):
            guard case .function(let function) = segment.cues[position].action else { return }
            callSegmentHook(function, "cue")
        case .tally(let name, let value): callTallyHook(name, value)
        case .lap(let split): callLapHook(split)
        }
    }

    /// `seg` as the hooks see it now.
    var segmentArgument: HookArgument {
        .segment(segment, count: segmentCount, elapsed: elapsedInSegment)
    }

    /// `on_tally(seg, name, value)`.
    func callTallyHook(_ name: String, _ value: Int) {
        guard routine.hooks.onTally != nil else { return }
        callHook(routine.hooks.onTally, "on_tally", with: [segmentArgument, .text(name), .integer(value)])
    }

    /// `on_lap(seg, split)`.
    func callLapHook(_ split: Double) {
        guard routine.hooks.onLap != nil else { return }
        callHook(routine.hooks.onLap, "on_lap", with: [segmentArgument, .number(split)])
    }

    /// A hook called with the current segment as `seg`.
    func callSegmentHook(_ hook: RoutineReference?, _ name: String) {
        guard hook != nil else { return }
        callHook(hook, name, with: [segmentArgument])
    }
}

extension Session: RoutineActions {
    package func ringBell() { giveRoutine(.bell("")) }
    package func flashBand() { giveRoutine(.flash("")) }
    package func notify(title: String, body: String?) { giveRoutine(.notify(Notification(title: title, body: body ?? ""))) }

    package func say(_ text: String, from function: String) throws(APIError) {
        let seconds = HeardLimits.speakingSeconds(text)
        if let waiting = hookSpeech.add(seconds, at: now, speed: scheduler.speed) {
            throw APIError("\(function): about \(Self.seconds(waiting)) s of the hooks' speech is waiting or being said, "
                           + "and this text takes about \(Self.seconds(seconds)) s; at most "
                           + "\(Self.seconds(HeardLimits.waitingSeconds)) s may wait at once")
        }
        giveRoutine(.say(text))
    }

    package func sound(_ sound: Sound, from function: String) throws(APIError) {
        if let waiting = hookSounds.add(sound.seconds, at: now, speed: scheduler.speed) {
            throw APIError("\(function): \(Self.seconds(waiting)) s of the hooks' sounds are waiting or playing, "
                           + "and this one lasts \(Self.seconds(sound.seconds)) s; at most "
                           + "\(Self.seconds(HeardLimits.waitingSeconds)) s may wait at once")
        }
        giveRoutine(.sound(sound))
    }

    private static func seconds(_ value: Double) -> String {
        Number.format(Number.rounded(value, places: 1))
    }

    package func unheardSound(_ text: String) { giveRoutine(.unheard(.sound, text: text)) }

    package func log(_ text: String) { emit(.log(text: text)) }
    package func control(_ command: SessionCommand) { apply(command, by: .hook) }
    package func tally(_ name: String) -> Int { tallyValue(name) }
    package func erg(_ watts: Int) { emit(.erg(watts: watts)) }

    package func record(_ score: Score) throws(APIError) {
        if !scores.contains(where: { $0.name == score.name }) && scores.count >= Score.mostNames {
            throw APIError("record: at most \(Score.mostNames) scores a session")
        }
        scores.record(score)
        emit(.score(score))
    }
}
