import CLua
import Foundation
import IntervalEngine

/// `require "name"`: finds `name.lua` in the routine's own directory and compiles it as
/// text. Only plain names are accepted — no paths, no `..`, no absolute names — and the
/// file must really be in that directory (a symbolic link that leads elsewhere is
/// refused), be a regular file (a FIFO would block the load forever) and fit in the
/// memory cap. The prelude's `require` runs the chunk in the same sandbox and caches
/// its result.
enum Modules {
    /// Pushes the compiled chunk, or `nil` and a message that the prelude raises at the
    /// routine's line (this function itself never raises).
    static let find: workout_SwiftFunction = { L in
        let stack = LuaStack(L)
        let state = LuaState.from(L)
        let outcome = locate(stack, state)
        switch outcome {
        case let .failure(message):
            stack.pushNil()
            stack.push(message)
            return 2
        case let .success(source, fileName):
            let status = source.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                    workout_loadtext(stack.L, $0, buffer.count, "@" + fileName)
                }
            }
            if status != LUA_OK {
                // The message (a syntax error with its line) is on the stack.
                stack.pushNil()
                lua_rotate(stack.L, -2, 1)
                return 2
            }
            return 1
        }
    }

    /// `"file.lua:12: "` for the routine's line that called `require`: the first Lua
    /// frame that is not the prelude (a tail call `return require "x"` leaves no frame,
    /// and then the next one up is named, or nothing).
    static let callerPosition: workout_SwiftFunction = { L in
        workout_where(L)
        return 1
    }

    /// Where a module was found (its bytes and path), or why not.
    private enum Location {
        case success([UInt8], String)
        case failure(String)
    }

    /// `helpers`, `hiit_parts`, `intervals-2`: a letter, digit or `_` first.
    static func isModuleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64 else { return false }
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_")
        }
        return allowed(first) && name.unicodeScalars.allSatisfy { allowed($0) || $0 == "-" }
    }

    private static func locate(_ stack: LuaStack, _ state: LuaState) -> Location {
        guard let name = stack.string(at: 1) else {
            return .failure("require: the module name must be a string such as \"helpers\", got \(stack.describe(at: 1))")
        }
        guard isModuleName(name) else {
            return .failure("require: \(stack.describe(at: 1)) is not a module name "
                            + "(write require \"name\" to load name.lua from the routine's directory)")
        }
        let fileName = name + ".lua"
        guard let directory = state.directory else {
            return .failure("require: cannot load \(fileName): this routine was not loaded from a file")
        }
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard let real = realPath(path) else {
            return .failure("require: no module \"\(name)\" (looked for \(fileName) beside the routine)")
        }
        guard let home = realPath(directory), (real as NSString).deletingLastPathComponent == home else {
            return .failure("require: \(fileName) leads outside the routine's directory")
        }
        do {
            return .success(try RoutineFile.read(real), fileName)
        } catch .notRegular, .directory {
            return .failure("require: \(fileName) is not a regular file")
        } catch let .tooBig(size) {
            return .failure("require: \(fileName) is too big (\(size) bytes; a module may be at most \(RoutineFile.maximumSize / 1_048_576) MiB)")
        } catch {
            return .failure("require: cannot read \(fileName)")
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
