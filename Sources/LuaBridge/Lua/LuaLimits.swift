import IntervalEngine

/// How much a routine may do: Lua instructions and seconds for loading and for each hook
/// or cue call, and memory for the whole state. Defaults are far beyond any honest
/// routine (which loads in milliseconds and runs a hook in microseconds) and stop an
/// endless loop or a memory bomb within seconds. The time limits back up the
/// instruction budgets: an instruction may copy megabytes, so a budget alone does not
/// bound time.
public struct LuaLimits: Sendable, Equatable {
    public var loadInstructions: Int
    public var hookInstructions: Int
    /// Seconds (0: no limit).
    public var loadSeconds: Double
    public var hookSeconds: Double
    /// Bytes (0: no cap).
    public var memory: Int

    public static let defaultMemoryMiB = 64

    public init(loadInstructions: Int = 200_000_000, hookInstructions: Int = 20_000_000,
                loadSeconds: Double = 20, hookSeconds: Double = 5,
                memory: Int = defaultMemoryMiB * 1024 * 1024) {
        self.loadInstructions = loadInstructions
        self.hookInstructions = hookInstructions
        self.loadSeconds = loadSeconds
        self.hookSeconds = hookSeconds
        self.memory = memory
    }
}
