/// The routine flattened: every segment in order with its absolute planned start.
/// Nested `rounds` are unrolled here, once, so that running a workout never walks the
/// step tree.
///
/// A `generate` step cannot be unrolled ahead: its segments join the timeline one yield
/// at a time, when the run (or `plan`) needs the next segment (`pull`), so the generator
/// sees what the hooks did up to that boundary. The fixed steps before the first
/// generator are unrolled at load; those after it wait, unrolled, in `pending`, and join
/// once the generator ends.
///
/// A class, not a struct: a pull runs the routine's Lua, whose actions reach the session,
/// which reads the timeline. Mutating a struct held by the routine would hold exclusive
/// access to it across that call.
public final class Timeline {
    /// The segments known so far: every one of a fixed routine.
    public private(set) var segments: [Segment] = []
    /// The routine has a `generate` step, so how many segments it has is not known ahead.
    public private(set) var isOpenEnded = false
    /// Generators are asked for more only while fewer segments than this are known:
    /// what keeps `plan` and a dry run of a never-ending routine finite.
    public var horizon = Int.max
    /// The horizon of `plan`, `check` and a dry run unless `--horizon` says otherwise.
    public static let defaultHorizon = 1_000
    /// A pull found more to come but stopped at the horizon.
    public private(set) var reachedHorizon = false

    /// `--assume SECONDS`: every open segment is planned as lasting this long, not its
    /// own `expect` (within its cap).
    public private(set) var assumedOpenSeconds: Double?

    /// Plans every open segment, known or still to come, as lasting `seconds` (at most
    /// its cap), and moves the planned starts after it.
    public func assume(openSeconds seconds: Double) {
        assumedOpenSeconds = seconds
        var start = 0.0
        for position in segments.indices {
            if let open = segments[position].open {
                let length = min(seconds, open.cap ?? seconds)
                segments[position].open?.expect = length
                segments[position].duration = length
            }
            segments[position].start = start
            start += segments[position].duration
        }
    }

    /// Whether any known segment is open: the plan's total is then "about".
    public var hasOpenSegments: Bool { segments.contains { $0.open != nil } }

    /// Planned seconds of the segments known so far.
    public var duration: Double { segments.last?.end ?? 0 }
    public var count: Int { segments.count }
    /// Every segment is known: always for a fixed routine, and for an open-ended one
    /// once its generators have ended.
    public var isComplete: Bool { running == nil && nextPiece == pending.count }

    private struct Block {
        var round: Int
        var rounds: Int
        var name: String?
    }

    /// What comes after the known segments, unrolled as far as it can be.
    private enum Piece {
        case segment(SegmentSpec, Block?)
        case generator(GeneratorSpec, Block?)
    }

    private var pending: [Piece] = []
    private var nextPiece = 0
    /// The generator being pulled from, and the block its `generate` step sits in.
    private var running: (generator: any SegmentGenerator, block: Block?)?

    init(steps: [Step]) {
        // A segment is a few hundred bytes: an array grown by doubling held the old copy
        // beside the new at its peak (a 100,000-segment plan's memory, the bench's scale).
        segments.reserveCapacity(min(Self.knownCount(of: steps), 1_000_000))
        for step in steps {
            append(step, block: nil)
        }
    }

    /// How many segments the fixed steps unroll to (a generator's count as none).
    private static func knownCount(of steps: [Step]) -> Int {
        steps.reduce(0) { total, step in
            switch step {
            case .segment: return total + 1
            case .generate: return total
            case .rounds(let spec):
                let each = knownCount(of: spec.steps) + (spec.restBetween == nil ? 0 : 1)
                let (product, overflow) = max(0, spec.count).multipliedReportingOverflow(by: each)
                return min(total, Int.max / 4) + (overflow ? Int.max / 4 : min(product, Int.max / 4))
            }
        }
    }

    /// What a pull found.
    package enum Pulled: Equatable {
        /// At least one segment more is known.
        case added
        /// The workout has no more, or the horizon is reached.
        case none
        /// The running generator has nothing yet and has not ended: a follower's feed,
        /// whose next segment the coach has not sent yet. Pull again when it has.
        case waiting
    }

    /// Adds at least one segment, from the running generator or the steps after the
    /// known ones. A generator that raises, or yields something that is not a step, is
    /// handed to `failed` and ends there: the steps after it follow. `elapsed` is what the
    /// generator's `run.elapsed` reads: workout seconds done so far.
    func pull(_ code: any RoutineHooks, elapsed: Double, failed: (HookError) -> Void) -> Pulled {
        deferring = false
        let before = count
        while count == before {
            guard !isComplete else { return .none }
            guard count < horizon else {
                reachedHorizon = true
                return .none
            }
            if let (generator, block) = running {
                do {
                    let steps = try generator.next(index: count + 1, elapsed: elapsed)
                    // Nothing, yet not ended: only a feed says this (a Lua generator that
                    // yields nothing has ended). Asking again now would spin.
                    if steps.isEmpty && !generator.isFinished { return .waiting }
                    for step in steps { append(step, block: block) }
                    if generator.isFinished { end(generator) }
                } catch {
                    end(generator)
                    failed(error)
                }
            } else {
                let piece = pending[nextPiece]
                nextPiece += 1
                switch piece {
                case let .segment(spec, block): add(spec, block: block)
                case let .generator(spec, block): running = (code.generator(for: spec), block)
                }
            }
        }
        // Fixed steps right behind are known now, so "next" can show them.
        while running == nil, nextPiece < pending.count, case let .segment(spec, block) = pending[nextPiece] {
            nextPiece += 1
            add(spec, block: block)
        }
        return .added
    }

    /// Pulls until every segment is known or the horizon is reached (for `plan`).
    func expand(_ code: any RoutineHooks, failed: (HookError) -> Void) {
        while pull(code, elapsed: duration, failed: failed) == .added {}
    }

    private func end(_ generator: any SegmentGenerator) {
        generator.close()
        running = nil
    }

    private func append(_ step: Step, block: Block?) {
        switch step {
        case .segment(let spec):
            add(spec, block: block)
        case .generate(let spec):
            isOpenEnded = true
            deferring = true
            pending.append(.generator(spec, block))
        case .rounds(let spec):
            for round in 1...spec.count {
                let inner = Block(round: round, rounds: spec.count, name: spec.name)
                let isLast = round == spec.count
                for child in spec.steps {
                    append(child, block: inner)
                }
                if isLast && spec.skipLastRest {
                    dropTrailingRest()
                }
                if !isLast, let rest = spec.restBetween {
                    let between = SegmentSpec(
                        kind: "rest", name: "Rest", duration: rest, info: nil, cues: [],
                        onStart: nil, onEnd: nil, line: spec.line)
                    add(between, block: inner)
                }
            }
        }
    }

    /// While loading, segments go straight onto the timeline until a generator is met;
    /// after it they wait their turn in `pending`. A pull always adds to the timeline:
    /// `pending` is complete by then, and what a generator yields comes next.
    private var deferring = false

    private func add(_ spec: SegmentSpec, block: Block?) {
        if deferring {
            pending.append(.segment(spec, block))
            return
        }
        var spec = spec
        if let seconds = assumedOpenSeconds, let open = spec.open {
            spec.duration = min(seconds, open.cap ?? seconds)
            spec.open?.expect = spec.duration
        }
        segments.append(Segment(
            index: segments.count + 1, kind: spec.kind, name: spec.name,
            duration: spec.duration, start: duration,
            round: block?.round ?? spec.place?.round, rounds: block?.rounds ?? spec.place?.rounds,
            block: block.map(\.name) ?? spec.place?.block,
            info: spec.info, cues: spec.cues, onStart: spec.onStart, onEnd: spec.onEnd,
            line: spec.line, open: spec.open, until: spec.until, score: spec.score, infoData: spec.infoData))
        segments[segments.count - 1].steer = spec.steer
    }

    /// `skip_last_rest`: only a rest segment can be dropped, never a generator's output.
    private func dropTrailingRest() {
        if deferring {
            if case let .segment(spec, _)? = pending.last, spec.kind == "rest" { pending.removeLast() }
        } else if segments.last?.kind == "rest" {
            segments.removeLast()
        }
    }
}
