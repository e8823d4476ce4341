import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every temporary file and folder the tool makes is the owner's only, while it exists.
@Suite(.serialized) struct TemporaryFilesEndToEndTests {
    /// A `pandoc` that writes down the modes of its working folder, everything in it and its stdin, then
    /// answers as pandoc would: its API version, or a file at `-o`.
    static let recordingPandoc = """
        #!/bin/sh
        stat -c '%a %n' "$PWD" "$PWD"/* >> "$PANDOC_LOG"
        stat -L -c '%a stdin' /proc/self/fd/0 >> "$PANDOC_LOG"
        out=""
        while [ $# -gt 0 ]; do
          case "$1" in -o) out="$2"; shift ;; esac
          shift
        done
        if [ -n "$out" ]; then printf 'PK fake document' > "$out"
        else echo '{"pandoc-api-version":[1,23,1],"meta":{"unMeta":{}},"blocks":[]}'; fi

        """

    @Test func pandocsWorkingFolderAndThePlansCopyInItAreOwnerOnly() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(["generate", "--topic", "Tides", "--name", "tides", "--no-repair"])
        #expect(made.status == 0, "\(made.stderr)")

        let temporary = try Self.usePandoc(Self.recordingPandoc, in: &binary)
        let log = binary.home.appending(path: "pandoc.log")
        binary.environment["PANDOC_LOG"] = log.path
        // Run under the usual umask (022), which would leave a new folder 0755 and a file 0644.
        let exported = try await binary.run(["export", "tides", "--format", "docx", "-o", binary.home.appending(path: "plan.docx").path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 6, "\(lines)")
        for line in lines {
            let mode = line.split(separator: " ").first.map(String.init) ?? ""
            #expect(mode == "600" || mode == "700", "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("700 ") && $0.contains("lessonplan-doc-") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("600 ") && $0.contains("/in-") }, "the plan's copy: \(lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// A `pandoc` that answers the API version at once, but converting writes its pid and a background child's pid
    /// to `$PANDOC_PIDS`, then waits: an export caught mid-way.
    static let hangingPandoc = """
        #!/bin/sh
        case " $* " in *" -o "*) ;; *) echo '{"pandoc-api-version":[1,23,1],"meta":{"unMeta":{}},"blocks":[]}'; exit 0 ;; esac
        sleep 300 &
        echo "$$ $!" > "$PANDOC_PIDS"
        wait

        """

    /// Whether `pid` still runs (a zombie has ended).
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst(2).first != "Z"
    }

    /// A `pandoc` that hangs when it reads a source (`-t plain`), writing its pid and a background child's pid to
    /// `$PANDOC_PIDS`; anything else it answers as `hangingPandoc` does.
    static let hangingReader = """
        #!/bin/sh
        case " $* " in *" -t plain "*) ;; *) echo '{"pandoc-api-version":[1,23,1],"meta":{"unMeta":{}},"blocks":[]}'; exit 0 ;; esac
        sleep 300 &
        echo "$$ $!" > "$PANDOC_PIDS"
        wait

        """

    /// SIGTERM (a logout, a `kill`) while pandoc converts: pandoc and what it started are ended with lessonplan, and
    /// no `lessonplan-doc-…` folder (the plan's copy) is left in the temporary directory.
    @Test func sigtermDuringAnExportLeavesNoToolAndNoFolder() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(["generate", "--topic", "Tides", "--name", "tides", "--no-repair"])
        #expect(made.status == 0, "\(made.stderr)")
        try await Self.sigtermMidway(
            &binary, pandoc: Self.hangingPandoc, folderPrefix: "lessonplan-doc-",
            arguments: ["export", "tides", "--format", "docx", "-o", binary.home.appending(path: "plan.docx").path])
    }

    /// SIGTERM while pandoc reads a `--source` docx: the tool and its child end with lessonplan, and the source's
    /// scratch folder is removed (issue #36: pandoc outlived a SIGTERM of the tool).
    @Test func sigtermWhileASourceIsReadLeavesNoToolAndNoFolder() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try FileManager.default.createDirectory(at: binary.home, withIntermediateDirectories: true)
        let docx = binary.home.appending(path: "chapter.docx")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", "<w:document><w:body><w:p><w:r><w:t>Tides rise twice a day.</w:t></w:r></w:p></w:body></w:document>")
            """
        let zipped = try await Python.write(script, to: docx)
        #expect(zipped.status == 0, "\(zipped.output)")
        try await Self.sigtermMidway(
            &binary, pandoc: Self.hangingReader, folderPrefix: "lessonplan-",
            arguments: ["generate", "--topic", "Tides", "--source", docx.path, "--no-repair"])
        #expect(try await server.requests().isEmpty, "nothing was sent")
    }

    /// Puts `script` first on the binary's PATH as `pandoc` and gives it a temporary directory of its own in its
    /// home, which is returned (empty until the tool uses it).
    static func usePandoc(_ script: String, in binary: inout LessonplanBinary) throws -> URL {
        let tools = binary.home.appending(path: "tools")
        let temporary = binary.home.appending(path: "tmp")
        for folder in [tools, temporary] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let pandoc = tools.appending(path: "pandoc")
        try Executable.write(script, to: pandoc)
        binary.environment["PATH"] = tools.path + ":" + (binary.environment["PATH"] ?? "/usr/bin:/bin")
        binary.environment["TMPDIR"] = temporary.path
        return temporary
    }

    /// Runs lessonplan with `arguments` and a `pandoc` that hangs, sends SIGTERM once pandoc is at work (and a
    /// folder starting with `folderPrefix` exists), then checks lessonplan ended by that signal, pandoc and its
    /// child with it, and the temporary directory is empty.
    static func sigtermMidway(_ binary: inout LessonplanBinary, pandoc script: String, folderPrefix: String, arguments: [String]) async throws {
        let temporary = try usePandoc(script, in: &binary)
        let pids = binary.home.appending(path: "pandoc.pids")
        binary.environment["PANDOC_PIDS"] = pids.path

        // Started through python, which unblocks SIGTERM (a child of the test runner inherits it blocked) and execs.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM]); os.execv(sys.argv[1], sys.argv[1:])",
                binary.url.path,
            ] + arguments
        process.environment = binary.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        var written: [pid_t] = []
        while written.count < 2, clock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
            written = ((try? String(contentsOf: pids, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        }
        #expect(written.count == 2, "pandoc never started")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).contains { $0.hasPrefix(folderPrefix) })
        #expect(kill(process.processIdentifier, SIGTERM) == 0)
        while process.isRunning, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        var left = written.filter(Self.alive)
        while !left.isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            left = left.filter(Self.alive)
        }
        #expect(left.isEmpty, "pandoc or its child outlived lessonplan: \(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        for pid in left { kill(pid, SIGKILL) }
    }
}
