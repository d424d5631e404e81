import WorkoutValues

/// The code of a routine made from data alone (`Routine.fromData`): there is none. Its
/// segments hold no references (no hooks, no cue functions, info as data), so nothing is
/// ever called; what is asked of it answers as empty code would. Its one possible
/// generator is the feed of segments still to come (`DataSegmentFeed`), data too.
final class DataOnlyCode: RoutineHooks {
    weak var actions: (any RoutineActions)?
    private let feed: DataSegmentFeed?

    init(feed: DataSegmentFeed? = nil) {
        self.feed = feed
    }

    func call(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) {}

    func test(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) -> Bool {
        false
    }

    func showSensors(_ readings: SensorReadings, zone: Int?) {}

    func generator(for spec: GeneratorSpec) -> any SegmentGenerator {
        feed.map { DataSegmentFeed.Generator($0) } ?? Ended()
    }

    func json(of value: RoutineReference) -> JSONValue { .null }

    var soundFiles: [SoundFile] { [] }
    var undeclaredSounds: [UndeclaredSound] { [] }
    var liveReferences: Int { 0 }

    func releaseAll() {}

    /// A generator that has nothing to give.
    private final class Ended: SegmentGenerator {
        var isFinished: Bool { true }
        func next(index: Int, elapsed: Double) throws(HookError) -> [Step] { [] }
        func close() {}
    }
}
