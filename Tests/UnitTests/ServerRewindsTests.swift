import XCTest
@testable import SoundPlayer

/// Which sound servers a sound nobody planned may be written behind the read index for:
/// only one known to rewind its sink. Any other gets the safe path, since a write behind
/// the read index of a server that does not rewind is lost or heard late.
final class ServerRewindsTests: XCTestCase {
    func testPulseAudioRewinds() {
        XCTAssertTrue(PulseOutput.rewinds(server: "pulseaudio"))
    }

    func testPipeWireAndAnyServerNotKnownDoNot() {
        for name in ["PulseAudio (on PipeWire 0.3.65)", "PulseAudio (on PipeWire 1.2.7)", "", "pulseaudio-compatible",
                     "Some Other Server", "PulseAudio"] {
            XCTAssertFalse(PulseOutput.rewinds(server: name), name)
        }
    }
}
