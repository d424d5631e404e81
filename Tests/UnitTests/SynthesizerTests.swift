import SoundPlayer
import XCTest
@testable import IntervalEngine

/// The sounds made in the process, checked offline: pitch, length, and no click at
/// either end of a note.
final class SynthesizerTests: XCTestCase {
    let rate = 48_000

    /// Zero crossings per second / 2 over a stretch of one steady note.
    func frequency(_ samples: ArraySlice<Float>) -> Double {
        var crossings = 0
        var previous = samples.first ?? 0
        for sample in samples.dropFirst() {
            if (previous < 0) != (sample < 0) { crossings += 1 }
            previous = sample
        }
        return Double(crossings) / 2 / (Double(samples.count) / Double(rate))
    }

    func testANoteHasItsPitchAndLength() {
        let synthesizer = Synthesizer(sampleRate: rate, volume: 1)
        let samples = synthesizer.samples(Sound(name: "tone", notes: [Note(hz: 660, seconds: 0.2)]))
        XCTAssertEqual(samples.count, 9_600)
        XCTAssertEqual(frequency(samples[480..<9_120]), 660, accuracy: 10)
        XCTAssertEqual(Double(samples.map(abs).max()!), 1, accuracy: 0.01)
    }

    func testNotesFadeInAndOutWithoutAJump() {
        let synthesizer = Synthesizer(sampleRate: rate, volume: 0.8)
        for sound in Sound.builtIn {
            let samples = synthesizer.samples(sound)
            XCTAssertLessThan(abs(samples.first!), 0.001, sound.name)
            XCTAssertLessThan(abs(samples.last!), 0.02, sound.name)
            // A sine of f Hz at amplitude 0.8 moves at most 2π·f/rate·0.8 between samples:
            // a bigger step is a click.
            let highest = sound.notes.map(\.hz).max()!
            let bound = Float(2 * Double.pi * highest / Double(rate) * 0.8) * 1.05
            for index in samples.indices.dropFirst() {
                XCTAssertLessThanOrEqual(abs(samples[index] - samples[index - 1]), bound, "\(sound.name) at \(index)")
            }
        }
    }

    func testVolumeScalesTheSamples() {
        let loud = Synthesizer(sampleRate: rate, volume: 1).samples(Sound.named("pip")!)
        let quiet = Synthesizer(sampleRate: rate, volume: 0.25).samples(Sound.named("pip")!)
        XCTAssertEqual(Double(quiet.map(abs).max()!), 0.25 * Double(loud.map(abs).max()!), accuracy: 0.001)
        XCTAssertEqual(Synthesizer(sampleRate: rate, volume: 0).samples(Sound.named("go")!).map(abs).max(), 0)
    }

    func testTheSoundsDifferInPitchLengthOrNotes() {
        var seen: [String] = []
        for sound in Sound.builtIn {
            let signature = sound.notes.map { "\(Int($0.hz))/\(Int($0.seconds * 1000))" }.joined(separator: " ")
            XCTAssertFalse(seen.contains(signature), "\(sound.name) sounds like another")
            seen.append(signature)
        }
        let pip = Sound.named("pip")!, go = Sound.named("go")!, finish = Sound.named("finish")!
        XCTAssertGreaterThan(go.notes[0].hz, pip.notes[0].hz)
        XCTAssertGreaterThan(go.seconds, 3 * pip.seconds)
        XCTAssertGreaterThanOrEqual(finish.notes.count, 3, "the finish is a chime of several notes")
        XCTAssertEqual(Sound.names, ["pip", "go", "rest", "start", "finish", "pause", "resume"])
        XCTAssertEqual(Set(Sound.purposes.keys), Set(Sound.names))
    }

    /// A sine of `hz` at `rate` for `seconds`, as a decoded file.
    func file(hz: Double, rate: Int, seconds: Double, amplitude: Float = 0.5) -> SoundFile {
        let count = Int(Double(rate) * seconds)
        return SoundFile(name: "sine.wav", samples: (0..<count).map {
            amplitude * Float(sin(2 * Double.pi * hz * Double($0) / Double(rate)))
        }, rate: rate)
    }

    func testAFileIsConvertedToThePlayersRateKeepingItsPitchLengthAndLevel() {
        let synthesizer = Synthesizer(sampleRate: rate, volume: 0.5)
        let samples = synthesizer.samples(Sound(file: file(hz: 1_000, rate: 44_100, seconds: 1), volume: 0.8))
        XCTAssertEqual(samples.count, 48_000, accuracy: 1)
        XCTAssertEqual(frequency(samples[2_400..<45_600]), 1_000, accuracy: 2)
        XCTAssertEqual(Double(samples[2_400..<45_600].map(abs).max()!), 0.5 * 0.5 * 0.8, accuracy: 0.005)
        // At the player's own rate the samples pass unchanged, scaled by the volumes.
        let same = file(hz: 1_000, rate: 48_000, seconds: 0.1)
        XCTAssertEqual(synthesizer.samples(Sound(file: same)), same.samples.map { $0 * 0.5 })
    }

    func testGoingDownInRateFoldsNothingBackIntoTheAudibleBand() {
        // 30 kHz at 96 kHz is above the player's Nyquist frequency (24 kHz): linear
        // interpolation would fold it to 18 kHz at nearly full level; the filter drops it.
        let high = Synthesizer(sampleRate: rate, volume: 1).samples(Sound(file: file(hz: 30_000, rate: 96_000, seconds: 0.5)))
        XCTAssertLessThan(high[2_400..<21_600].map(abs).max()!, 0.5 * 0.001, "below -60 dB")
        // 10 kHz, well inside both bands, passes at its level.
        let kept = Synthesizer(sampleRate: rate, volume: 1).samples(Sound(file: file(hz: 10_000, rate: 96_000, seconds: 0.5)))
        XCTAssertEqual(Double(kept[2_400..<21_600].map(abs).max()!), 0.5, accuracy: 0.01)
        XCTAssertEqual(frequency(kept[2_400..<21_600]), 10_000, accuracy: 20)
    }

    func testAFileSoundLastsAsLongAsItsFile() {
        let sound = Sound(file: file(hz: 440, rate: 22_050, seconds: 2))
        XCTAssertEqual(sound.seconds, 2, accuracy: 0.001)
        XCTAssertEqual(sound.name, "sine.wav")
        XCTAssertEqual(RenderedSounds(Synthesizer(sampleRate: rate, volume: 1)).synthesizer.samples(sound).count,
                       96_000, accuracy: 1)
    }
}
