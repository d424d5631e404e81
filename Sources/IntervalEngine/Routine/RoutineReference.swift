/// A value the routine's code keeps for the engine: a hook, a cue's function, a sample
/// condition, a segment's payload table. The engine holds it as an opaque number and hands
/// it back to the code (`RoutineHooks`) to call or read.
package struct RoutineReference: Hashable, Sendable {
    package let id: Int32

    package init(id: Int32) {
        self.id = id
    }
}
