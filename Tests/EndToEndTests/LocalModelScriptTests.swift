import Foundation
import Testing
import TestSupport

/// `scripts/local-model` trusts nothing it did not start: a pid file naming another program, or a port that is
/// not a port, gets a sentence and no harm (issue #20). No model is installed for these: they run before any.
@Suite struct LocalModelScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "scripts/local-model")

    static func run(_ arguments: [String], home: URL, port: String? = nil) async throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["LESSONPLAN_HOME"] = home.path
        environment["LESSONPLAN_LOCAL_PORT"] = port ?? "18019"
        return try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments, environment: environment)
    }

    @Test(arguments: ["abc", "0", "65536", "-1", "80a"])
    func aPortThatIsNotAPortIsRefused(port: String) async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        for command in ["status", "start", "stop"] {
            let result = try await Self.run([command], home: home, port: port)
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.output.contains("LESSONPLAN_LOCAL_PORT must be a port number from 1 to 65535"), "\(result.output)")
        }
    }

    /// A stale pid file that names a `tail -f llama-server.log` (its command line says llama-server) is not the
    /// server: `stop` leaves that process alone and `status` does not call it running.
    @Test func aStalePidFileNamingAnotherProgramIsNotTrusted() async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-pid-\(UUID().uuidString)")
        let folder = home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let log = folder.appending(path: "llama-server.log")
        try Data("started\n".utf8).write(to: log)
        let tail = Process()
        tail.executableURL = URL(fileURLWithPath: "/usr/bin/tail")
        tail.arguments = ["-f", log.path]
        tail.standardOutput = FileHandle.nullDevice
        tail.standardError = FileHandle.nullDevice
        try tail.run()
        // SIGKILL: a child started from a test thread inherits its blocked signals, SIGTERM among them.
        defer { kill(tail.processIdentifier, SIGKILL) }
        try Data("\(tail.processIdentifier)\n".utf8).write(to: folder.appending(path: "llama-server.pid"))

        let stop = try await Self.run(["stop"], home: home)
        #expect(stop.status == 0, "\(stop.output)")
        #expect(stop.output.contains("llama-server is not running."), "\(stop.output)")
        #expect(tail.isRunning, "stop killed a tail -f that the pid file named")
        let status = try await Self.run(["status"], home: home)
        #expect(status.output.contains("running:   no"), "\(status.output)")
        #expect(tail.isRunning)
    }

    /// A folder with an executable script in it, for LESSONPLAN_LOCAL_SERVER_CMD.
    static func script(_ text: String, named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lp-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: name)
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return file
    }

    static func run(_ arguments: [String], home: URL, port: Int, server: URL) async throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["LESSONPLAN_HOME"] = home.path
        environment["LESSONPLAN_LOCAL_PORT"] = String(port)
        environment["LESSONPLAN_LOCAL_SERVER_CMD"] = server.path
        return try await ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path] + arguments, environment: environment)
    }

    /// A server killed by SIGILL as it starts (an AMX build on a CPU without it) gets one sentence naming the signal
    /// and the rebuild, and the reason is kept for `lessonplan --local` to say.
    @Test func aServerKilledByASignalAtStartIsNamedWithTheRebuild() async throws {
        let server = try Self.script("#!/bin/sh\nkill -ILL $$\n", named: "illegal-server")
        defer { try? FileManager.default.removeItem(at: server.deletingLastPathComponent()) }
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-ill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await Self.run(["start"], home: home, port: Int.random(in: 20_000..<29_000), server: server)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("killed by SIGILL (illegal instruction) as it started"), "\(result.output)")
        #expect(result.output.contains("scripts/local-model install --rebuild"))
        let died = try String(contentsOf: home.appending(path: "local-model/llama-server.died"), encoding: .utf8)
        #expect(died.trimmingCharacters(in: .whitespacesAndNewlines) == "signal SIGILL (illegal instruction)")
    }
}
