import Foundation

/// Converts a sound file's samples to the player's rate with a windowed-sinc filter: the
/// ideal low-pass (cut off at 94 % of the lower of the two Nyquist frequencies, so going
/// down from 96 kHz folds nothing back into the audible band) under a Blackman window 16
/// zero crossings wide each side, its weights read from a table of 1,024 fractional
/// positions made once per conversion. Linear interpolation, which speech uses, images
/// and aliases audibly on music and bells; this filter keeps such products below about
/// -60 dB, at 32 multiplications an output sample from 44.1 kHz to 48 kHz, done once per
/// file and rate (`RenderedSounds` keeps the result).
enum Resampler {
    static let zeroCrossings = 16
    static let phases = 1_024
    static let passBand = 0.94

    static func convert(_ input: [Float], from source: Int, to target: Int) -> [Float] {
        guard source != target, source > 0, target > 0, !input.isEmpty else { return input }
        let step = Double(source) / Double(target)
        // As a fraction of the source's Nyquist frequency.
        let cutoff = min(1, 1 / step) * passBand
        let half = Int((Double(zeroCrossings) / cutoff).rounded(.up))
        let width = 2 * half
        let table = weights(cutoff: cutoff, half: half)
        let count = Int((Double(input.count) / step).rounded(.up))
        var output = [Float](repeating: 0, count: count)
        input.withUnsafeBufferPointer { samples in
            table.withUnsafeBufferPointer { table in
                output.withUnsafeMutableBufferPointer { output in
                    for index in 0..<count {
                        let position = Double(index) * step
                        let base = Int(position)
                        let phase = Int(((position - Double(base)) * Double(phases)).rounded())
                        let row = phase * width
                        let first = base - half + 1
                        var sum: Float = 0
                        if first >= 0 && first + width <= samples.count {
                            for tap in 0..<width { sum += samples[first + tap] * table[row + tap] }
                        } else {
                            for tap in 0..<width where (0..<samples.count).contains(first + tap) {
                                sum += samples[first + tap] * table[row + tap]
                            }
                        }
                        output[index] = min(max(sum, -1), 1)
                    }
                }
            }
        }
        return output
    }

    /// For each of `phases + 1` fractional positions, the weights of the `2 × half` input
    /// samples around it, each row summing to 1 (a steady level passes unchanged).
    private static func weights(cutoff: Double, half: Int) -> [Float] {
        let width = 2 * half
        var table = [Float](repeating: 0, count: (phases + 1) * width)
        var row = [Double](repeating: 0, count: width)
        for phase in 0...phases {
            let fraction = Double(phase) / Double(phases)
            var total = 0.0
            for tap in 0..<width {
                let distance = Double(tap - half + 1) - fraction
                let value = cutoff * sinc(cutoff * distance) * blackman(distance / Double(half))
                row[tap] = value
                total += value
            }
            for tap in 0..<width { table[phase * width + tap] = Float(row[tap] / total) }
        }
        return table
    }

    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    /// 1 at 0, falling to 0 at ±1.
    private static func blackman(_ t: Double) -> Double {
        guard abs(t) < 1 else { return 0 }
        return 0.42 + 0.5 * cos(Double.pi * t) + 0.08 * cos(2 * Double.pi * t)
    }
}
