import CSndfile
import Foundation
import IntervalEngine
import Platform
import WorkoutValues

/// A routine's sound file found and decoded (libsndfile, opened at run time): the
/// `SoundFiles` module's, not the engine's, which only holds and plays the samples.
extension SoundFile {
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

    package static func quoted(_ name: String) -> String { "\"\(name)\"" }
}
