import Foundation
import Platform
import SoundPlayer
import XCTest
@testable import IntervalEngine

/// What `espeak-ng --stdout` prints, read and converted for the player; anything else
/// refused. The real espeak-ng renders the words (make test installs it; without it the
/// test fails).
final class SpeechWAVTests: XCTestCase {
    func espeak() throws -> String {
        try XCTUnwrap(ExecutableSearch.find("espeak-ng"), "espeak-ng is not installed (make test installs it)")
    }

    func rendered(_ text: String) throws -> [UInt8] {
        guard case let .exited(0, bytes) = ChildProcess.capture(try espeak(), ["--stdout", text], timeout: 10,
                                                                 limit: 4 << 20) else {
            XCTFail("espeak-ng failed")
            return []
        }
        return bytes
    }

    func testARealRenderingIsReadFromItsFirstSound() throws {
        let bytes = try rendered("three, two, one")
        XCTAssertGreaterThan(bytes.count, 64 * 1024, "more than the text limit of ChildProcess.run")
        let speech = try SpeechWAV.speech(from: bytes)
        XCTAssertEqual(speech.rate, Int(UInt32(bytes[24]) | UInt32(bytes[25]) << 8 | UInt32(bytes[26]) << 16))
        // All the samples after the header, less the leading silence.
        let total = (bytes.count - 44) / 2
        XCTAssertLessThan(speech.samples.count, total)
        XCTAssertGreaterThan(speech.seconds, 0.8)
        let fade = speech.rate / 500
        XCTAssertEqual(speech.samples[0], 0, "faded in from zero")
        XCTAssertTrue(speech.samples[fade...].prefix(speech.rate / 1000).contains { abs($0) > SpeechWAV.quiet / 2 },
                      "the first sound is at the start")
        XCTAssertLessThanOrEqual(speech.samples.map(abs).max()!, 1)
    }

    func testTheSynthesizerConvertsTheRateAndMixesWithTheNotes() throws {
        let speech = try SpeechWAV.speech(from: try rendered("go"))
        let synthesizer = Synthesizer(sampleRate: 48_000, volume: 0.5)
        let words = synthesizer.samples(Sound(name: "go", notes: [], speech: speech))
        XCTAssertEqual(Double(words.count), speech.seconds * 48_000, accuracy: 3)
        XCTAssertEqual(Double(words.map(abs).max()!), Double(speech.samples.map(abs).max()!) * 0.5, accuracy: 0.02)
        // A pip mixed with the words from the start: longer of the two, both in it.
        let pip = Sound.named("pip")!
        var mixed = pip
        mixed.speech = speech
        let both = synthesizer.samples(mixed)
        XCTAssertEqual(both.count, words.count)
        let pipAlone = synthesizer.samples(pip)
        XCTAssertEqual(both[1000], min(max(pipAlone[1000] + words[1000], -1), 1), accuracy: 1e-6)
        // A name after a tone: the words start where the tone ends.
        var after = Sound.named("go")!
        let tone = after.seconds
        after.speech = speech.starting(at: tone)
        XCTAssertEqual(after.seconds, tone + speech.seconds, accuracy: 1e-9)
        let sequence = synthesizer.samples(after)
        XCTAssertEqual(sequence.count, Int((tone * 48_000).rounded()) + words.count)
        XCTAssertEqual(Array(sequence.suffix(words.count)), words)
    }

    func header(format: UInt16 = 1, channels: UInt16 = 1, rate: UInt32 = 22_050, bits: UInt16 = 16) -> [UInt8] {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
        return Array("RIFF".utf8) + le32(0x7FFF_F000) + Array("WAVEfmt ".utf8) + le32(16) + le16(format)
            + le16(channels) + le32(rate) + le32(rate * UInt32(channels) * UInt32(bits / 8))
            + le16(channels * bits / 8) + le16(bits)
    }

    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try SpeechWAV.speech(from: bytes)
            return nil
        } catch {
            return error.description
        }
    }

    func testAnythingElseIsRefused() throws {
        let loud: [UInt8] = Array(repeating: [0x00, 0x40], count: 100).flatMap { $0 }
        let data = Array("data".utf8) + [200, 0, 0, 0] + loud
        XCTAssertNil(refusal(header() + data), "the well-formed one is read")
        XCTAssertEqual(refusal(Array("RIFX".utf8) + header().dropFirst(4) + data), "not a RIFF WAVE file")
        XCTAssertEqual(refusal([]), "not a RIFF WAVE file")
        XCTAssertEqual(refusal(header(channels: 2) + data), "format 1, 2 channels, 16 bits; only 16-bit PCM mono is read")
        XCTAssertEqual(refusal(header(bits: 8) + data), "format 1, 1 channels, 8 bits; only 16-bit PCM mono is read")
        XCTAssertEqual(refusal(header(format: 3, bits: 32) + data),
                       "format 3, 1 channels, 32 bits; only 16-bit PCM mono is read")
        XCTAssertEqual(refusal(header(rate: 1_000) + data), "a rate of 1000 Hz")
        XCTAssertEqual(refusal(header()), "no data chunk")
        XCTAssertEqual(refusal(Array(header().prefix(30))), "a short fmt chunk")
        XCTAssertEqual(refusal(Array(header().prefix(12)) + data), "data before the fmt chunk")
        XCTAssertEqual(refusal(header() + Array("data".utf8) + [4, 0, 0, 0, 0, 0, 0, 0]), "no sound in it")
    }
}
