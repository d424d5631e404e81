/// Words rendered ahead by a synthesizer (`espeak-ng --stdout`), as samples: mono, -1…1,
/// at the rate they were rendered at. The player's synthesizer converts them to its own
/// rate and volume, so speech plays through the same stream as the tones, on time.
public struct Speech: Sendable, Hashable {
    public var samples: [Float]
    public var rate: Int
    /// Seconds from the sound's start to the first word: 0 to speak on the moment (a
    /// countdown number, mixed with its pip), a tone's length to speak right after it
    /// (a segment's name after its start sound).
    public var offset: Double

    public init(samples: [Float], rate: Int, offset: Double = 0) {
        self.samples = samples
        self.rate = rate
        self.offset = offset
    }

    public var seconds: Double { Double(samples.count) / Double(max(rate, 1)) }

    /// The same words starting `offset` seconds into the sound.
    public func starting(at offset: Double) -> Speech {
        Speech(samples: samples, rate: rate, offset: offset)
    }
}
