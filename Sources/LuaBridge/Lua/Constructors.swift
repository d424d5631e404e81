import CLua
import IntervalEngine
import WorkoutValues

/// The routine constructors: `workout{}`, `warmup`/`work`/`rest`/`cooldown`/`prep`,
/// `segment{}` and `rounds`. Each checks its arguments where it is called, so an error
/// names the routine's own line, and records that line on what it builds.
enum Constructors {
    static let warmup: workout_SwiftFunction = { L in shortForm(L, kind: "warmup") }
    static let work: workout_SwiftFunction = { L in shortForm(L, kind: "work") }
    static let rest: workout_SwiftFunction = { L in shortForm(L, kind: "rest") }
    static let cooldown: workout_SwiftFunction = { L in shortForm(L, kind: "cooldown") }
    static let prep: workout_SwiftFunction = { L in shortForm(L, kind: "prep") }

    /// `work(d, name?, info?)`; a table as the second argument is the info. `work{ … }`
    /// is the full form of `segment{}` with its kind set: `work{ open = true, cap = "3m" }`.
    private static func shortForm(_ L: OpaquePointer?, kind: String) -> Int32 {
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: kind)
            if stack.type(at: 1) == LUA_TTABLE {
                try args.noArguments(after: 1)
                return args.push(.segment(try segmentSpec(args, at: 1, kind: kind)))
            }
            let duration = try args.duration(at: 1)
            var name = Routine.defaultName(kind)
            var info: LuaRef?
            var last: Int32 = 2
            if stack.type(at: 2) == LUA_TTABLE {
                info = try args.payload(at: 2)
            } else {
                if !args.isAbsent(2) { name = try args.text(at: 2, what: "name") }
                if !args.isAbsent(3) { info = try args.payload(at: 3) }
                last = 3
            }
            try args.noArguments(after: last)
            let spec = SegmentSpec(kind: kind, name: name, duration: duration, info: info, cues: [],
                                   onStart: nil, onEnd: nil, line: stack.callerLine())
            return args.push(.segment(spec))
        }
    }

    static let segmentFields = RoutineTypes.segmentSpec.fieldNames

    /// `segment{ kind=, duration=, name=, info=, cues=, on_start=, on_end=, open=, cap=, expect= }`.
    static let segment: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "segment")
            try args.table(at: 1, what: "its argument")
            try args.noArguments(after: 1)
            return args.push(.segment(try segmentSpec(args, at: 1, kind: nil)))
        }
    }

    /// `for_time{ cap=, name=, … }`: an open work segment that records how long it took.
    static let forTime: workout_SwiftFunction = { L in scored(L, "for_time", .forTime, name: "For time") }

    /// `amrap{ minutes=, name=, … }`: a work segment that records the rounds counted.
    static let amrap: workout_SwiftFunction = { L in scored(L, "amrap", .amrap, name: "AMRAP") }

    /// A work segment that records its own score when it ends, from the table at 1.
    private static func scored(_ L: OpaquePointer?, _ function: String, _ score: SegmentScore, name: String) -> Int32 {
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: function)
            try args.table(at: 1, what: "its argument")
            try args.noArguments(after: 1)
            var spec = try segmentSpec(args, at: 1, kind: "work", shape: score == .forTime ? .forTime : .amrap)
            if spec.name == Routine.defaultName("work") { spec.name = name }
            spec.score = score
            return args.push(.segment(spec))
        }
    }

    /// Which table a segment's full form is read from: they share their fields.
    enum Shape {
        case segment, forTime, amrap

        var fields: [String] {
            switch self {
            case .segment: RoutineTypes.segmentSpec.fieldNames
            case .forTime: RoutineTypes.forTimeSpec.fieldNames
            case .amrap: RoutineTypes.amrapSpec.fieldNames
            }
        }
    }

    /// The full form of a segment, from the table at `index`; `kind` is set by a short
    /// form's name (`work{ … }`) and may not be given again.
    static func segmentSpec(_ args: Arguments, at index: Int32, kind preset: String?,
                            shape: Shape = .segment) throws(APIError) -> SegmentSpec {
        let stack = args.stack
        let function = args.function
        var spec = SegmentSpec(kind: preset ?? "", name: "", duration: 0, info: nil, cues: [],
                               onStart: nil, onEnd: nil, line: stack.callerLine())
        var hasCues = false
        var open = shape == .forTime
        var cap: Double?
        var expect: Double?
        var until: SampleCondition?
        var distance: Double?
        var pace: PaceText?
        let known = shape.fields.filter { preset == nil || $0 != "kind" }
        try args.fields(of: index, known: known) { key, value throws(APIError) in
            switch key {
            case "kind": spec.kind = try args.text(at: value, what: "kind")
            case "duration": spec.duration = try args.duration(at: value)
            case "minutes":
                guard let minutes = stack.number(at: value), minutes > 0, minutes * 60 <= Duration.maximum else {
                    throw args.fail("minutes", "a number of minutes above 0, at most a day", at: value)
                }
                spec.duration = minutes * 60
            case "name": spec.name = try args.text(at: value, what: "name")
            case "info":
                spec.info = try args.payload(at: value)
                pace = targetPace(stack, infoAt: value)
            case "on_start": spec.onStart = try args.function(at: value, what: "on_start")
            case "on_end": spec.onEnd = try args.function(at: value, what: "on_end")
            case "open":
                guard let flag = stack.boolean(at: value) else { throw args.fail("open", "true or false", at: value) }
                open = flag
            case "cap": cap = try args.duration(at: value, what: "cap")
            case "expect": expect = try args.duration(at: value, what: "expect")
            case "until_hr_below":
                guard let bpm = stack.number(at: value), bpm >= 30, bpm <= 250 else {
                    throw args.fail("until_hr_below", "a heart rate from 30 to 250 beats per minute", at: value)
                }
                until = .hrBelow(Int(bpm.rounded()))
                open = true
            case "distance":
                let metres: Double? = if let text = stack.string(at: value), stack.type(at: value) == LUA_TSTRING {
                    DistanceText.metres(text)
                } else {
                    stack.number(at: value).flatMap(DistanceText.checked)
                }
                guard let metres else { throw args.fail("distance", DistanceText.expected, at: value) }
                distance = metres
                open = true
            case "hr":
                spec.steer = try heartRateBand(args, at: value)
            case "until_sample":
                until = .function(try args.function(at: value, what: "until_sample"))
                open = true
            default: hasCues = true  // read once the duration is known
            }
        }
        guard !spec.kind.isEmpty else { throw APIError("\(function): kind is missing (e.g. kind = \"work\")") }
        if open {
            guard spec.duration == 0 else {
                throw APIError("\(function): an open segment has no duration: it ends when it is done "
                               + "(cap = … ends it at the latest, expect = … is what plan counts)")
            }
            // A distance step is expected to take its metres at its pace, else at an
            // easy 6:00/km, and never longer than its cap.
            let atPace = distance.map { metres in min(cap ?? .infinity, DistanceText.expectedSeconds(metres, pace: pace)) }
            let end = OpenEnd(cap: cap, expect: expect ?? atPace, distance: distance)
            spec.open = end
            spec.until = until
            spec.duration = end.expect
        } else {
            guard cap == nil, expect == nil else {
                throw APIError("\(function): cap and expect go with open = true")
            }
            guard spec.duration > 0 else {
                throw APIError(shape == .amrap ? "amrap: minutes is missing (e.g. minutes = 12)"
                               : "\(function): duration is missing (e.g. duration = 30, or open = true)")
            }
        }
        if spec.name.isEmpty { spec.name = Routine.defaultName(spec.kind) }
        if hasCues {
            stack.rawField(index, "cues")
            defer { stack.pop() }
            // An open segment's cues count from its start, or back from its cap.
            let length = spec.open.map { $0.cap ?? Duration.maximum } ?? spec.duration
            spec.cues = try cues(args, at: stack.top, duration: length)
            if let open = spec.open, open.cap == nil,
               spec.cues.contains(where: { if case .fromStart = $0.moment { false } else { true } }) {
                throw APIError("\(function): an open segment without a cap has no end to count back from: "
                               + "its cues count from its start ([90] = …)")
            }
        }
        return spec
    }

    /// `hr = { 135, 145 }`: a band of beats a minute, 40 to 220, the low below the high.
    private static func heartRateBand(_ args: Arguments, at index: Int32) throws(APIError) -> ClosedRange<Double> {
        let stack = args.stack
        let expected = "a band of heart rates such as { 135, 145 } (beats a minute, 40 to 220, the low first)"
        guard stack.type(at: index) == LUA_TTABLE else { throw args.fail("hr", expected, at: index) }
        let table = lua_absindex(stack.L, index)
        lua_rawgeti(stack.L, table, 1)
        let low = stack.number(at: -1)
        stack.pop()
        lua_rawgeti(stack.L, table, 2)
        let high = stack.number(at: -1)
        stack.pop()
        guard let low, let high, low >= 40, high <= 220, low < high else { throw args.fail("hr", expected, at: index) }
        return low...high
    }

    /// The `pace` of the info table at `index`, when it is a pace as text (`"4:00/km"`).
    private static func targetPace(_ stack: LuaStack, infoAt index: Int32) -> PaceText? {
        guard stack.type(at: index) == LUA_TTABLE else { return nil }
        stack.rawField(index, "pace")
        defer { stack.pop() }
        return stack.type(at: -1) == LUA_TSTRING ? stack.string(at: -1).flatMap(PaceText.init) : nil
    }

    /// `cues = { [10] = "halfway there", [-5] = fn, half = "half" }`, sorted by when they fire.
    private static func cues(_ args: Arguments, at index: Int32, duration: Double) throws(APIError) -> [Cue] {
        let stack = args.stack
        try args.table(at: index, what: "cues")
        var cues: [Cue] = []
        var failure: APIError?
        stack.forEachPair(index) {
            guard failure == nil else { return }
            do throws(APIError) {
                let moment: Cue.Moment
                if stack.string(at: -2) == "half" {
                    moment = .half
                } else if let offset = stack.number(at: -2), offset.isFinite {
                    moment = offset < 0 ? .beforeEnd(-offset) : .fromStart(offset)
                } else {
                    throw args.fail("a cue's key", "an offset in seconds or \"half\"", at: -2)
                }
                let label = stack.describe(at: -2)
                let action: Cue.Action
                if let text = stack.string(at: -1) {
                    action = .text(text)
                } else if stack.type(at: -1) == LUA_TFUNCTION {
                    action = .function(args.state.refs.make(at: -1, on: stack))
                } else {
                    throw args.fail("the cue at \(label)", "a string or a function", at: -1)
                }
                let cue = Cue(moment: moment, action: action)
                guard cue.offset(in: duration) != nil else {
                    throw APIError("\(args.function): the cue at \(label) is outside the segment (\(Number.format(duration)) s long)")
                }
                cues.append(cue)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return cues.sorted { $0.offset(in: duration)! < $1.offset(in: duration)! }
    }

    static let roundsOptions = RoutineTypes.roundsOptions.fieldNames

    /// `rounds` inside `rounds` this many levels at most: the timeline is unrolled
    /// recursively, and a routine that nests blocks in a loop must not exhaust the stack.
    static let maximumDepth = 100

    /// `rounds(n, { steps... }, { name=, rest_between=, skip_last_rest= }?)`.
    static let rounds: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "rounds")
            guard let count = stack.integer(at: 1), count >= 1 else {
                throw args.fail("count", "a positive integer", at: 1)
            }
            guard count <= Routine.maximumSegments else {
                throw APIError("rounds: count must be at most \(Routine.maximumSegments), got \(count)")
            }
            guard stack.type(at: 2) == LUA_TTABLE else {
                throw args.fail("steps", "a list of steps such as { work(20), rest(10) }", at: 2)
            }
            var items: [Int: Step] = [:]
            try args.fields(of: 2, known: [], what: "steps", field: { _, _ throws(APIError) in }) {
                position, value throws(APIError) in
                items[position] = try args.step(at: value, what: "step \(position)")
            }
            guard !items.isEmpty else { throw APIError("rounds: steps must hold at least one step, got an empty table") }
            var spec = RoundsSpec(count: count, steps: try args.ordered(items, what: "step"), name: nil,
                                  restBetween: nil, skipLastRest: false, line: stack.callerLine())
            if !args.isAbsent(3) {
                try args.table(at: 3, what: "options")
                try args.fields(of: 3, known: roundsOptions) { key, value throws(APIError) in
                    switch key {
                    case "name": spec.name = try args.text(at: value, what: "name")
                    case "rest_between": spec.restBetween = try args.duration(at: value, what: "rest_between")
                    default:
                        guard let flag = stack.boolean(at: value) else {
                            throw args.fail("skip_last_rest", "true or false", at: value)
                        }
                        spec.skipLastRest = flag
                    }
                }
            }
            try args.noArguments(after: 3)
            spec.depth = 1 + spec.steps.map(\.depth).max()!
            guard spec.depth <= maximumDepth else {
                throw APIError("rounds: blocks may nest at most \(maximumDepth) deep, got \(spec.depth)")
            }
            let inner = segmentCount(spec.steps) + (spec.restBetween == nil ? 0 : 1)
            let (product, overflow) = inner.multipliedReportingOverflow(by: spec.count)
            spec.segmentCount = overflow ? Routine.maximumSegments + 1 : min(product, Routine.maximumSegments + 1)
            return args.push(.rounds(spec))
        }
    }

    /// `generate(fn)`: an open-ended step. `fn` runs later, in a coroutine, as the workout
    /// reaches it (see `Generator`); here it is only checked and kept.
    static let generate: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "generate")
            guard stack.type(at: 1) == LUA_TFUNCTION else {
                throw args.fail("its argument", "a function that yields steps: generate(function() coroutine.yield(work(20)) end)", at: 1)
            }
            try args.noArguments(after: 1)
            let spec = GeneratorSpec(function: state.refs.make(at: 1, on: stack), line: stack.callerLine())
            return args.push(.generate(spec))
        }
    }

    static let workoutFields = RoutineTypes.workoutSpec.fieldNames

    /// `workout{ name=, description=, countdown=, steps..., on_start=, … }`.
    static let workout: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            let args = Arguments(stack: stack, state: state, function: "workout")
            guard stack.type(at: 1) == LUA_TTABLE else {
                throw args.fail("its argument", "a table: workout { name = \"…\", work(30) }", at: 1)
            }
            try args.noArguments(after: 1)
            var spec = WorkoutSpec(name: "", description: nil, countdown: Routine.defaultCountdown, steps: [],
                                   hooks: WorkoutHooks(), line: stack.callerLine())
            spec.sounds = state.defaultSounds
            var items: [Int: Step] = [:]
            try args.fields(of: 1, known: workoutFields, field: { key, value throws(APIError) in
                switch key {
                case "name": spec.name = try args.text(at: value, what: "name")
                case "description":
                    guard let text = stack.string(at: value) else { throw args.fail("description", "a string", at: value) }
                    try args.visible(String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\n" })),
                                     what: "description", at: value)
                    spec.description = text
                case "countdown":
                    guard let seconds = stack.integer(at: value), seconds >= 0, seconds <= 60 else {
                        throw args.fail("countdown", "a whole number of seconds from 0 to 60", at: value)
                    }
                    spec.countdown = Double(seconds)
                case "sounds": spec.sounds = try args.soundScheme(at: value)
                case "sound_files": try args.soundFileList(at: value)
                case "on_start": spec.hooks.onStart = try args.function(at: value, what: key)
                case "on_segment_start": spec.hooks.onSegmentStart = try args.function(at: value, what: key)
                case "on_segment_end": spec.hooks.onSegmentEnd = try args.function(at: value, what: key)
                case "on_pause": spec.hooks.onPause = try args.function(at: value, what: key)
                case "on_resume": spec.hooks.onResume = try args.function(at: value, what: key)
                case "on_tally": spec.hooks.onTally = try args.function(at: value, what: key)
                case "on_lap": spec.hooks.onLap = try args.function(at: value, what: key)
                case "on_sample": spec.hooks.onSample = try args.function(at: value, what: key)
                default: spec.hooks.onFinish = try args.function(at: value, what: key)
                }
            }) { position, value throws(APIError) in
                items[position] = try args.step(at: value, what: "step \(position)")
            }
            guard !spec.name.isEmpty else { throw APIError("workout: name is missing (e.g. name = \"HIIT 20\")") }
            spec.steps = try args.ordered(items, what: "step")
            guard !spec.steps.isEmpty else {
                throw APIError("workout: has no steps (add some, e.g. work(30), rest(10))")
            }
            let total = segmentCount(spec.steps)
            guard total <= Routine.maximumSegments else {
                throw APIError("workout: unrolls to more than \(Routine.maximumSegments) segments")
            }
            state.builder.workouts.append(spec)
            state.charge(256 + spec.name.utf8.count + (spec.description?.utf8.count ?? 0) + spec.steps.count * 16)
            let raw = lua_newuserdatauv(L, MemoryLayout<Int>.size, 0)!
            raw.storeBytes(of: state.builder.workouts.count - 1, as: Int.self)
            luaL_setmetatable(L, RoutineAPI.routineMetatable)
            return 1
        }
    }

    /// How many segments steps unroll to, saturating just above the maximum.
    static func segmentCount(_ steps: [Step]) -> Int {
        var total = 0
        for step in steps {
            switch step {
            // A generator's segments are not known yet; it counts as one.
            case .segment, .generate: total += 1
            case .rounds(let spec): total += spec.segmentCount
            }
            if total > Routine.maximumSegments { return Routine.maximumSegments + 1 }
        }
        return total
    }

    static let stepToString: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            guard let raw = luaL_testudata(L, 1, RoutineAPI.stepMetatable),
                  let step = state.builder.step(raw.load(as: Int.self)) else { return 0 }
            switch step {
            case .segment(let spec) where spec.open != nil: stack.push("\(spec.kind){ open = true, name = \"\(spec.name)\" }")
            case .segment(let spec): stack.push("\(spec.kind)(\(Number.format(spec.duration)), \"\(spec.name)\")")
            case .rounds(let spec): stack.push("rounds(\(spec.count), …)")
            case .generate: stack.push("generate(…)")
            }
            return 1
        }
    }

    static let routineToString: workout_SwiftFunction = { L in
        APIError.entry(L) { stack, state throws(APIError) in
            guard let raw = luaL_testudata(L, 1, RoutineAPI.routineMetatable) else { return 0 }
            stack.push("workout{ name = \"\(state.builder.workouts[raw.load(as: Int.self)].name)\" }")
            return 1
        }
    }
}
