import Foundation
import Synchronization

/// A helper server the tests start as a child process: it listens on 127.0.0.1 and prints
/// `PORT <n>` as its first line. The one runner for `fake_openai.py` and `worker_host.mjs`.
///
/// The child gets a pipe as stdin and is started with a flag that makes it exit when that pipe
/// closes, so it dies with the test process even if that is killed.
package final class LoopbackProcess: Sendable {
    /// Why a helper could not be started.
    package enum LaunchError: Error, CustomStringConvertible {
        case missingProgram(name: String, hint: String)
        case noPortLine(name: String, output: String)

        package var description: String {
            switch self {
            case .missingProgram(let name, let hint): "\(name) is not installed or not on PATH; \(hint)"
            case .noPortLine(let name, let output): "\(name) did not print its port; it printed: \(output)"
            }
        }
    }

    /// The port on 127.0.0.1.
    package let port: Int
    /// `http://127.0.0.1:<port>`.
    package let rootURL: URL

    private let process: Process
    private let stdinPipe: Pipe
    private let stopped = Mutex(false)
    /// Fired by the process's termination handler, so ``stop(wait:)`` awaits the exit without a thread.
    private let exited: ExitSignal

    /// Starts `program` (looked up on PATH) with `arguments` and waits for its port line.
    /// - Parameters:
    ///   - name: how failures name the helper.
    ///   - hint: what to do when the program is missing, e.g. which script installs it.
    package init(program: String, arguments: [String], name: String, hint: String) async throws {
        guard let executable = Self.find(program) else { throw LaunchError.missingProgram(name: program, hint: hint) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardInput = stdin
        process.standardError = FileHandle.standardError
        let exited = ExitSignal()
        process.terminationHandler = { _ in exited.fire() }
        try process.run()

        let line = await Self.firstLine(of: stdout.fileHandleForReading)
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst("PORT ".count)),
            let rootURL = URL(string: "http://127.0.0.1:\(port)")
        else {
            process.terminate()
            throw LaunchError.noPortLine(name: name, output: line)
        }
        self.process = process
        self.stdinPipe = stdin
        self.exited = exited
        self.port = port
        self.rootURL = rootURL
    }

    deinit {
        end()
    }

    /// Ends the process (its stdin closed, then SIGTERM) without waiting for it to go; only the first call acts.
    package func end() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? stdinPipe.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
        }
    }

    /// Ends the process; with `wait`, returns only once it is gone and its port is closed.
    package func stop(wait: Bool = true) async {
        end()
        if wait { await exited.wait() }
    }

    /// The program's path on PATH, or nil when it is not installed.
    static func find(_ program: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appending(path: program)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Reads up to the first newline (or EOF) off the calling task's thread, since reads block.
    private static func firstLine(of handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                let text = String(decoding: data, as: UTF8.self)
                continuation.resume(returning: String(text.prefix { $0 != "\n" }))
            }
        }
    }
}
