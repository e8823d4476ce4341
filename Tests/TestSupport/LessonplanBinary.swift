import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `lessonplan` executable the way a teacher or a script would: real process,
/// real pipes, a temporary data directory.
package struct LessonplanBinary: Sendable {
    /// What one run printed and how it ended.
    package struct Result: Sendable {
        package var stdout: String
        package var stderr: String
        package var status: Int32
    }

    package let url: URL
    /// A fresh temporary `LESSONPLAN_HOME` for this run's sessions.
    package let home: URL
    package var environment: [String: String]

    /// Finds the binary next to the test bundle (SwiftPM builds both into the same folder).
    package init(baseURL: URL?, apiKey: String? = "sk-test.SECRETKEY-9z8y7x6w5v") throws {
        PipeWrites.failQuietly()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "lessonplan"),
            Bundle.main.bundleURL.deletingLastPathComponent().appending(path: "lessonplan"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appending(path: ".build/debug/lessonplan"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0].path])
        }
        url = found
        home = FileManager.default.temporaryDirectory.appending(path: "lessonplan-e2e-\(UUID().uuidString)")
        var environment = [
            "LESSONPLAN_HOME": home.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
        ]
        if let apiKey { environment["OPENAI_API_KEY"] = apiKey }
        if let baseURL { environment["OPENAI_BASE_URL"] = baseURL.absoluteString }
        self.environment = environment
    }

    /// The API key the runs use, to check that it is written nowhere.
    package var apiKey: String? { environment["OPENAI_API_KEY"] }

    /// Runs to completion with `input` on stdin.
    package func run(_ arguments: [String], input: String = "", timeout: Duration = .seconds(60)) async throws -> Result {
        let running = try start(arguments)
        running.write(input)
        running.closeInput()
        return try await running.wait(timeout: timeout)
    }

    /// Runs a `sh -c` command line with this binary's environment (a pipeline such as `… | grep x`); its stdout.
    package func runShell(_ command: String, timeout: Duration = .seconds(60)) async throws -> String {
        let running = try start(["-c", command], executable: URL(fileURLWithPath: "/bin/sh"))
        running.closeInput()
        return try await running.wait(timeout: timeout).stdout
    }

    /// Runs to completion at a terminal `columns` wide (util-linux `script` gives it one): stdin, stdout
    /// and stderr are that terminal, so `stdout` holds both streams as a person sees them, line ends as LF.
    package func runAtTerminal(_ arguments: [String], columns: Int = 80, timeout: Duration = .seconds(60)) async throws -> Result {
        let quoted = ([url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var terminal = self
        terminal.environment["SHELL"] = "/bin/sh"
        let running = try terminal.start(
            ["-qec", "stty cols \(columns) rows 50; exec \(quoted.joined(separator: " "))", "/dev/null"],
            executable: URL(fileURLWithPath: "/usr/bin/script"))
        running.closeInput()
        var result = try await running.wait(timeout: timeout)
        result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return result
    }

    /// Runs to completion with stdin read from a regular file, as `lessonplan … < lesson.txt` does.
    package func run(_ arguments: [String], stdinFile: URL, timeout: Duration = .seconds(60)) async throws -> Result {
        let running = try start(
            ["-c", #"file=$1; shift; exec "$@" < "$file""#, "sh", stdinFile.path, url.path] + arguments,
            executable: URL(fileURLWithPath: "/bin/sh"))
        running.closeInput()
        return try await running.wait(timeout: timeout)
    }

    /// Runs to completion and reports the process's peak resident memory (its high-water mark,
    /// as the kernel counts it in `wait4`'s rusage), in MiB.
    ///
    /// A small python3 parent forks and execs the binary and waits for it, so the figure is the
    /// binary's own whole-life peak, not a sample. (The kernel's number also covers the moment
    /// between fork and exec, a copy of the small python parent: it can only read high.)
    package func runMeasuringPeakMemory(_ arguments: [String], input: String = "", timeout: Duration = .seconds(120))
        async throws -> (result: Result, peakMiB: Double)
    {
        let report = FileManager.default.temporaryDirectory.appending(path: "lessonplan-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let running = try start(
            ["python3", "-c", Self.peakMemoryWrapper, report.path, url.path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/env"))
        running.write(input)
        running.closeInput()
        let result = try await running.wait(timeout: timeout)
        let text = try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let kibibytes = Double(text) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no peak memory in \(text)"])
        }
        return (result, kibibytes / 1024)
    }

    /// Forks, execs argv[2:], waits with wait4 and writes the child's ru_maxrss (KiB) to argv[1];
    /// exits as the child did. A SIGTERM (the test's hang guard) kills the child too.
    private static let peakMemoryWrapper = """
        import os, signal, sys
        report, argv = sys.argv[1], sys.argv[2:]
        pid = os.fork()
        if pid == 0:
            os.execv(argv[0], argv)
        def stop(*_):
            os.kill(pid, signal.SIGKILL)
        signal.signal(signal.SIGTERM, stop)
        _, status, usage = os.wait4(pid, 0)
        with open(report, "w") as out:
            out.write(str(usage.ru_maxrss))
        code = os.waitstatus_to_exitcode(status)
        sys.exit(code if code >= 0 else 128 - code)
        """

    /// Starts the binary and leaves stdin open, for tests that interrupt it mid-turn.
    package func start(_ arguments: [String]) throws -> Running {
        try start(arguments, executable: url)
    }

    private func start(_ arguments: [String], executable: URL) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        // A folder of its own to run in, so a file it writes by a relative name never lands in the repository.
        let folder = home.appending(path: "work")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process.currentDirectoryURL = folder
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let running = Running(process: process, stdin: stdin, stdout: stdout, stderr: stderr)
        try process.run()
        return running
    }

    /// Every file under the data directory with its contents, for checking what was written.
    package func writtenFiles() -> [(path: String, contents: String)] {
        guard let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let file as URL in enumerator {
            if let data = try? Data(contentsOf: file) { files.append((file.path, String(decoding: data, as: UTF8.self))) }
        }
        return files
    }

    /// The lines of the only (or newest) transcript, parsed as JSON objects.
    package func transcriptLines() throws -> [[String: Any]] {
        let sessions = home.appending(path: "sessions")
        let files = try FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: [.contentModificationDateKey])
            .filter { $0.pathExtension == "jsonl" }
        let newest = files.max { a, b in
            let da = (try? a.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            let db = (try? b.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            return da < db
        }
        guard let newest else { return [] }
        let text = try String(contentsOf: newest, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    package func removeHome() { try? FileManager.default.removeItem(at: home) }
}

/// A running `lessonplan` process whose output is collected as it arrives.
package final class Running: @unchecked Sendable {
    private let process: Process
    private let stdin: Pipe
    private let stdoutPipe: Pipe
    private let stderrPipe: Pipe
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    init(process: Process, stdin: Pipe, stdout: Pipe, stderr: Pipe) {
        self.process = process
        self.stdin = stdin
        stdoutPipe = stdout
        stderrPipe = stderr
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.out.append(data) }
        }
        stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.err.append(data) }
        }
    }

    package var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    package var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
    package var pid: Int32 { process.processIdentifier }

    package func write(_ text: String) {
        PipeWrites.failQuietly()
        try? stdin.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    package func closeInput() { try? stdin.fileHandleForWriting.close() }

    /// Sends SIGINT, as Ctrl-C in a terminal would.
    package func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Waits until stdout contains `text` (after the first `after`, when given).
    package func waitForOutput(_ text: String, after: String? = nil, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        func seen() -> Bool {
            let output = stdout
            guard let after else { return output.contains(text) }
            guard let range = output.range(of: after) else { return false }
            return output[range.upperBound...].contains(text)
        }
        while !seen() {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "never printed \(text); stdout: \(stdout) stderr: \(stderr)"])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until stderr contains `text`: a retry notice, an error sentence.
    package func waitForError(_ text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !stderr.contains(text) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw CocoaError(
                    .executableLoad, userInfo: [NSLocalizedDescriptionKey: "never printed \(text) on stderr; stdout: \(stdout) stderr: \(stderr)"])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the process to exit (killing it after `timeout`) and returns what it printed.
    package func wait(timeout: Duration = .seconds(60)) async throws -> LessonplanBinary.Result {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw CocoaError(
                    .executableLoad, userInfo: [NSLocalizedDescriptionKey: "lessonplan did not exit; stdout: \(stdout) stderr: \(stderr)"])
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Take over from the readability handlers and drain what is left in the pipes.
        stdoutPipe.fileHandleForReading.readabilityHandler = nil
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = stderrPipe.fileHandleForReading.readDataToEndOfFile()
        lock.withLock {
            out.append(restOut)
            err.append(restErr)
        }
        return LessonplanBinary.Result(stdout: stdout, stderr: stderr, status: process.terminationStatus)
    }
}

/// A child that exits before reading its input (a refused flag) closes its end of the pipe: a write to it must fail
/// with EPIPE, as in the tool itself (main.swift), not kill the whole test process with SIGPIPE (it did, once in
/// many runs, taking every test's result with it). Called wherever the tests start or feed a child.
package enum PipeWrites {
    private static let ignored: Void = { signal(SIGPIPE, SIG_IGN) }()

    package static func failQuietly() { _ = ignored }
}
