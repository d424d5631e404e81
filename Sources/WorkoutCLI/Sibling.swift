import Foundation

/// `workout-serve`, found beside the running executable.
enum Sibling {
    static func exec(_ name: String, _ arguments: [String]) -> Never {
        let directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        let path = directory?.appendingPathComponent(name).path ?? name
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Output.error("workout: --serve needs \(name) beside workout (\(path): \(String(cString: strerror(errno)))); "
                     + "install both (README, Installing)")
        exit(1)
    }
}
