/// The routine flattened: every segment in order with its absolute planned start.
/// Nested `rounds` are unrolled here, once, so that running a workout never walks the
/// step tree.
public struct Timeline {
    public private(set) var segments: [Segment] = []

    public var duration: Double { segments.last?.end ?? 0 }
    public var count: Int { segments.count }

    init(steps: [Step]) {
        for step in steps {
            append(step, block: nil)
        }
    }

    private struct Block {
        var round: Int
        var rounds: Int
        var name: String?
    }

    private mutating func append(_ step: Step, block: Block?) {
        switch step {
        case .segment(let spec):
            add(spec, block: block)
        case .rounds(let spec):
            for round in 1...spec.count {
                let inner = Block(round: round, rounds: spec.count, name: spec.name)
                let isLast = round == spec.count
                for child in spec.steps {
                    append(child, block: inner)
                }
                if isLast && spec.skipLastRest, segments.last?.kind == "rest" {
                    segments.removeLast()
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

    private mutating func add(_ spec: SegmentSpec, block: Block?) {
        segments.append(Segment(
            index: segments.count + 1, kind: spec.kind, name: spec.name,
            duration: spec.duration, start: duration,
            round: block?.round, rounds: block?.rounds, block: block?.name,
            info: spec.info, cues: spec.cues, onStart: spec.onStart, onEnd: spec.onEnd,
            line: spec.line))
    }
}
