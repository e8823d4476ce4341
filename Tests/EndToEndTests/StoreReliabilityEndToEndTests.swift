import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built binary against a disk that fills up, hostile files and racing processes.
@Suite(.serialized) struct StoreReliabilityEndToEndTests {
    static func transcript(in binary: LessonplanBinary) throws -> URL {
        let sessions = binary.home.appending(path: "sessions")
        let files = try FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: nil)
        return try #require(files.first { $0.pathExtension == "jsonl" })
    }

    /// Runs a program to its end and returns its status and stderr.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> (Int32, String) {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: path), arguments, environment: environment, standardOutput: FileHandle.nullDevice,
            mergingErrors: false)
        return (result.status, result.errors)
    }

    /// A real file-size limit (RLIMIT_FSIZE) on the running REPL makes its writes fail with EFBIG
    /// part way through a line; after the limit is lifted, every version is found again.
    @Test func aTurnThatCouldNotBeSavedIsWrittenWhenSpaceReturns() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else {
            Issue.record("prlimit (util-linux) is needed to limit the file size of the running binary")
            return
        }
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let repl = try binary.start(["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--no-repair"])
        try await repl.waitForOutput("── v1")
        let url = try Self.transcript(in: binary)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let pid = String(repl.pid)
        // The soft limit only: the process may raise it again up to the (unlimited) hard limit.
        let (lowered, loweredError) = try await Self.run("/usr/bin/prlimit", ["--pid", pid, "--fsize=\(size + 64):unlimited"])
        #expect(lowered == 0, "\(loweredError)")

        repl.write("/shorten\n")
        try await repl.waitForOutput("not saved", after: "── v1")
        try await repl.waitForError("Could not write to \(url.path) (File too large)")
        // The half-written line was cut off again: the file still holds exactly what it held.
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size)
        // The plan stays on screen and in the session.
        #expect(repl.stdout.components(separatedBy: "Learning Objective").count == 3)

        let (raised, raisedError) = try await Self.run("/usr/bin/prlimit", ["--pid", pid, "--fsize=unlimited:unlimited"])
        #expect(raised == 0, "\(raisedError)")
        repl.write("/regrade 3–5\n")
        try await repl.waitForOutput("── v3")
        try await repl.waitForError("could not be saved before; nothing is lost")
        repl.write("/quit\n")
        repl.closeInput()
        let ended = try await repl.wait()
        #expect(ended.status == 0, "\(ended.stderr)")

        // Every line is whole JSON, and resume and export find every version.
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(text.hasSuffix("\n"))
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(lines.count == 7)
        let resumed = try await binary.run(["resume", url.path], input: "/history\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("3 versions"))
        #expect(resumed.stdout.contains("  v2  6–8 · 30 min  /shorten (from v1)"))
        #expect(resumed.stdout.contains("→ v3  3–5 · 30 min  /regrade 3–5 (from v2)"))
        let exported = try await binary.run(["export", url.path, "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        #expect((json["versions"] as? [Any])?.count == 3)
    }

    /// Quitting while the disk is still full says what is lost and does not exit 0.
    @Test func quittingWithUnsavedChangesFailsLoudly() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let repl = try binary.start(["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--no-repair"])
        try await repl.waitForOutput("── v1")
        let url = try Self.transcript(in: binary)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(try await Self.run("/usr/bin/prlimit", ["--pid", String(repl.pid), "--fsize=\(size):unlimited"]).0 == 0)
        repl.write("/shorten\n")
        try await repl.waitForOutput("not saved")
        repl.write("/save\n")
        try await repl.waitForError("Could not write to")
        repl.write("/quit\n")
        repl.closeInput()
        let ended = try await repl.wait()
        #expect(ended.status == 1)
        #expect(ended.stderr.contains("to \(url.path)") && ended.stderr.contains("lost."))
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == size)
    }

    /// Eight processes start with the same name at once: exactly one gets it.
    @Test func aNameIsTakenByExactlyOneOfEightRacingProcesses() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let runs = try (0..<8).map { _ in
            try binary.start(["generate", "--grade", "4", "--topic", "Tides", "--minutes", "30", "--name", "x", "--no-repair"])
        }
        var results: [LessonplanBinary.Result] = []
        for run in runs {
            run.closeInput()
            results.append(try await run.wait())
        }
        let winners = results.filter { $0.status == 0 }
        #expect(winners.count == 1, "\(results.map(\.stderr))")
        for loser in results where loser.status != 0 {
            #expect(loser.stderr.contains("The name “x” is already used by session"), "\(loser.stderr)")
        }
        let sessions = try FileManager.default.contentsOfDirectory(atPath: binary.home.appending(path: "sessions").path)
        #expect(sessions.filter { $0.hasSuffix(".jsonl") }.count == 1, "the losers leave no session behind")
        let json = try await binary.run(["sessions", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1 && list[0]["name"] as? String == "x")
    }

    /// A FIFO named like a transcript is refused at once, and files that are refused are not touched.
    @Test func fifosAndForeignFilesAreRefusedWithoutWaitingOrWriting() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let sessions = binary.home.appending(path: "sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fifo = sessions.appending(path: "cccccccccccccccc.jsonl")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for arguments in [["resume", "cccc"], ["replay", "cccc"], ["export", "cccc", "--format", "md"], ["sessions", "rm", "cccc", "--yes"]] {
            let result = try await binary.run(arguments, input: "/quit\n", timeout: .seconds(20))
            #expect(result.status != 0 && result.stderr.contains("is a FIFO (named pipe)"), "\(arguments): \(result.stderr)")
        }
        let listed = try await binary.runAtTerminal(["sessions"], timeout: .seconds(20))
        #expect(listed.stdout.contains("cccccccccccccccc.jsonl  is a FIFO (named pipe), not a file"), "\(listed.stdout)")

        // A file that is not a transcript (no final newline) is refused and left exactly as it was.
        let foreign = sessions.appending(path: "dddddddddddddddd.jsonl")
        try Data("my own notes".utf8).write(to: foreign)
        let resumed = try await binary.run(["resume", "dddd"], input: "/quit\n")
        #expect(resumed.status == 2 && resumed.stderr.contains("is not a lessonplan transcript"))
        #expect(try Data(contentsOf: foreign) == Data("my own notes".utf8))
        let outside = binary.home.appending(path: "elsewhere.jsonl")
        try Data("{\"x\":1}".utf8).write(to: outside)
        _ = try await binary.run(["resume", outside.path], input: "/quit\n")
        #expect(try Data(contentsOf: outside) == Data("{\"x\":1}".utf8))
    }

    @Test func aDataDirectoryOthersCanWriteIsRefusedWithTheFix() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try FileManager.default.createDirectory(at: binary.home, withIntermediateDirectories: true)
        #expect(chmod(binary.home.path, 0o777) == 0)
        let listed = try await binary.run(["sessions"])
        #expect(listed.status == 1)
        #expect(listed.stderr.contains("can be written by other users (mode 777)"))
        #expect(listed.stderr.contains("run `chmod 700 \(binary.home.path)`"))
        let started = try await binary.run(["generate", "--topic", "Tides"])
        #expect(started.status != 0 && started.stderr.contains("chmod 700"))
        #expect(!FileManager.default.fileExists(atPath: binary.home.appending(path: "sessions").path))
    }

    /// Exports are 0600 even under `umask 000`, replaced with --force or not.
    @Test func exportsAreOwnerOnlyWhateverTheUmask() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(["generate", "--topic", "Tides", "--name", "tides", "--no-repair"])
        #expect(made.status == 0, "\(made.stderr)")
        let file = binary.home.appending(path: "plan.html")
        for force in [false, true] {
            let script = "umask 000; exec \"$0\" export tides --format html -o \"$1\"" + (force ? " --force" : "")
            let (status, errors) = try await Self.run("/bin/sh", ["-c", script, binary.url.path, file.path], environment: binary.environment)
            #expect(status == 0, "\(errors)")
            var info = stat()
            #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        }
        let again = try await binary.run(["export", "tides", "--format", "md", "-o", file.path])
        #expect(again.status == 1 && again.stderr.contains("already exists"))
    }

    /// One byte changed in the line that created v1, then in the session line: nothing after is lost.
    @Test func oneChangedByteHidesNoLaterVersion() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--name", "photo", "--no-repair"],
            input: "/shorten\n/regrade 3–5\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")
        let url = try Self.transcript(in: binary)
        var bytes = Array(try Data(contentsOf: url))
        let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
        // Line 3 is turn 1's turn_ended, which created v1: break its JSON with one byte.
        bytes[starts[2] + 1] = UInt8(ascii: "#")
        try Data(bytes).write(to: url)

        let replay = try await binary.run(["replay", "photo", "--plain"])
        #expect(replay.status == 0 && replay.stderr.contains("Line 3 of \(url.path) is damaged"), "\(replay.stderr)")
        #expect(replay.stdout.contains("completed → v2 (from v1, whose line is damaged)"), "\(replay.stdout)")
        #expect(replay.stdout.contains("completed → v3 (from v2)"))
        let resumed = try await binary.run(["resume", "photo"], input: "/history\n/quit\n")
        #expect(resumed.status == 0 && resumed.stderr.contains("2 versions"), "\(resumed.stderr)")
        #expect(resumed.stdout.contains("  v2  6–8 · 30 min  /shorten (from v1, whose line is damaged)"), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("→ v3  3–5 · 30 min  /regrade 3–5 (from v2)"))
        let exported = try await binary.run(["export", "photo", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])
        #expect((json["versions"] as? [Any])?.count == 2)
        let listed = try await binary.runAtTerminal(["sessions"])
        #expect(listed.stdout.contains("*  photo") && listed.stdout.contains("* damaged:"), "\(listed.stdout)")

        // Now the session line too: still listed (by its file name), marked damaged.
        bytes = Array(try Data(contentsOf: url))
        bytes[3] = UInt8(ascii: "#")
        try Data(bytes).write(to: url)
        let id = url.deletingPathExtension().lastPathComponent
        let again = try await binary.runAtTerminal(["sessions"])
        #expect(again.stdout.contains("\(id.prefix(8))*") && !again.stdout.contains("No saved sessions"), "\(again.stdout)")
        let reopened = try await binary.run(["resume", String(id.prefix(8))], input: "/quit\n")
        #expect(reopened.status == 0 && reopened.stderr.contains("Line 1 (the session line)"), "\(reopened.stderr)")
    }
}
