import Foundation

/// A program's exit status and standard output.
struct Spawned {
    var status: Int32
    var output: String
}

/// Starts `path` with `actions` for its descriptors and this process's environment with
/// `environment` over it; its pid, or nil when it could not be started. For programs
/// that run beside a test (`Daemon`, `BackgroundRun`), reaped by their owner.
func spawnMerged(_ path: String, _ arguments: [String], environment: [String: String],
                 actions: inout posix_spawn_file_actions_t) -> pid_t? {
    var merged = ProcessInfo.processInfo.environment
    merged.merge(environment) { $1 }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envp = merged.map { strdup("\($0)=\($1)") } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    return posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 ? pid : nil
}

/// Runs a program to its end with posix_spawn and waitpid. Foundation's Process learns
/// that a child exited when a socket it shares with the child closes, so a daemon the
/// child leaves behind (a tmux server, a bus daemon) would make it wait for ever.
/// Standard input and error are /dev/null; standard output is returned if `printing`.
func spawn(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
           printing: Bool = true) throws -> Spawned {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var ends: [Int32] = [-1, -1]
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if printing {
        guard pipe(&ends) == 0 else { throw Missing(program: "a pipe") }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0)=\($1)") } + [nil] }
    defer { envp?.forEach { free($0) } }
    var pid: pid_t = 0
    let started = envp.map { posix_spawn(&pid, path, &actions, nil, argv, $0) }
        ?? posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard started == 0 else { throw Missing(program: path) }
    var output = Data()
    if printing {
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: buffer[..<count])
        }
        close(ends[0])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return Spawned(status: exited, output: String(decoding: output, as: UTF8.self))
}
