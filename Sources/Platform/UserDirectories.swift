import Foundation

/// Where workout keeps a user's files, read from the environment one way for every
/// command: `XDG_CONFIG_HOME`, `XDG_DATA_HOME` or `XDG_STATE_HOME` when set to an absolute path (the XDG
/// spec ignores an empty or relative one), else under `$HOME`, and only when `HOME` is
/// unset or empty the account's home from the password database. So `new` writes where
/// `list`, `run` and `history` look.
public struct UserDirectories: Sendable {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// `$HOME`, or the password database's home directory.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }

    /// `$USER`, `$LOGNAME`, or the password database's name for this user (a shell started
    /// by tmux or cron may have neither variable); empty when none has one.
    public var userName: String {
        for key in ["USER", "LOGNAME"] {
            if let name = environment[key], !name.isEmpty { return name }
        }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ""
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var config: String { base("XDG_CONFIG_HOME", default: ".config") }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public var data: String { base("XDG_DATA_HOME", default: ".local/share") }

    /// `$XDG_STATE_HOME`, or `~/.local/state`: what a run leaves for the next one, as the
    /// note of music it lowered and could not put back.
    public var state: String { base("XDG_STATE_HOME", default: ".local/state") }

    /// `$XDG_CONFIG_HOME/workout/NAME`: the user's routines (`programs`), sounds, remembered
    /// sensors, athlete file, sound defaults and the serving token.
    public func config(_ name: String) -> String { (config as NSString).appendingPathComponent("workout/" + name) }

    /// `$XDG_STATE_HOME/workout/NAME`.
    public func state(_ name: String) -> String { (state as NSString).appendingPathComponent("workout/" + name) }

    /// The user's routines: `$XDG_CONFIG_HOME/workout/programs`.
    public var programs: String { config("programs") }

    /// The secret of `run --serve`: `$XDG_CONFIG_HOME/workout/serve-token`.
    public var serveToken: String { config("serve-token") }

    private func base(_ variable: String, default relative: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (home as NSString).appendingPathComponent(relative)
    }
}
