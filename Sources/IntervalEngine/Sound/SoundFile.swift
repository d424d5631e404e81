import CSndfile
import Foundation
import Platform
import WorkoutValues

/// A sound file a routine names (`gong.ogg`, `bell.wav`), decoded whole when the routine
/// is loaded, so that a bad file is an error before the run and nothing is read or decoded
/// while it runs: mono samples, -1…1, at the file's rate (the player's synthesizer
/// converts them to its own rate, as it does speech).
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

    /// A cue, a gong, applause: not a song. Files longer than this are refused.
    public static let maximumSeconds = 30.0
    /// Larger files are refused before they are decoded: 30 s of 96 kHz 24-bit stereo WAV
    /// is 17 MB; a compressed file of 30 s is far smaller.
    public static let maximumBytes = 20 * 1024 * 1024

    /// Finds `name` (`SoundFolders`) and decodes it.
    public static func load(_ name: String, folders: SoundFolders) throws(SoundFileError) -> SoundFile {
        let path = try folders.find(name)
        return try decode(path, name: name)
    }

    /// Decodes the file at `path`, which `SoundFolders.find` has resolved (no symbolic
    /// link left in it): a regular file within the size bound, that libsndfile reads as
    /// sound, holding some sound and at most `maximumSeconds` of it. Channels are mixed
    /// to one.
    public static func decode(_ path: String, name: String) throws(SoundFileError) -> SoundFile {
        guard let library = sndfileLibrary else {
            throw SoundFileError("sound file \(quoted(name)): libsndfile is not installed (Debian: libsndfile1), "
                                 + "so sound files cannot be played")
        }
        // Checked before libsndfile opens it: a FIFO would block it for ever.
        let descriptor: Int32
        do {
            (descriptor, _) = try BoundedFile.open(path, maximumSize: maximumBytes, followLinks: false)
        } catch {
            switch error {
            case .missing, .unreadable:
                throw SoundFileError("sound file \(quoted(name)) cannot be read (\(error.explanation(what: "a sound file")))")
            case .directory, .notRegular:
                throw SoundFileError("sound file \(quoted(name)) is not a regular file")
            case .tooBig(let size, _):
                throw SoundFileError("sound file \(quoted(name)) is \(size / 1024 / 1024) MiB; "
                                     + "at most \(maximumBytes / 1024 / 1024) MiB may be named")
            }
        }
        var info = SF_INFO()
        guard let file = library.open_fd(descriptor, Int32(SFM_READ), &info, 1) else {
            close(descriptor)
            let reason = library.strerror(nil).map { String(cString: $0) } ?? "unknown error"
            throw SoundFileError("sound file \(quoted(name)) is not a sound libsndfile can read (\(reason)); "
                                 + "WAV, FLAC, Ogg Vorbis, Opus and MP3 can be")
        }
        defer { _ = library.close(file) }
        let rate = Int(info.samplerate)
        let channels = Int(info.channels)
        guard (1_000...384_000).contains(rate), (1...64).contains(channels) else {
            throw SoundFileError("sound file \(quoted(name)) has a rate of \(rate) Hz and \(channels) channels")
        }
        // The header's length is checked first, and the samples read are counted as well:
        // a header may say less than the file holds.
        let most = Int(maximumSeconds * Double(rate))
        let tooLong = SoundFileError("sound file \(quoted(name)) lasts more than \(Number.format(maximumSeconds)) s; "
                                     + "at most \(Number.format(maximumSeconds)) s may be named")
        if info.frames > most { throw tooLong }
        var samples: [Float] = []
        samples.reserveCapacity(max(0, min(Int(info.frames), most)))
        let chunk = 4_096
        var buffer = [Float](repeating: 0, count: chunk * channels)
        while true {
            let read = Int(buffer.withUnsafeMutableBufferPointer { library.readf_float(file, $0.baseAddress, sf_count_t(chunk)) })
            guard read > 0 else { break }
            guard samples.count + read <= most else { throw tooLong }
            for frame in 0..<read {
                var sum: Float = 0
                for channel in 0..<channels { sum += buffer[frame * channels + channel] }
                samples.append(min(max(sum / Float(channels), -1), 1))
            }
        }
        guard !samples.isEmpty else { throw SoundFileError("sound file \(quoted(name)) holds no sound") }
        return SoundFile(name: name, samples: samples, rate: rate)
    }

    static func quoted(_ name: String) -> String { "\"\(name)\"" }
}

/// Why a sound file cannot be played; the routine's loader adds its file and line.
public struct SoundFileError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// libsndfile's functions, opened with dlopen the first time a routine names a file
/// (CSndfile/shim.h says why it is not linked); nil where libsndfile1 is not installed.
let sndfileLibrary: workout_sndfile? = {
    var api = workout_sndfile()
    return workout_sndfile_open(&api) == 0 ? api : nil
}()
