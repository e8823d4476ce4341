import Foundation
import LessonPlanCore
import Synchronization

/// A tool the tests run to its end (python3, pandoc, LibreOffice, Chromium, pdftotext) without holding a thread
/// while it runs. `waitUntilExit()` blocks its thread, and the tests' async functions run on the cooperative
/// pool, which has one thread per core (two here): two waiting tools stopped every other test meanwhile.
package enum ChildProcess {
    /// How a run ended, and what it wrote.
    package struct Result: Sendable {
        package var status: Int32
        /// Its stdout, and its stderr after it when they were merged.
        package var output: String
        /// Its stderr when kept apart; empty when merged.
        package var errors: String
    }

    /// Runs `executable` with `arguments` and awaits its exit; stdin is `input` (or nothing), stdout and stderr go
    /// to files read after it exits, so no pipe can fill up and stall it.
    /// - Parameters:
    ///   - directory: its working directory, if not this process's.
    ///   - environment: its environment, if not this process's.
    ///   - standardOutput: where its stdout goes instead of ``Result/output`` (a full disk, a closed pipe).
    ///   - mergingErrors: stderr into the same output as stdout, as a shell's `2>&1`.
    /// - Throws: What `Process.run()` throws when it cannot start, or a file error for its scratch folder.
    package static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
        environment: [String: String]? = nil, standardOutput: FileHandle? = nil, mergingErrors: Bool = true
    ) async throws -> Result {
        PipeWrites.failQuietly()
        let folder = FileManager.default.temporaryDirectory.appending(path: "child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ran = try await ToolProcess.run(
            executable, arguments, input: input, scratch: folder, in: directory, environment: environment,
            standardOutput: standardOutput, mergingErrors: mergingErrors, deadline: .infinity, largestOutput: .max)
        // Decoded as a pipe's bytes would be: a stray invalid byte becomes U+FFFD rather than losing the text.
        return Result(
            status: ran.status, output: String(decoding: ran.output, as: UTF8.self),
            errors: String(decoding: ran.errors, as: UTF8.self))
    }

}

/// A child's exit as something to await: its termination handler fires it, and a waiter holds no thread.
final class ExitSignal: Sendable {
    private let state = Mutex<(exited: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Called once the child has exited (and been reaped).
    func fire() {
        let waiting = state.withLock { state in
            state.exited = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once ``fire()`` has been called, at once if it already was.
    func wait() async {
        await withCheckedContinuation { continuation in
            let exited = state.withLock { state in
                if !state.exited { state.waiting.append(continuation) }
                return state.exited
            }
            if exited { continuation.resume() }
        }
    }
}
