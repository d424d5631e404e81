import CLua
import IntervalEngine
import WorkoutValues

/// The Lua state as the session's `RoutineHooks`: each argument pushed as the table (or
/// value) the routine's API documents, each call under the hooks' limits.
extension LuaState: RoutineHooks {
    func call(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) {
        try call(function, what: name) { lua in lua.push(arguments) }
    }

    func test(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) -> Bool {
        try test(function, what: name) { lua in lua.push(arguments) }
    }

    /// Fills the global `sensor` table with the readings (nil for stale ones).
    func showSensors(_ readings: SensorReadings, zone: Int?) {
        lua_getglobal(L, "sensor")
        defer { stack.pop() }
        guard lua_type(L, -1) == LUA_TTABLE else { return }
        setSampleFields(readings, zone: zone)
    }

    func generator(for spec: GeneratorSpec) -> any SegmentGenerator {
        Generator(spec, lua: self)
    }

    func json(of value: RoutineReference) -> JSONValue {
        let guarded = StackGuard(L, "converting info to JSON")
        refs.push(value)
        defer {
            stack.pop()
            guarded.check()
        }
        return LuaJSON.value(stack, at: top)
    }

    var soundFiles: [SoundFile] { routineSoundFiles.names.compactMap { routineSoundFiles.decoded($0) } }

    var undeclaredSounds: [UndeclaredSound] { undeclared.all }

    var liveReferences: Int { refs.liveCount }

    func releaseAll() {
        refs.releaseAll()
    }

    /// Pushes each argument; how many there are.
    private func push(_ arguments: [HookArgument]) -> Int32 {
        for argument in arguments {
            switch argument {
            case .segment(let segment, let count, let elapsed): pushSegment(segment, count: count, elapsed: elapsed)
            case .workout(let routine): pushWorkout(routine)
            case .summary(let summary): pushSummary(summary)
            case .sample(let readings, let zone): pushSample(readings, zone: zone)
            case .text(let text): stack.push(text)
            case .integer(let value): stack.push(value)
            case .number(let value): stack.push(value)
            }
        }
        return Int32(arguments.count)
    }

    /// `seg`: index, count, name, kind, duration, start, round, rounds, block, info,
    /// elapsed, remaining. `info` is the segment's own table, the same on every call.
    private func pushSegment(_ segment: Segment, count: Int?, elapsed: Double) {
        let capped = segment.open.map { $0.cap != nil } ?? true
        // On every hook call: filled field by field (`LuaTable`), no value boxed.
        stack.pushTable(fields: 14) { table in
            table.set("index", segment.index)
            table.set("count", count)
            table.set("name", segment.name)
            table.set("kind", segment.kind)
            table.set("duration", segment.open?.expect ?? segment.duration)
            table.set("open", segment.open.map { _ in true })
            table.set("cap", segment.open?.cap)
            table.set("distance", segment.open?.distance)
            table.set("start", segment.start)
            table.set("round", segment.round)
            table.set("rounds", segment.rounds)
            table.set("block", segment.block)
            table.set("info", segment.info.map { LuaHeld(refs: refs, ref: $0) })
            table.set("elapsed", elapsed)
            table.set("remaining", capped ? segment.duration - elapsed : nil)
        }
    }

    /// `w` for `on_start`: name, description, segments, duration (both nil when it is
    /// open-ended), countdown.
    private func pushWorkout(_ routine: Routine) {
        let ends = !routine.timeline.isOpenEnded
        LuaFields([
            "name": routine.name,
            "description": routine.description,
            "segments": ends ? routine.timeline.count : nil,
            "duration": ends ? routine.timeline.duration : nil,
            "countdown": routine.countdown,
        ]).push(onto: stack)
    }

    /// `summary` for `on_finish`.
    private func pushSummary(_ summary: Summary) {
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
    }

    /// `s` of `on_sample` and `until_sample`: each `SensorQuantity` by its key, and hr_zone.
    private func pushSample(_ readings: SensorReadings, zone: Int?) {
        lua_createtable(L, 0, Int32(SensorQuantity.allCases.count + 1))
        setSampleFields(readings, zone: zone)
    }

    /// Sets the sample's fields on the table on top of the stack (nil where absent or stale).
    private func setSampleFields(_ readings: SensorReadings, zone: Int?) {
        // A whole value reaches Lua as an integer (`LuaStack.push`), as a heart rate always is.
        var fields = LuaFields(SensorQuantity.allCases.map { (key: $0.key, value: readings[$0]?.current) })
        fields.append("hr_zone", zone)
        fields.set(on: stack)
    }
}
