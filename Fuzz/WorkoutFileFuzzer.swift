// libFuzzer target: arbitrary bytes as a Zwift .zwo file, as intervals.icu workout text, as a FIT workout
// and as an .erg and .mrc course (every `WorkoutFormat`), through `workout import` and `workout export`;
// and, where they are JSON, as a planned event's workout_doc (`workout run today`, `WorkoutDocReader`). Built by Fuzz/build.sh files; `make test`
// runs it briefly beside the routine fuzzer. Besides no crash and no hang, it checks what
// the commands promise: an error or warning names the file and holds no control
// character; what a reader accepts becomes a routine that loads; and that routine,
// exported to each format, reads back with the same segments and durations (FIT's to the
// millisecond it keeps; a distance step its metres, where the format holds them).
import Interchange
import IntervalEngine
import LuaBridge
import WorkoutValues

private let limits = LuaLimits(loadInstructions: 20_000_000, hookInstructions: 200_000,
                               loadSeconds: 5, hookSeconds: 0.5, memory: 32 * 1024 * 1024)

private func printable(_ text: String) -> Bool {
    !text.unicodeScalars.contains { VisibleText.isControl($0) }
}

private func read(_ format: WorkoutFormat, _ bytes: [UInt8], file: String) throws(WorkoutFileError) -> (WorkoutFile, warnings: [String]) {
    switch format {
    case .zwo: try ZwiftReader.read(bytes, file: file)
    case .icu: try IntervalsReader.read(bytes, file: file)
    case .fit: try FITWorkoutReader.read(bytes, file: file)
    case .erg, .mrc: try CourseReader.read(bytes, file: file)
    }
}

private func written(_ format: WorkoutFormat, _ workout: WorkoutFile) -> [UInt8] {
    switch format {
    case .zwo: Array(ZwiftWriter.text(workout).text.utf8)
    case .icu: Array(IntervalsWriter.text(workout).text.utf8)
    case .fit: FITWorkoutWriter.bytes(workout).bytes
    // An FTP, so that a course in either unit writes.
    case .erg: Array(((try? CourseWriter.text(workout, format: .erg, ftp: 250))?.text ?? "").utf8)
    case .mrc: Array(((try? CourseWriter.text(workout, format: .mrc, ftp: 250))?.text ?? "").utf8)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for format in WorkoutFormat.allCases {
        let name = "fuzz.\(format == .icu ? "txt" : format.rawValue)"
        let file: WorkoutFile
        do {
            let (read, warnings) = try read(format, bytes, file: name)
            for warning in warnings {
                precondition(warning.hasPrefix(name + ":") && printable(warning), "a warning: \(warning)")
            }
            file = read
        } catch {
            // A FIT file has no lines: its errors name the file and the step.
            let place = format == .fit ? "\(name): " : "\(name):\(error.line): "
            precondition(error.description.hasPrefix(place) && (error.line >= 1 || format == .fit) && printable(error.description),
                         "an error: \(error.description)")
            continue
        }
        let lua = ImportedRoutine.text(file, routineName: "fuzz", source: name, format: format)
        precondition(lua.unicodeScalars.allSatisfy { $0 == "\n" || !VisibleText.isControl($0) }, "a control character in the Lua")
        let routine: Routine
        do {
            routine = try RoutineLoader.load(source: lua, fileName: "fuzz.lua", limits: limits)
        } catch {
            // Loading may only run out of the (small) limits; the routine itself is sound.
            precondition(error.message.contains("limit"), "the imported routine does not load: \(error.message)\n\(lua)")
            continue
        }
        guard routine.timeline.count <= 20_000, let (exported, _) = try? RoutineExport.workoutFile(routine, for: .icu),
              let (exportedFIT, _) = try? RoutineExport.workoutFile(routine, for: .fit) else { continue }
        for back in WorkoutFormat.allCases {
            let bytes = written(back, back == .fit ? exportedFIT : exported)
            // A course whose power at the FTP used would be out of range is not written.
            guard !bytes.isEmpty else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let (again, _) = try? read(back, bytes, file: "again") else {
                preconditionFailure("our own \(back) does not read back:\n\(text)")
            }
            // FIT and the courses keep milliseconds.
            let slack = [.fit, .erg, .mrc].contains(back) ? 0.001 : 0
            // A distance step keeps its metres where the format holds distances (its time is
            // an estimate at a pace, which a format may not keep); elsewhere it is written
            // as the time it is expected to take, and keeps that.
            let planned = routine.timeline.segments
            precondition(again.unrolled.count == planned.count && zip(again.unrolled, planned).allSatisfy { step, segment in
                if let metres = segment.open?.distance, let kept = step.distance { return abs(kept - metres) <= 0.5 }
                return abs(step.duration - segment.duration) <= slack
            }, "\(back) changed the segments:\n\(text)")
            if back == .zwo {
                precondition(again.unrolled.map(\.name) == routine.timeline.segments.map(\.name), "zwo changed a name:\n\(text)")
                precondition(again.unrolled.map(\.kind) == routine.timeline.segments.map(\.kind), "zwo changed a kind:\n\(text)")
            }
        }
    }
    plannedDoc(bytes)
    return 0
}

/// The bytes as intervals.icu's workout_doc: a message names the event, and what reads
/// becomes a routine that loads.
private func plannedDoc(_ bytes: [UInt8]) {
    guard let doc = bytes.withUnsafeBufferPointer({ JSONReader.value($0) }) else { return }
    let place = "intervals.icu event 1"
    let file: WorkoutFile
    do {
        let (read, warnings) = try WorkoutDocReader.read(doc, name: "Fuzz", place: place)
        for warning in warnings { precondition(warning.hasPrefix(place + ": ") && printable(warning), "a warning: \(warning)") }
        file = read
    } catch {
        precondition(error.description.hasPrefix(place + ": ") && printable(error.description), "an error: \(error.description)")
        return
    }
    let lua = ImportedRoutine.planned(file, event: place)
    do {
        _ = try RoutineLoader.load(source: lua, fileName: "today", limits: limits)
    } catch {
        precondition(error.message.contains("limit"), "the planned routine does not load: \(error.message)\n\(lua)")
    }
}
