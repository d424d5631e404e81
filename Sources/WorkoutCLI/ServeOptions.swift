import ArgumentParser
import Foundation
import IntervalEngine
import Serving

/// `run --serve [ADDRESS]` and `--new-token`: the workout as a web page and an HTTP API
/// for a phone, a tablet or a script.
struct ServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve the workout as a web page and HTTP API on ADDRESS: HOST:PORT, :PORT or PORT "
            + "(default \(ServeAddress.standard); 0 picks a free port). Only this machine can reach "
            + "it unless you name another address, such as 0.0.0.0:\(ServeAddress.defaultPort).",
        valueName: "address"))
    var serve: String?

    @Flag(help: "With --serve: make a new access token (devices with the old page address lose access).")
    var newToken = false

    func validate() throws {
        if newToken && serve == nil {
            throw ValidationError("--new-token goes with --serve")
        }
        if let serve {
            do {
                _ = try ServeAddress(parsing: serve)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    var address: ServeAddress? {
        serve.flatMap { try? ServeAddress(parsing: $0) }
    }

    /// Whether the arguments ask to serve (before a `--`).
    static func asksToServe(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--serve" || argument.hasPrefix("--serve=") { return true }
        }
        return false
    }

    /// `--serve` takes its address only when one follows: `run --serve hiit` and `run hiit
    /// --serve` both serve on the default address. ArgumentParser has no option whose
    /// value may be left out, so the default is written in before it parses.
    static func expand(_ arguments: [String]) -> [String] {
        var expanded: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                expanded += arguments[(index - 1)...]
                break
            }
            guard argument == "--serve" else {
                expanded.append(argument)
                continue
            }
            if index < arguments.count, ServeAddress.looksLikeAddress(arguments[index]) {
                expanded += [argument, arguments[index]]
                index += 1
            } else {
                expanded.append("--serve=\(ServeAddress.standard)")
            }
        }
        return expanded
    }
}
