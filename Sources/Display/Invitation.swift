/// `run --serve`'s invitation on the live display: the page's URL and its QR code, for a
/// phone's camera. Shown in the first segment until the next one starts or `?` is
/// pressed.
public struct Invitation: Equatable, Sendable {
    public var url: String
    /// The QR code's modules, row by row, true for dark; empty when there is none.
    public var modules: [[Bool]]

    public init(url: String, modules: [[Bool]]) {
        self.url = url
        self.modules = modules
    }

    /// Light modules of quiet zone around the code (the standard's 4 would not fit a
    /// small terminal; phone cameras read 2 well).
    static let quietZone = 2

    /// The code in half blocks, two modules a row: light modules are ink (`█`, drawn
    /// white on black where colour is on), so the code reads right on a dark terminal.
    /// Empty with ASCII glyphs, which have no half blocks.
    public func picture(glyphs: Glyphs) -> [Line] {
        guard !modules.isEmpty, glyphs == .unicode else { return [] }
        let size = modules.count + 2 * Invitation.quietZone
        func light(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - Invitation.quietZone, column - Invitation.quietZone)
            guard r >= 0, c >= 0, r < modules.count, c < modules[r].count else { return true }
            return !modules[r][c]
        }
        var lines: [Line] = []
        for top in stride(from: 0, to: size, by: 2) {
            var text = ""
            for column in 0..<size {
                let upper = light(top, column)
                let lower = top + 1 < size ? light(top + 1, column) : false
                text += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
            }
            lines.append(Line(text, "97;40"))
        }
        return lines
    }

    /// Columns and rows the picture takes.
    public var pictureSize: ScreenSize {
        let size = modules.isEmpty ? 0 : modules.count + 2 * Invitation.quietZone
        return ScreenSize(columns: size, rows: (size + 1) / 2)
    }
}
