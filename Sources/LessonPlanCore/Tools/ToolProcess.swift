import Foundation

/// A program the library runs to its end (pandoc, LibreOffice, pdftotext), awaited without holding a thread.
///
/// `Process.waitUntilExit()` blocks the thread it is called on; called from async code that thread belongs to the
/// cooperative pool, which has one thread per core (two here), so one document export or source read stopped every
/// other task meanwhile. Here the child's termination handler resumes the waiting task instead.
public enum ToolProcess {
    /// Starts `process` and returns its exit status once its termination handler reports it (a signal's number
    /// when a signal ended it, as `terminationStatus` gives it).
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    public static func exitStatus(of process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in continuation.resume(returning: ended.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
