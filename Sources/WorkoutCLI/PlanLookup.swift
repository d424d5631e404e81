import Foundation
import IntervalEngine
import Platform

/// Finds a training plan: a path as given, else `NAME` or `NAME.lua` in the user's plans
/// (`$XDG_CONFIG_HOME/workout/plans`), else among the bundled plans (`programs/plans`),
/// as `RoutineLookup` finds a routine.
enum PlanLookup {
    static var userPlans: String { UserDirectories(environment: Terminal.environment).config("plans") }

    static var bundledPlans: String? {
        BundledPrograms.directory.map { ($0 as NSString).appendingPathComponent("plans") }
    }

    static func resolve(_ plan: String) throws(RoutineError) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: plan, isDirectory: &isDirectory), !isDirectory.boolValue { return plan }
        guard !plan.contains("/") else { throw RoutineError("\(plan): no such plan file") }
        for directory in [userPlans, bundledPlans].compactMap({ $0 }) {
            for name in [plan, plan + ".lua"] {
                let candidate = (directory as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
            }
        }
        let bundled = bundledPlans.map { ", then in \($0)" } ?? ""
        throw RoutineError("\(plan): no such plan; looked for a file, then in \(userPlans)\(bundled)")
    }
}
