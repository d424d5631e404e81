/// A sound file a routine names (`gong.ogg`, `bell.wav`), decoded whole when the routine
/// is loaded, so that a bad file is an error before the run and nothing is read or decoded
/// while it runs: mono samples, -1…1, at the file's rate (the player's synthesizer
/// converts them to its own rate, as it does speech). The engine holds and plays the
/// samples; finding and decoding the file is the `SoundFiles` module's (`SoundFile.load`),
/// so the engine never reaches libsndfile.
public struct SoundFile: Sendable, Hashable {
    /// The name as the routine gave it, for the `alert` event and messages.
    public var name: String
    public var samples: [Float]
    public var rate: Int

    public init(name: String, samples: [Float], rate: Int) {
        self.name = name
        self.samples = samples
        self.rate = rate
    }

    public var seconds: Double { Double(samples.count) / Double(max(rate, 1)) }

    /// By name, rate and length only: a sound is looked up by value each time it plays
    /// (`RenderedSounds`), and hashing a million samples each time would cost more than
    /// the lookup saves. Equality still compares the samples (at once, when both share
    /// one array, as every play of a decoded file does).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(rate)
        hasher.combine(samples.count)
    }
}
