/// The engine's value types that a viewer needs without the engine (the snapshot, a
/// segment's summary, a command, the texts of times and numbers) are the `WorkoutValues`
/// module's; whoever imports the engine sees them too, as the engine's own.
@_exported import WorkoutValues
