import WorkoutValues

/// A password typed into a command line's broker address (`--mqtt mqtts://coach:PW@…`,
/// `follow mqtts://coach:PW@…`) is in `/proc/PID/cmdline`, which every user of the machine
/// reads (`ps`). These find it in an argument as `init(parsing:)` does, so that the
/// command line can hide it in the process's own memory at start and keep it out of the
/// arguments `run --serve` hands to `workout-serve` (docs/mqtt.md, "The password").
extension BrokerAddress {
    /// The environment variable a broker's password may be given in instead: it is the
    /// user's own (`/proc/PID/environ` is readable by the same user only), and how
    /// `workout` hands a password to `workout-serve`.
    public static let passwordVariable = "WORKOUT_MQTT_PASSWORD"

    /// The bytes of `argument` that are a broker address's password: those between
    /// `USER:` and the last `@` before the host of `mqtt[s]://USER:PASSWORD@HOST…`, also after
    /// `--mqtt=`; nil where there is none (no such address, or no password in it).
    public static func passwordRange(in argument: [UInt8]) -> Range<Int>? {
        var start = 0
        if argument.starts(with: Array("--".utf8)), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
            start = equals + 1
        }
        let separator = Array("://".utf8)
        guard let schemeEnd = (start...max(start, argument.count - separator.count)).first(where: {
            argument[$0...].starts(with: separator)
        }), argument.count >= schemeEnd + separator.count else { return nil }
        let scheme = String(decoding: argument[start..<schemeEnd], as: UTF8.self).lowercased()
        guard scheme == "mqtt" || scheme == "mqtts" else { return nil }
        let authorityStart = schemeEnd + separator.count
        let authorityEnd = argument[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? argument.count
        let authority = argument[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: UInt8(ascii: "@")),
              let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return colon + 1..<at
    }

    /// `argument` with its address's password and the colon before it left out
    /// (`mqtts://coach@host/gym`), and that password percent-decoded (nil where it is not
    /// percent-encoded UTF-8); nil where `argument` holds none.
    public static func withoutPassword(_ argument: String) -> (argument: String, password: String?)? {
        let bytes = Array(argument.utf8)
        guard let range = passwordRange(in: bytes) else { return nil }
        let rest = Array(bytes[..<(range.lowerBound - 1)]) + Array(bytes[range.upperBound...])
        return (String(decoding: rest, as: UTF8.self), percentDecoded(String(decoding: bytes[range], as: UTF8.self)))
    }
}
