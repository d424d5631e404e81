import ArgumentParser

/// Completion candidates made safe for the shell that asked. Candidates come from file
/// names and from a routine's parameter defaults, which anyone who hands over a routine
/// chooses, so none may run anything or break the list:
/// - bash's script passes them to `compgen -W`, which expands each word (`$(…)`, backticks,
///   `$VAR`, `~`) and removes quotes: every character but plain ones is backslash-escaped,
///   so that the expansion gives back the name itself;
/// - zsh's script passes them to `_describe`, where `:` starts a description: `:` and `\`
///   are escaped;
/// - fish takes them as they are (tab starts a description).
/// A candidate holding a control character (a newline would split it into two, a tab or an
/// escape sequence would reach the terminal) is not offered in any shell.
///
/// Bash's readline then quotes the word it inserts in full only when it names a file that
/// exists (the script completes with `-o filenames`); any other word gets only its word
/// breaks escaped, so `$(…)` or a backtick would be inserted live and run at Enter. In bash,
/// a candidate that is not a file (a routine's name, `NAME=DEFAULT`) is offered only when it
/// holds nothing but plain characters and spaces.
enum CompletionCandidates {
    static func forShell(_ candidates: [String], files: Set<String> = [],
                         shell: CompletionShell? = CompletionShell.requesting) -> [String] {
        candidates.filter { !$0.unicodeScalars.contains(where: isControl) }.compactMap { candidate in
            switch shell {
            case .bash?:
                guard files.contains(candidate) || candidate.unicodeScalars.allSatisfy({ plain.contains($0) || $0 == " " || !$0.isASCII })
                else { return nil }
                return bashWord(candidate)
            case .zsh?: return escaping(candidate, in: ":\\")
            default: return candidate
            }
        }
    }

    /// Characters `compgen -W` leaves alone: letters and digits (any script's), and
    /// `. / = _ - + , @ %` (`:` too, which readline breaks words at but never expands).
    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./=_-+,@%:".unicodeScalars)

    static func bashWord(_ candidate: String) -> String {
        var word = ""
        for scalar in candidate.unicodeScalars {
            if scalar.isASCII && !plain.contains(scalar) { word.unicodeScalars.append("\\") }
            word.unicodeScalars.append(scalar)
        }
        return word
    }

    private static func escaping(_ candidate: String, in special: String) -> String {
        var word = ""
        for character in candidate {
            if special.contains(character) { word.append("\\") }
            word.append(character)
        }
        return word
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
