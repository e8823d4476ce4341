import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program the library runs to its end (pandoc, LibreOffice, pdftotext, zip), awaited without holding a thread,
/// within a deadline and a cap on what it writes.
///
/// `Process.waitUntilExit()` blocks the thread it is called on; called from async code that thread belongs to the
/// cooperative pool, which has one thread per core (two here), so one document export or source read stopped every
/// other task meanwhile. Here the child's termination handler resumes the waiting task instead.
///
/// A hostile file can hold a tool for minutes and gigabytes (a docx whose XML unpacks a thousandfold): past its
/// deadline, or once its output passes its cap, the tool's whole process group is killed (LibreOffice starts a
/// child of its own). So is the group of a tool still running when SIGTERM or SIGHUP ends lessonplan
/// (``EndingCleanup``): each child leads a group of its own, which a signal to lessonplan's group never reaches.
package enum ToolProcess {
    /// How a run ended, and what it wrote.
    package struct Result: Sendable {
        package var status: Int32
        /// Its stdout, and its stderr after it when they were merged.
        package var output: Data
        /// Its stderr when kept apart; empty when merged.
        package var errors: Data
        /// It was still running at its deadline, and was killed.
        package var timedOut = false
        /// Its output passed the cap, and it was killed.
        package var outputTooLarge = false
    }

    /// How long a tool may run and how much it may write, unless its caller says otherwise.
    package static let defaultDeadline: TimeInterval = 120
    package static let defaultLargestOutput = 256 * 1024 * 1024

    /// Runs `executable` with `arguments` to its end: stdin is `input` (or nothing), stdout and stderr go to files in
    /// `folder` (the owner's only, mode 0600) read after it exits, so no pipe can fill up and stall it.
    /// - Parameters:
    ///   - folder: where its input and output files are written; the caller makes it and removes it.
    ///   - directory: its working directory, if not this process's.
    ///   - environment: its environment, if not this process's.
    ///   - standardOutput: where its stdout goes instead of ``Result/output`` (a full disk, a closed pipe).
    ///   - mergingErrors: stderr into the same output as stdout, as a shell's `2>&1`.
    ///   - deadline: seconds it may run before its group is killed (``Result/timedOut``).
    ///   - largestOutput: bytes its stdout (and stderr) may reach before its group is killed (``Result/outputTooLarge``).
    /// - Throws: What `Process.run()` throws when it cannot start, or a file error for `folder`.
    package static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, scratch folder: URL, in directory: URL? = nil,
        environment: [String: String]? = nil, standardOutput: FileHandle? = nil, mergingErrors: Bool = false,
        deadline: TimeInterval = defaultDeadline, largestOutput: Int = defaultLargestOutput
    ) async throws -> Result {
        func file(_ name: String, _ contents: Data = Data()) throws -> URL {
            let url = folder.appending(path: "\(name)-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: url.path, contents: contents, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            return url
        }
        let out = try file("stdout")
        let err = try file("stderr")
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        if let input {
            process.standardInput = try FileHandle(forReadingFrom: try file("in", input))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = standardOutput ?? outHandle
        process.standardError = mergingErrors ? outHandle : errHandle
        let ended = try await end(of: process, deadline: deadline, watching: [out, err], largestOutput: largestOutput)
        var result = Result(status: ended.status, output: Data(), errors: Data(), timedOut: ended.timedOut, outputTooLarge: ended.tooLarge)
        // Read only as much as the cap allows, whatever the file grew to before the kill landed.
        result.output = read(out, limit: largestOutput)
        result.errors = read(err, limit: largestOutput)
        return result
    }

    /// Starts `process` and returns its exit status once its termination handler reports it (a signal's number
    /// when a signal ended it, as `terminationStatus` gives it); killed with its group past `deadline`.
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    package static func exitStatus(of process: Process, deadline: TimeInterval = defaultDeadline) async throws -> Int32 {
        try await end(of: process, deadline: deadline, watching: [], largestOutput: .max).status
    }

    /// How a watched run ended.
    struct Ended: Sendable {
        var status: Int32
        var timedOut: Bool
        var tooLarge: Bool
    }

    /// Runs `process`, checking every fifth of a second whether it is past `deadline` or a file of `watched` is past
    /// `largestOutput`, and killing its group if so; its group is tracked for ``EndingCleanup`` while it runs, and
    /// killed once it ends too, so nothing it started lives on.
    static func end(of process: Process, deadline: TimeInterval, watching watched: [URL], largestOutput: Int) async throws -> Ended {
        let watch = Watch()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in
                let group = ended.processIdentifier
                // Whatever it started and left behind goes with it.
                kill(-group, SIGKILL)
                watch.finished.withLock { done in
                    done = true
                    EndingCleanup.forget(group: group)
                }
                continuation.resume(returning: ended.terminationStatus)
            }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            let group = process.processIdentifier
            watch.finished.withLock { done in if !done { EndingCleanup.track(group: group) } }
            Task.detached {
                let started = ContinuousClock.now
                while !watch.finished.withLock({ $0 }) {
                    try? await Task.sleep(for: .milliseconds(200))
                    let late = deadline.isFinite && started.duration(to: .now) > .seconds(deadline)
                    let tooLarge = watched.contains { size(of: $0) > largestOutput }
                    guard late || tooLarge else { continue }
                    // Under the lock the termination handler takes before it resumes the run: the verdict is set
                    // before anyone reads it, and a group already reaped is never signalled.
                    watch.finished.withLock { done in
                        guard !done else { return }
                        watch.verdict.withLock { $0 = (timedOut: !tooLarge, tooLarge: tooLarge) }
                        kill(-group, SIGKILL)
                    }
                    return
                }
            }
        }
        let (timedOut, tooLarge) = watch.verdict.withLock { $0 }
        return Ended(status: status, timedOut: timedOut, tooLarge: tooLarge)
    }

    /// What the termination handler and the watcher share.
    final class Watch: Sendable {
        let verdict = Mutex<(timedOut: Bool, tooLarge: Bool)>((false, false))
        /// Set once it has ended: a handler that runs before `run()` returns must not leave its group tracked.
        let finished = Mutex(false)
    }

    private static func size(of url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// At most `limit` bytes of `url`.
    private static func read(_ url: URL, limit: Int) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
        defer { try? handle.close() }
        let count = min(size(of: url), limit)
        return count == 0 ? Data() : (try? handle.read(upToCount: count)) ?? Data()
    }
}
