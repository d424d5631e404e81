import Foundation

/// The fenced blocks of a Markdown page, for tests that run what the docs show: each
/// `lua` block is a routine (saved under the name in its first comment line, as
/// `-- name.lua`), and each `console` block holds `$ workout …` commands, each followed
/// by its exact output, run in the directory of the routine before it.
struct DocExamples {
    struct Routine {
        var fileName: String
        var source: String
        /// The line of the page the block starts on, for failure messages.
        var line: Int
        /// The commands of the console block that follows it, if one does.
        var commands: [Command] = []
    }

    struct Command {
        var arguments: [String]
        var expected: [String]
        var line: Int
    }

    var routines: [Routine] = []
    /// Console blocks before any routine (they use bundled programs).
    var commands: [Command] = []

    init(markdown: String) {
        let lines = markdown.components(separatedBy: "\n")
        var index = 0
        var lastBlockWasLua = false
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else { index += 1; continue }
            let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count && lines[end] != "```" { end += 1 }
            let body = Array(lines[(index + 1)..<min(end, lines.count)])
            if language == "lua" {
                let name = body.first.flatMap(DocExamples.fileName) ?? "example.lua"
                routines.append(Routine(fileName: name, source: body.joined(separator: "\n") + "\n", line: index + 1))
                lastBlockWasLua = true
            } else if language == "console" {
                let parsed = DocExamples.commands(body, firstLine: index + 2)
                if lastBlockWasLua {
                    routines[routines.count - 1].commands += parsed
                } else {
                    commands += parsed
                }
            } else {
                lastBlockWasLua = false
            }
            index = end + 1
        }
    }

    /// `-- first.lua` → `first.lua`.
    static func fileName(_ line: String) -> String? {
        guard line.hasPrefix("-- ") else { return nil }
        let name = line.dropFirst(3).prefix { !$0.isWhitespace }
        guard name.hasSuffix(".lua"), name.count > 4,
              name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else { return nil }
        return String(name)
    }

    static func commands(_ body: [String], firstLine: Int) -> [Command] {
        var commands: [Command] = []
        for (offset, line) in body.enumerated() {
            if line.hasPrefix("$ workout") {
                commands.append(Command(arguments: Array(words(String(line.dropFirst(2))).dropFirst()),
                                        expected: [], line: firstLine + offset))
            } else if !commands.isEmpty {
                commands[commands.count - 1].expected.append(line)
            }
        }
        return commands
    }

    /// Splits a command line on spaces, keeping "double-quoted words" together.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var inWord = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if character == " " && !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Writes each routine into a directory of its own; returns the directories.
    func write(into root: URL) throws -> [URL] {
        try routines.enumerated().map { number, routine in
            let directory = root.appendingPathComponent(String(format: "%02d", number + 1))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try routine.source.write(to: directory.appendingPathComponent(routine.fileName), atomically: false, encoding: .utf8)
            return directory
        }
    }
}
