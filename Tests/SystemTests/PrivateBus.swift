import Foundation

/// A private D-Bus for a test: `dbus-run-session` runs a shell script on a bus of its own,
/// with one of our fake servers (Fixtures/*_server.py) on it. The notification tests and
/// the sleep inhibitor's share it.
enum PrivateBus {
    /// `dbus-run-session`; a test without it fails rather than skips.
    static func runner() throws -> String {
        guard let path = ["/usr/bin/dbus-run-session", "/bin/dbus-run-session"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Missing(program: "dbus-run-session")
        }
        return path
    }

    /// The exit status of a script whose fake server never said it was ready.
    static let serverDidNotStart: Int32 = 90

    /// Shell lines that start `python3 server log` in the background (`$server` its pid)
    /// and wait until it prints `ready` (its standard output goes to `directory/ready`, its
    /// errors to `directory/server-errors`, shown if it never does).
    static func startServer(_ server: String, log: String, in directory: String) -> String {
        """
        /usr/bin/python3 '\(server)' '\(log)' > '\(directory)/ready' 2> '\(directory)/server-errors' & server=$!
        tries=0
        until grep -q ready '\(directory)/ready'; do
          tries=$((tries + 1)); [ $tries -gt 200 ] && { cat '\(directory)/server-errors' >&2; exit \(serverDidNotStart); }
          sleep 0.05
        done
        """
    }
}
