import Foundation
import XCTest

/// The README is short and links into docs/ for everything in full, and several people
/// move text between the pages: every relative link must lead to a file that exists and,
/// with a `#fragment`, to a heading of that file (as GitHub makes a heading's anchor).
final class DocLinksTests: XCTestCase {
    func testEveryLinkBetweenTheDocsLeadsToAFileAndAHeading() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let pages = ["README.md", "BENCHMARKS.md"] + docs.sorted()
        XCTAssertTrue(pages.contains("docs/cli.md") && pages.contains("docs/routines.md"), "\(pages)")
        var checked = 0
        for page in pages {
            for target in DocLinks.links(in: try Self.read(page)) {
                checked += 1
                let (path, fragment) = DocLinks.split(target)
                let file = path.isEmpty ? page : DocLinks.resolve(path, from: page)
                guard FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(file).path) else {
                    XCTFail("\(page): (\(target)) leads to no file")
                    continue
                }
                if let fragment, file.hasSuffix(".md") {
                    XCTAssertTrue(DocLinks.anchors(in: try Self.read(file)).contains(fragment),
                                  "\(page): (\(target)) names no heading of \(file)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 50, "the links were not found")
    }

    func testAnchorsAreMadeAsGitHubMakesThem() {
        XCTAssertEqual(DocLinks.anchors(in: "## On a phone or another screen (`--serve`)\n"),
                       ["on-a-phone-or-another-screen---serve"])
        XCTAssertEqual(DocLinks.anchors(in: "## `run`'s options\n### Limits\n## Limits\n"),
                       ["runs-options", "limits", "limits-1"])
        XCTAssertEqual(DocLinks.anchors(in: "```\n# not a heading\n```\n"), [])
        XCTAssertEqual(DocLinks.links(in: "see [a](docs/cli.md#keys), [b](https://x.org) `[c](d.md)`\n```\n[e](f.md)\n```\n"),
                       ["docs/cli.md#keys"])
    }

    static func read(_ page: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
    }
}

/// Relative links and heading anchors of a Markdown page, outside code.
enum DocLinks {
    /// The targets of `[text](target)` links that are not URLs, outside fenced blocks and
    /// code spans.
    static func links(in markdown: String) -> [String] {
        var targets: [String] = []
        for line in prose(markdown) {
            let text = line.replacingOccurrences(of: #"`[^`]*`"#, with: "", options: .regularExpression)
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = String(after[..<close])
                if !target.contains(":"), !target.contains(" ") { targets.append(target) }
                rest = after[close...]
            }
        }
        return targets
    }

    /// GitHub's anchors: the heading in lower case, without punctuation other than `-` and
    /// `_`, spaces as `-`; a repeated anchor gets `-1`, `-2`….
    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose(markdown) {
            guard line.hasPrefix("#") else { continue }
            let hashes = line.prefix { $0 == "#" }
            guard hashes.count <= 6, line.dropFirst(hashes.count).first == " " else { continue }
            let title = line.dropFirst(hashes.count).trimmingCharacters(in: .whitespaces).lowercased()
            let slug = String(title.filter { $0.isLetter || $0.isNumber || " -_".contains($0) })
                .replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// `docs/cli.md#keys` → (`docs/cli.md`, `keys`).
    static func split(_ target: String) -> (path: String, fragment: String?) {
        guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
        return (String(target[..<hash]), String(target[target.index(after: hash)...]))
    }

    /// A path relative to the page that links it, as a path from the package's root.
    static func resolve(_ path: String, from page: String) -> String {
        var parts = page.split(separator: "/").dropLast().map(String.init)
        for part in path.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }

    /// The lines outside fenced code blocks.
    static func prose(_ markdown: String) -> [String] {
        var inFence = false
        return markdown.components(separatedBy: "\n").filter { line in
            if line.hasPrefix("```") { inFence.toggle(); return false }
            return !inFence
        }
    }
}
