import Foundation
import IntervalEngine

/// After a recorded run: where the session's samples are and how to export them, and
/// the FIT file of `--export-fit`.
extension RunAssembly {
    func reportActivity() {
        if let failure = activity?.failure {
            Output.error("workout: \(failure)")
        }
        if let path = activity?.path, !request.json {
            Output.line("Samples kept in \(path.visible); export the session with: "
                        + "workout history export last --format fit")
        }
        guard let folder = request.exportFit, let entry = history?.entry else { return }
        let historyFile = request.history ?? HistoryFile(environment: Terminal.environment)
        let (activity, warning) = ActivityExport.activity(entry, beside: historyFile)
        if let warning { Output.error("workout: \(warning)") }
        let path = (folder as NSString).appendingPathComponent(ActivityExport.fileName(entry, format: .fit))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let bytes = FITActivity.encode(activity, creator: FITActivity.Creator(name: "workout", version: Version.number))
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            Output.error("workout: the FIT file was not written: \(path): \(error.localizedDescription)")
            return
        }
        if !request.json { Output.line("Wrote \(path.visible).") }
    }
}
