import WorkoutValues

/// The code of a routine made from data alone (`Routine.fromData`): there is none. Its
/// segments hold no references (no hooks, no cue functions, no generators, info as
/// data), so nothing is ever called; what is asked of it answers as empty code would.
final class DataOnlyCode: RoutineHooks {
    weak var actions: (any RoutineActions)?

    func call(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) {}

    func test(_ function: RoutineReference, named name: String, with arguments: [HookArgument]) throws(HookError) -> Bool {
        false
    }

    func showSensors(_ readings: SensorReadings, zone: Int?) {}

    func generator(for spec: GeneratorSpec) -> any SegmentGenerator { Ended() }

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
