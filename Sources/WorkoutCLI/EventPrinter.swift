import IntervalEngine

/// Prints each event as one line: JSON (`--json`) or plain text (not a terminal). A
/// listener like the others; `line` writes at once, or in blocks for a dry run.
final class EventPrinter: SessionListener {
    enum Format { case json, plain }

    private let format: Format
    private let line: (String) -> Void

    init(_ format: Format, line: @escaping (String) -> Void = Output.line) {
        self.format = format
        self.line = line
    }

    func receive(_ event: Event) {
        switch format {
        case .json: line(event.json.text)
        case .plain: if let text = PlainText.line(event) { line(text) }
        }
    }
}

/// Counts the run's hook errors: any makes the exit status 1.
final class ErrorCount: SessionListener {
    private(set) var value = 0

    func receive(_ event: Event) {
        if case .error = event.kind { value += 1 }
    }
}
