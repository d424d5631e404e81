import Foundation
import IntervalEngine

/// Turns a sound's notes into samples: mono, 32-bit float, at the output's rate. Each note
/// is a sine that fades in and out over a few milliseconds (a raised cosine), so it
/// starts and ends at zero: a note cut off at full height clicks.
public struct Synthesizer: Sendable {
    public let sampleRate: Int
    /// 0…1: `--volume` divided by 100.
    public let volume: Double

    /// Long enough to remove the click, short enough to keep a pip's attack crisp.
    public static let fadeSeconds = 0.005

    public init(sampleRate: Int, volume: Double) {
        self.sampleRate = sampleRate
        self.volume = min(max(volume, 0), 1)
    }

    public func samples(_ sound: Sound) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(Int((sound.seconds * Double(sampleRate)).rounded(.up)) + sound.notes.count)
        for note in sound.notes {
            append(note, to: &samples)
        }
        if let file = sound.file { mix(file, volume: sound.fileVolume, into: &samples) }
        if let speech = sound.speech { mix(speech, into: &samples) }
        return samples
    }

    /// Adds a sound file from the sound's start, converted to this rate (`Resampler`) and
    /// scaled by the volume and the file's own volume.
    private func mix(_ file: SoundFile, volume fileVolume: Double, into samples: inout [Float]) {
        let converted = Resampler.convert(file.samples, from: file.rate, to: sampleRate)
        if samples.count < converted.count {
            samples.append(contentsOf: repeatElement(0, count: converted.count - samples.count))
        }
        let loudness = Float(volume * min(max(fileVolume, 0), 1))
        for index in converted.indices {
            samples[index] = min(max(samples[index] + loudness * converted[index], -1), 1)
        }
    }

    /// Adds the words at their offset, converted to this rate (linear interpolation:
    /// speech rendered at 22,050 Hz has nothing above 11 kHz to alias) and scaled by the
    /// volume; where they overlap a note, the sum is kept within -1…1.
    private func mix(_ speech: Speech, into samples: inout [Float]) {
        guard speech.rate > 0, !speech.samples.isEmpty else { return }
        let step = Double(speech.rate) / Double(sampleRate)
        let start = Int((speech.offset * Double(sampleRate)).rounded())
        let count = Int(Double(speech.samples.count - 1) / step) + 1
        if samples.count < start + count {
            samples.append(contentsOf: repeatElement(0, count: start + count - samples.count))
        }
        let last = speech.samples.count - 1
        for index in 0..<count {
            let position = Double(index) * step
            let before = min(Int(position), last)
            let fraction = Float(position - Double(before))
            let value = speech.samples[before] * (1 - fraction) + speech.samples[min(before + 1, last)] * fraction
            samples[start + index] = min(max(samples[start + index] + Float(volume) * value, -1), 1)
        }
    }

    private func append(_ note: Note, to samples: inout [Float]) {
        let count = Int((note.seconds * Double(sampleRate)).rounded())
        guard note.hz > 0, note.volume > 0 else {
            samples.append(contentsOf: repeatElement(0, count: count))
            return
        }
        let fade = max(1, min(Int(Synthesizer.fadeSeconds * Double(sampleRate)), count / 2))
        let step = 2 * Double.pi * note.hz / Double(sampleRate)
        let loudness = volume * note.volume
        for index in 0..<count {
            var envelope = 1.0
            if index < fade {
                envelope = Synthesizer.rise(Double(index) / Double(fade))
            } else if index >= count - fade {
                envelope = Synthesizer.rise(Double(count - 1 - index) / Double(fade))
            }
            if note.ringing {
                // Falls to about a twentieth by the note's end, as a struck bell does.
                envelope *= exp(-3 * Double(index) / Double(count))
            }
            samples.append(Float(loudness * envelope * sin(step * Double(index))))
        }
    }

    /// 0 at 0, 1 at 1, with no corner at either end.
    private static func rise(_ x: Double) -> Double {
        0.5 - 0.5 * cos(Double.pi * min(max(x, 0), 1))
    }
}
