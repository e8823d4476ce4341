import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

/// Text the tool did not write reaches the terminal as text, never as commands; output that
/// cannot be written ends the run with a sentence and a failing status.
@Suite(.serialized) struct HostileOutputEndToEndTests {
    /// A "plan" carrying every attack of the issue: clipboard, title, hidden link, clear screen,
    /// cursor moves, C1 controls, a bidi override, BEL, BS and a bare CR.
    static let hostile = """
        Learning Objective
        Students \u{1B}]52;c;SGFja2Vk\u{07}learn \u{1B}]0;pwned\u{1B}\\ tides \u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\
        \u{1B}[2J\u{1B}[H\u{1B}[5A \u{9B}31m \u{9D}0;x\u{9C} \u{202E}gnp.exe \u{07}\u{08}bare\rCR

        """

    /// What must never appear in anything printed: ESC, BEL, BS, CR, C1 and bidi controls.
    static func assertInert(_ text: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bad = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0.value != 0x0A && $0.value != 0x09) || (0x7F...0x9F).contains($0.value)
                || [0x202E, 0x2066, 0x200F].contains($0.value)
        }
        #expect(
            bad.isEmpty, "\(label) printed raw controls: \(bad.map { String($0.value, radix: 16) })",
            sourceLocation: sourceLocation)
    }

    @Test func aHostilePlanIsShownInertEverywhereAndKeptFaithfullyInTheTranscript() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(Self.hostile), .text(Self.hostile + "More \u{1B}[2J\n")])
        let session = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides \u{1B}]0;t\u{07}", "--minutes", "45", "--no-repair", "--name", "tides"],
            input: "/revise add one line\n/show\n/diff\n/history\n/quit\n")
        #expect(session.status == 0, "\(session.stderr)")
        Self.assertInert(session.stdout, "the REPL's stdout")
        Self.assertInert(session.stderr, "the REPL's stderr")
        #expect(session.stdout.contains("Students ␛]52;c;SGFja2Vk␇learn"))
        #expect(session.stdout.contains("<U+202E>gnp.exe ␇␈bare␍CR"))
        #expect(session.stdout.contains("+ More ␛[2J"))

        // The transcript is the faithful record: the bytes are there, JSON-escaped.
        let raw = binary.writtenFiles().filter { $0.path.hasSuffix(".jsonl") }.map(\.contents).joined()
        #expect(raw.contains("\\u001b]52;c;SGFja2Vk\\u0007"))
        #expect(!raw.contains("\u{1B}") && !raw.contains("\u{07}"), "JSON escapes C0 controls in the file")

        for arguments in [
            ["replay", "tides"], ["replay", "tides", "--full"], ["replay", "tides", "--plain"],
            ["sessions"], ["export", "tides", "--format", "md"], ["resume", "tides"],
        ] {
            let result = try await binary.run(arguments, input: "/show\n/quit\n")
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            Self.assertInert(result.stdout, "\(arguments) stdout")
            Self.assertInert(result.stderr, "\(arguments) stderr")
            #expect(result.stdout.contains("␛"), "\(arguments) shows the escape visibly")
        }

        // A Markdown file is read in terminals and editors as it is: sanitised too.
        let file = binary.home.appending(path: "plan.md")
        let exported = try await binary.run(["export", "tides", "--format", "md", "-o", file.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        Self.assertInert(try String(contentsOf: file, encoding: .utf8), "the Markdown export")
        // JSON piped to a program stays byte-exact (JSON escapes the controls itself).
        let json = try await binary.run(["export", "tides", "--format", "json"])
        #expect(json.stdout.contains("\\u001b]52;c;SGFja2Vk"))
    }

    @Test func serverErrorSentencesQuoteTheServerInertly() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .error(status: 400, message: "Bad \u{1B}]52;c;SGFja2Vk\u{07} request \u{9B}2J \u{202E}x"),
            .errorBody(status: 503, body: .string("<html>\u{1B}[2J down\r</html>")),
            .errorEvent(message: "oops \u{1B}]0;title\u{07}", afterDeltas: 2),
            .refusal("No \u{1B}[2J thanks"),
        ])
        for _ in 0..<4 {
            let result = try await binary.run(
                ["generate", "--grade", "4", "--topic", "Tides", "--minutes", "30", "--max-retries", "0"])
            #expect(result.status != 0)
            Self.assertInert(result.stdout, "stdout")
            Self.assertInert(result.stderr, "stderr")
            #expect(result.stderr.contains("␛"), "the server's text is quoted visibly: \(result.stderr)")
        }
    }

    /// Runs the binary with its stdout on `output` and returns its status and stderr.
    private func run(_ binary: LessonplanBinary, _ arguments: [String], stdout output: FileHandle) async throws
        -> (status: Int32, stderr: String)
    {
        let result = try await ChildProcess.run(
            binary.url, arguments, environment: binary.environment, standardOutput: output, mergingErrors: false)
        return (result.status, result.errors)
    }

    @Test func aFullDiskOrAClosedPipeOnStdoutFailsWithASentence() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let generate = try await run(
            binary, ["generate", "--grade", "4", "--topic", "Tides", "--minutes", "30", "--name", "tides"],
            stdout: full)
        #expect(generate.status == 1)
        #expect(generate.stderr.contains("Could not write to standard output (No space left on device)"))
        // The plan was still saved: only printing it failed.
        #expect(try binary.transcriptLines().contains { $0["type"] as? String == "turn_ended" && $0["version"] as? Int == 1 })

        let export = try await run(binary, ["export", "tides", "--format", "md"], stdout: full)
        #expect(export.status == 1)
        #expect(export.stderr.contains("No space left on device"))

        let closed = Pipe()
        try closed.fileHandleForReading.close()
        let piped = try await run(binary, ["export", "tides", "--format", "html"], stdout: closed.fileHandleForWriting)
        // A reader that went away is not an error to report: quiet, and 141 as git's death by SIGPIPE.
        #expect(piped.status == 141, "\(piped.stderr)")
        #expect(!piped.stderr.contains("Could not write to standard output"), "\(piped.stderr)")
        #expect(piped.stderr.isEmpty, "\(piped.stderr)")
        let shut = Pipe()
        try shut.fileHandleForReading.close()
        let replayed = try await run(binary, ["replay", "tides"], stdout: shut.fileHandleForWriting)
        #expect(replayed.status == 141 && replayed.stderr.isEmpty, "\(replayed.status): \(replayed.stderr)")
    }

    /// A printable page carries no control from the model's text, whether written to a file or piped:
    /// `cat plan.html` must not obey ESC, BEL, BS or C1 bytes. The plan, its quiz and its rubric.
    @Test func anHTMLPageCarriesNoControlCharactersFromTheModel() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .text(Self.hostile),
            // The topic's word stays whole, so the quiz is about the lesson and passes its check (a quiz that is not
            // is left out of exports).
            .text(AssessmentFixtures.quiz(topic: "Tides\u{1B}[2J\u{9B}1m\u{07}")),
            .text(AssessmentFixtures.rubric(task: "Tide \u{08}\u{1B}]0;x\u{07}diagram\u{85}")),
        ])
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--no-repair", "--name", "tides"],
            input: "/quiz\n/rubric\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")
        let file = binary.home.appending(path: "plan.html")
        let written = try await binary.run(["export", "tides", "--format", "html", "-o", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        let page = try String(contentsOf: file, encoding: .utf8)
        let piped = try await binary.run(["export", "tides", "--format", "html"])
        for (label, html) in [("the HTML file", page), ("the piped HTML", piped.stdout)] {
            let controls = html.unicodeScalars.filter {
                ($0.value < 0x20 && $0.value != 0x0A && $0.value != 0x09) || (0x7F...0x9F).contains($0.value)
            }
            #expect(controls.isEmpty, "\(label) carries raw controls: \(controls.map { String($0.value, radix: 16) })")
            #expect(html.contains("Students ]52;c;SGFja2Vklearn"), "\(label) keeps the text around the controls")
            #expect(html.contains("about Tides[2J1m: which"), "\(label): the quiz")
            #expect(html.contains("Rubric: Tide ]0;xdiagram"), "\(label): the rubric")
        }
    }
}
