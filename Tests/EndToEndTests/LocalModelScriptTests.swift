import Foundation
import TestSupport
import Testing

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

    /// In a shared data directory, links planted as `lock`, `leases/PID` or `llama-server.log` would let a write
    /// truncate another file of the teacher's: each is refused with a sentence and the file it points to is left
    /// whole; so is a folder other users can write, as lessonplan refuses it.
    @Test(arguments: [("lock", "stop"), ("llama-server.log", "start"), ("leases/4242", "status"), ("llama-server.pid", "stop")])
    func aPlantedLinkIsNeverWrittenThrough(name: String, command: String) async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-link-\(UUID().uuidString)")
        let folder = home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder.appending(path: "leases"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let victim = home.appending(path: "victim.txt")
        try Data("another file of yours\n".utf8).write(to: victim)
        #expect(symlink(victim.path, folder.appending(path: name).path) == 0)
        let server = try Self.script("#!/bin/sh\necho started\nexit 1\n", named: "quick-server")
        defer { try? FileManager.default.removeItem(at: server.deletingLastPathComponent()) }
        let result = try await Self.run([command], home: home, port: Int.random(in: 20_000..<29_000), server: server)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("\(name) is a symbolic link, which local-model would write through; remove it"), "\(result.output)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "another file of yours\n")
    }

    @Test func aFolderOthersCanWriteIsRefused() async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-open-\(UUID().uuidString)")
        let folder = home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(chmod(folder.path, 0o777) == 0)
        for command in ["status", "stop", "start"] {
            let result = try await Self.run([command], home: home)
            #expect(result.status == 1, "\(command): \(result.output)")
            #expect(result.output.contains("can be written by other users (mode 777), who could plant links in it"), "\(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "lock").path))
    }

    /// A folder with an executable script in it, for LESSONPLAN_LOCAL_SERVER_CMD.
    static func script(_ text: String, named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lp-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: name)
        try Executable.write(text, to: file)
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

    /// A stand-in for llama-server that answers as `ours_answers` asks (health, the model's alias) on the port it is given.
    static let answeringServer = """
        #!/usr/bin/env python3
        import json, signal, sys
        from http.server import BaseHTTPRequestHandler, HTTPServer
        # A child of the test runner inherits its blocked SIGTERM; the script's stop sends SIGTERM first.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        port = int(sys.argv[sys.argv.index("--port") + 1])
        alias = sys.argv[sys.argv.index("--alias") + 1]
        class Answer(BaseHTTPRequestHandler):
            def do_GET(self):
                body = json.dumps({"status": "ok"} if self.path == "/health" else {"data": [{"id": alias}]}).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        HTTPServer(("127.0.0.1", port), Answer).serve_forever()

        """

    /// A process standing for a `scripts/run` session: it lives until killed.
    static func session() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["600"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The server's pid as the script recorded it, and whether that process still runs.
    static func server(in home: URL) -> (pid: Int32, running: Bool)? {
        guard let text = try? String(contentsOf: home.appending(path: "local-model/llama-server.pid"), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return (pid, alive(pid))
    }

    /// Whether process `pid` runs: it exists and is not a zombie waiting for a parent that may never reap it.
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// Two `scripts/run` sessions share one server: the first to leave keeps it running for the other, the last stops
    /// it; a session that died without releasing its lease does not keep the server up; a server started by hand
    /// outlives every session.
    @Test func theLastSessionToLeaveStopsTheServerItStarted() async throws {
        let server = try Self.script(Self.answeringServer, named: "answering-server")
        defer { try? FileManager.default.removeItem(at: server.deletingLastPathComponent()) }
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-lease-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let port = Int.random(in: 20_000..<29_000)
        let first = try Self.session()
        let second = try Self.session()
        let third = try Self.session()
        defer { for process in [first, second, third] where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        defer { if let started = Self.server(in: home), started.running { kill(started.pid, SIGKILL) } }
        func local(_ arguments: String...) async throws -> ChildProcess.Result {
            try await Self.run(arguments, home: home, port: port, server: server)
        }

        let one = try await local("acquire", "\(first.processIdentifier)")
        #expect(one.status == 0, "\(one.output)")
        let started = try #require(Self.server(in: home))
        #expect(started.running)
        let two = try await local("acquire", "\(second.processIdentifier)")
        #expect(two.status == 0, "\(two.output)")
        #expect(Self.server(in: home)?.pid == started.pid, "a second session started a second server")

        _ = try await local("release", "\(first.processIdentifier)")
        #expect(Self.alive(started.pid), "the first session to leave stopped the server the second one uses")
        let status = try await local("status")
        #expect(status.output.contains("for scripts/run, 1 session(s)"), "\(status.output)")
        // The second session dies without releasing; the third comes and goes; the server goes with it.
        kill(second.processIdentifier, SIGKILL)
        while second.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        _ = try await local("acquire", "\(third.processIdentifier)")
        let last = try await local("release", "\(third.processIdentifier)")
        #expect(last.output.contains("Stopped llama-server (pid \(started.pid))"), "\(last.output)")
        #expect(!Self.alive(started.pid), "the last session left and the server still runs")

        // Started by hand: sessions come and go, the server stays.
        let manual = try await local("start")
        #expect(manual.status == 0, "\(manual.output)")
        let byHand = try #require(Self.server(in: home))
        _ = try await local("acquire", "\(first.processIdentifier)")
        _ = try await local("release", "\(first.processIdentifier)")
        #expect(Self.alive(byHand.pid), "a session's release stopped a server started by hand")
        let stop = try await local("stop")
        #expect(stop.output.contains("Stopped llama-server"), "\(stop.output)")
    }
}
