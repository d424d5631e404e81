import ArgumentParser
import Foundation
import IntervalEngine
import LuaBridge

/// Shell completion that knows routines. The scripts ArgumentParser generates
/// (`workout --generate-completion-script bash|zsh|fish`, installed by `make install`)
/// call the binary back at each Tab, which runs these. Any command's ROUTINE argument
/// takes `completion: .routine`; a `--set` option takes `completion: .parameterSetting`.
/// What either offers goes through `CompletionCandidates`, so that no file name or
/// parameter default is expanded by the shell.
extension CompletionKind {
    /// The names of your routines and the bundled ones, then `.lua` files and
    /// directories, for a routine given as a path.
    static var routine: CompletionKind {
        .custom { _, _, prefix in
            let paths = RoutineCompletion.paths(prefix: prefix)
            return CompletionCandidates.forShell(RoutineCompletion.names(prefix: prefix) + paths, files: Set(paths))
        }
    }

    /// `NAME=DEFAULT` for each parameter of the routine named on the command line.
    static var parameterSetting: CompletionKind {
        .custom { words, index, prefix in
            CompletionCandidates.forShell(RoutineCompletion.settings(words: words, completing: index, prefix: prefix))
        }
    }
}

enum RoutineCompletion {
    /// Loading a routine to read its parameters must not stall a Tab: far tighter limits
    /// than a run's (a routine that needs more simply offers nothing).
    static let limits = LuaLimits(loadInstructions: 10_000_000, loadSeconds: 1)

    /// The names of your routines and the bundled ones that start with `prefix`.
    static func names(prefix: String) -> [String] {
        var seen = Set<String>()
        return RoutineLookup.all().map { ($0.path as NSString).lastPathComponent }
            .map { $0.hasSuffix(".lua") ? String($0.dropLast(4)) : $0 }
            .filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
    }

    /// Directories and `.lua` files that complete `prefix` as a path. Bash's script marks
    /// directories itself (it completes with `-o filenames`); zsh and fish get the `/`.
    static func paths(prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let directory = folder.isEmpty ? "." : (folder as NSString).expandingTildeInPath
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        let marksDirectories = CompletionShell.requesting != .bash
        var found: [String] = []
        for entry in entries.sorted() where entry.hasPrefix(start) && (start.hasPrefix(".") || !entry.hasPrefix(".")) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(entry),
                                                 isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found.append(folder + entry + (marksDirectories ? "/" : ""))
            } else if entry.hasSuffix(".lua") {
                found.append(folder + entry)
            }
        }
        return found
    }

    /// The routine's parameters as `rounds=8`; once a name and `=` are typed, a boolean's
    /// two values.
    static func settings(words: [String], completing index: Int, prefix: String) -> [String] {
        guard let routine = routine(in: words, completing: index),
              let loaded = try? RoutineLoader.load(path: routine, limits: limits) else { return [] }
        var offers: [String] = []
        for parameter in loaded.parameters {
            if parameter.kind == .boolean && prefix.hasPrefix(parameter.name + "=") {
                offers += ["true", "false"].map { "\(parameter.name)=\($0)" }
            } else {
                offers.append("\(parameter.name)=\(parameter.defaultValue.text)")
            }
        }
        return offers.filter { $0.hasPrefix(prefix) }
    }

    /// The first word after the command's name that names a routine, leaving out options,
    /// the values of `--set` and `--from`, and the word being completed.
    static func routine(in words: [String], completing index: Int) -> String? {
        var afterValueOption = false
        for (position, word) in words.enumerated().dropFirst(2) {
            defer { afterValueOption = ["--set", "--from"].contains(word) }
            guard position != index, !afterValueOption, !word.hasPrefix("-") else { continue }
            if let path = try? RoutineLookup.resolve(shellWord(word)) { return path }
        }
        return nil
    }

    /// A word as the shell would pass it to the command: the shells hand the completion
    /// the words as typed, quotes, backslashes and `~` included.
    static func shellWord(_ typed: String) -> String {
        var word = ""
        var quote: Character?
        var escaped = false
        for character in typed {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote, character == open {
                quote = nil
            } else if quote == nil && (character == "'" || character == "\"") {
                quote = character
            } else {
                word.append(character)
            }
        }
        return word.hasPrefix("~") ? (word as NSString).expandingTildeInPath : word
    }
}
