/// How much a routine may do: Lua instructions for loading and for each hook or cue
/// call, and memory for the whole state. Defaults are far beyond any honest routine and
/// stop an endless loop or a memory bomb within about a second.
public struct LuaLimits: Sendable {
    public var loadInstructions: Int
    public var hookInstructions: Int
    /// Bytes (0: no cap).
    public var memory: Int

    public init(loadInstructions: Int = 200_000_000, hookInstructions: Int = 20_000_000,
                memory: Int = 64 * 1024 * 1024) {
        self.loadInstructions = loadInstructions
        self.hookInstructions = hookInstructions
        self.memory = memory
    }
}
