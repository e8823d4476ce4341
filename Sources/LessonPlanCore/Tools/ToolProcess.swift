import Foundation

/// A program the library runs to its end (pandoc, LibreOffice, pdftotext), awaited without holding a thread.
///
/// `Process.waitUntilExit()` blocks the thread it is called on; called from async code that thread belongs to the
/// cooperative pool, which has one thread per core (two here), so one document export or source read stopped every
/// other task meanwhile. Here the child's termination handler resumes the waiting task instead.
public enum ToolProcess {
    /// How a run ended, and what it wrote.
    public struct Result: Sendable {
        public var status: Int32
        /// Its stdout, and its stderr after it when they were merged.
        public var output: Data
        /// Its stderr when kept apart; empty when merged.
        public var errors: Data
    }

    /// Runs `executable` with `arguments` to its end: stdin is `input` (or nothing), stdout and stderr go to files in
    /// `folder` (the owner's only, mode 0600) read after it exits, so no pipe can fill up and stall it.
    /// - Parameters:
    ///   - folder: where its input and output files are written; the caller makes it and removes it.
    ///   - directory: its working directory, if not this process's.
    ///   - environment: its environment, if not this process's.
    ///   - standardOutput: where its stdout goes instead of ``Result/output`` (a full disk, a closed pipe).
    ///   - mergingErrors: stderr into the same output as stdout, as a shell's `2>&1`.
    /// - Throws: What `Process.run()` throws when it cannot start, or a file error for `folder`.
    public static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, scratch folder: URL, in directory: URL? = nil,
        environment: [String: String]? = nil, standardOutput: FileHandle? = nil, mergingErrors: Bool = false
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
        let status = try await exitStatus(of: process)
        return Result(
            status: status, output: (try? Data(contentsOf: out)) ?? Data(), errors: (try? Data(contentsOf: err)) ?? Data())
    }

    /// Starts `process` and returns its exit status once its termination handler reports it (a signal's number
    /// when a signal ended it, as `terminationStatus` gives it).
    /// - Parameter started: told the child's pid once it runs, for a caller that must be able to end it.
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    public static func exitStatus(of process: Process, started: (pid_t) -> Void = { _ in }) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in continuation.resume(returning: ended.terminationStatus) }
            do {
                try process.run()
                started(process.processIdentifier)
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
