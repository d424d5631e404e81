/// Why a sound file cannot be played; the routine's loader adds its file and line.
public struct SoundFileError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
