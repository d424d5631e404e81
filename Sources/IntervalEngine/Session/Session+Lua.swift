import CLua

/// Calling the routine's hooks. A hook that raises is reported as an `error` event with
/// Lua's traceback and disabled for the rest of the run; the timer keeps going.
extension Session {
    func callHook(_ hook: LuaRef?, _ name: String, pushArguments: @escaping (LuaState) -> Int32) {
        guard let hook, !disabledHooks.contains(hook), state != .ready else { return }
        do {
            try routine.lua.call(hook, what: name, pushArguments: pushArguments)
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

    /// `on_tally(seg, name, value)`.
    func callTallyHook(_ name: String, _ value: Int) {
        guard routine.hooks.onTally != nil else { return }
        let (segment, count, elapsed) = (segment, segmentCount, elapsedInSegment)
        callHook(routine.hooks.onTally, "on_tally") { lua in
            _ = lua.pushSegment(segment, count: count, elapsed: elapsed)
            lua.stack.push(name)
            lua.stack.push(value)
            return 3
        }
    }

    /// `on_lap(seg, split)`.
    func callLapHook(_ split: Double) {
        guard routine.hooks.onLap != nil else { return }
        let (segment, count, elapsed) = (segment, segmentCount, elapsedInSegment)
        callHook(routine.hooks.onLap, "on_lap") { lua in
            _ = lua.pushSegment(segment, count: count, elapsed: elapsed)
            lua.stack.push(split)
            return 2
        }
    }

    /// A hook called with the current segment as `seg`.
    func callSegmentHook(_ hook: LuaRef?, _ name: String) {
        guard hook != nil else { return }
        let elapsed = elapsedInSegment
        let segment = segment
        let count = segmentCount
        callHook(hook, name) { lua in
            lua.pushSegment(segment, count: count, elapsed: elapsed)
        }
    }
}

extension Session: RoutineActions {
    func ringBell() { giveRoutine(.bell("")) }
    func flashBand() { giveRoutine(.flash("")) }
    func notify(title: String, body: String?) { giveRoutine(.notify(Notification(title: title, body: body ?? ""))) }

    func say(_ text: String, from function: String) throws(APIError) {
        let seconds = HeardLimits.speakingSeconds(text)
        if let waiting = hookSpeech.add(seconds, at: now, speed: scheduler.speed) {
            throw APIError("\(function): about \(Self.seconds(waiting)) s of the hooks' speech is waiting or being said, "
                           + "and this text takes about \(Self.seconds(seconds)) s; at most "
                           + "\(Self.seconds(HeardLimits.waitingSeconds)) s may wait at once")
        }
        giveRoutine(.say(text))
    }

    func sound(_ sound: Sound, from function: String) throws(APIError) {
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

    func unheardSound(_ text: String) { giveRoutine(.unheard(.sound, text: text)) }

    func log(_ text: String) { emit(.log(text: text)) }
    func control(_ command: SessionCommand) { apply(command, by: .hook) }
    func tally(_ name: String) -> Int { tallyValue(name) }
    func erg(_ watts: Int) { emit(.erg(watts: watts)) }

    func record(_ score: Score) throws(APIError) {
        if !scores.contains(where: { $0.name == score.name }) && scores.count >= Score.mostNames {
            throw APIError("record: at most \(Score.mostNames) scores a session")
        }
        scores.record(score)
        emit(.score(score))
    }
}

/// The tables hooks receive.
extension LuaState {
    /// `seg`: index, count, name, kind, duration, start, round, rounds, block, info,
    /// elapsed, remaining. `info` is the segment's own table, the same on every call.
    func pushSegment(_ segment: Segment, count: Int?, elapsed: Double) -> Int32 {
        let capped = segment.open.map { $0.cap != nil } ?? true
        LuaFields([
            "index": segment.index,
            "count": count,
            "name": segment.name,
            "kind": segment.kind,
            "duration": segment.open?.expect ?? segment.duration,
            "open": segment.open.map { _ in true },
            "cap": segment.open?.cap,
            "start": segment.start,
            "round": segment.round,
            "rounds": segment.rounds,
            "block": segment.block,
            "info": segment.info.map { LuaHeld(refs: refs, ref: $0) },
            "elapsed": elapsed,
            "remaining": capped ? segment.duration - elapsed : nil,
        ]).push(onto: stack)
        return 1
    }

    /// `w` for `on_start`: name, description, segments, duration (both nil when it is
    /// open-ended), countdown.
    func pushWorkout(_ routine: Routine) -> Int32 {
        let ends = !routine.timeline.isOpenEnded
        LuaFields([
            "name": routine.name,
            "description": routine.description,
            "segments": ends ? routine.timeline.count : nil,
            "duration": ends ? routine.timeline.duration : nil,
            "countdown": routine.countdown,
        ]).push(onto: stack)
        return 1
    }

    /// `summary` for `on_finish`.
    func pushSummary(_ summary: Summary) -> Int32 {
        LuaFields([
            "completed": summary.completed,
            "segments_done": summary.segmentsDone,
            "segments_skipped": summary.segmentsSkipped,
            "segments": summary.segments,
            "elapsed": summary.elapsed,
            "active": summary.active,
            "work_seconds": summary.workSeconds,
            "speed": summary.speed,
            "scores": LuaFields(summary.scores.map { ($0.name, $0.value) }),
        ]).push(onto: stack)
        return 1
    }
}
