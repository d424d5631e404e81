/// Reads what `espeak-ng --stdout` prints: a RIFF WAVE of 16-bit PCM, mono. Anything
/// else (another format, stereo, a truncated header, no samples) is refused with a
/// reason, and the words are then said aloud by the synthesizer itself. espeak-ng writes to a pipe, so it
/// cannot go back to fill in the sizes: its RIFF and data sizes are placeholders
/// (0x7FFFF000), and the data runs to the end of what it printed.
public enum SpeechWAV {
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The samples, from the first sound on (the synthesizer's leading silence would put
    /// the first word late), with a 2 ms fade-in so the cut does not click.
    public static func speech(from bytes: [UInt8]) throws(Refusal) -> Speech {
        guard bytes.count >= 12, text(bytes, 0) == "RIFF", text(bytes, 8) == "WAVE" else {
            throw Refusal(description: "not a RIFF WAVE file")
        }
        var offset = 12
        var rate: Int?
        while offset + 8 <= bytes.count {
            let id = text(bytes, offset)
            let size = Int(word(bytes, offset + 4))
            let body = offset + 8
            switch id {
            case "fmt ":
                guard size >= 16, body + 16 <= bytes.count else { throw Refusal(description: "a short fmt chunk") }
                let format = half(bytes, body), channels = half(bytes, body + 2), bits = half(bytes, body + 14)
                guard format == 1, channels == 1, bits == 16 else {
                    throw Refusal(description: "format \(format), \(channels) channels, \(bits) bits; "
                                  + "only 16-bit PCM mono is read")
                }
                let hz = Int(word(bytes, body + 4))
                guard (8_000...192_000).contains(hz) else { throw Refusal(description: "a rate of \(hz) Hz") }
                rate = hz
            case "data":
                guard let rate else { throw Refusal(description: "data before the fmt chunk") }
                let end = min(bytes.count, body + size)
                let samples = stride(from: body, to: end - 1, by: 2).map {
                    Float(Int16(bitPattern: half(bytes, $0))) / 32_768
                }
                return try trimmed(samples, rate: rate)
            default:
                break
            }
            // Chunks are padded to an even length.
            offset = body + size + (size & 1)
        }
        throw Refusal(description: rate == nil ? "no fmt chunk" : "no data chunk")
    }

    /// Below this, the start is silence (or the synthesizer's dither).
    static let quiet: Float = 0.01

    private static func trimmed(_ samples: [Float], rate: Int) throws(Refusal) -> Speech {
        guard let first = samples.firstIndex(where: { abs($0) > quiet }) else {
            throw Refusal(description: "no sound in it")
        }
        let fade = rate / 500
        let start = max(0, first - fade)
        var kept = Array(samples[start...])
        for index in 0..<min(fade, kept.count) {
            kept[index] *= Float(index) / Float(fade)
        }
        return Speech(samples: kept, rate: rate)
    }

    private static func text(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<min(at + 4, bytes.count)], as: UTF8.self)
    }

    private static func half(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(half(bytes, at)) | UInt32(half(bytes, at + 2)) << 16
    }
}
