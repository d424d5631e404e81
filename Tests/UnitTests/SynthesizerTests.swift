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
}
