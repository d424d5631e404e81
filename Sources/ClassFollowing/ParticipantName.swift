/// The name a follower publishes under, `PREFIX/participants/NAME`: it is part of a
/// topic and shown on the coach's screen, so it is letters, digits, `-`, `_` and `.`,
/// at most `longest` characters.
public enum ParticipantName {
    public static let longest = 32

    /// The name, or why it cannot be one.
    public static func check(_ name: String) -> String? {
        guard !name.isEmpty else { return "the name is empty" }
        guard name.count <= longest else { return "the name is longer than \(longest) characters" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
        }
        return allowed ? nil : "the name may hold only letters, digits, '-', '_' and '.'"
    }
}
