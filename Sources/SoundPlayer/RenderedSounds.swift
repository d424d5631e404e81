import IntervalEngine

/// Samples by sound, so a sound played again — a hook's tone called over and over, each
/// countdown pip — is rendered once and its samples shared (an array is copied only when
/// written to, and nothing writes to these). At most `keptSamples` are kept in all; the
/// least recently used sounds are forgotten first, and one longer than that is never kept.
public struct RenderedSounds {
    public let synthesizer: Synthesizer
    private var kept: [Sound: (samples: [Float], used: Int)] = [:]
    private var keptCount = 0
    private var uses = 0

    /// A minute at 48 kHz: about 11 MiB.
    public static let keptSamples = 48_000 * 60

    public init(_ synthesizer: Synthesizer) {
        self.synthesizer = synthesizer
    }

    /// How many samples are kept now.
    public var count: Int { keptCount }

    public mutating func samples(_ sound: Sound) -> [Float] {
        uses += 1
        if let known = kept[sound] {
            kept[sound]!.used = uses
            return known.samples
        }
        let made = synthesizer.samples(sound)
        guard made.count <= Self.keptSamples else { return made }
        while keptCount + made.count > Self.keptSamples,
              let oldest = kept.min(by: { $0.value.used < $1.value.used })?.key {
            keptCount -= kept.removeValue(forKey: oldest)!.samples.count
        }
        kept[sound] = (made, uses)
        keptCount += made.count
        return made
    }
}
