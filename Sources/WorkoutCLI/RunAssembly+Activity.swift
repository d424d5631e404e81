import Activity
import Foundation
import History
import IntervalEngine
import Platform

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
        // One warning, and the history line (written before) stays: the samples are kept
        // and `history export` can write the file again once there is room.
        do throws(SavedFile.Failure) {
            try SavedFile.makeFolder(folder)
            let bytes = FITActivity.encode(activity, creator: FITActivity.Creator(name: "workout", version: Version.number))
            try SavedFile.write(bytes, to: path)
        } catch {
            Output.error("workout: the FIT file was not written: \(error)")
            return
        }
        if !request.json { Output.line("Wrote \(path.visible).") }
    }
}
