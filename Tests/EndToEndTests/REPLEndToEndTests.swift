import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built binary against the loopback fake of the OpenAI API.
@Suite(.serialized) struct REPLEndToEndTests {
    @Test func pipedSessionGeneratesRefinesUndoesAndRecordsEverything() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }

        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45"],
            input: "/shorten\n/regrade 3–5\n/undo\n/history\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")

        // Three plans streamed to stdout, each followed by its footer.
        #expect(result.stdout.contains("Learning Objective"))
        #expect(result.stdout.contains("── v1 ·"))
        #expect(result.stdout.contains("── v2 ·"))
        #expect(result.stdout.contains("── v3 ·"))
        #expect(result.stdout.contains("Back to v2 (/shorten)"))
        #expect(result.stdout.contains("→ v2  6–8 · 30 min  /shorten (from v1)"))
        #expect(result.stdout.contains("  v3  3–5 · 30 min  /regrade 3–5 (from v2)"))
        // No prompts when stdin is not a terminal.
        #expect(!result.stdout.contains("lessonplan ["))

        let requests = try await server.requests()
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.path == "/v1/responses")
            #expect(request.stream == true && request.store == false)
            #expect(request.model == "gpt-5.2")
            #expect(request.header("authorization") == "Bearer sk-test.SECRETKEY-9z8y7x6w5v")
        }
        let lines = try binary.transcriptLines()
        let types = lines.compactMap { $0["type"] as? String }
        #expect(types == ["session", "turn_started", "turn_ended", "turn_started", "turn_ended", "turn_started", "turn_ended", "undo"])
        let ends = lines.filter { $0["type"] as? String == "turn_ended" }
        let firstPlan = try #require(ends.first?["output"] as? String)
        #expect(!firstPlan.isEmpty)
        // The refinement's prompt carries the current plan, not the chat.
        let second = try #require(requests[1].inputText)
        #expect(second.contains(firstPlan.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(second.contains("in 30 minutes instead of 45"))
        let third = try #require(requests[2].inputText)
        #expect(third.contains("Rewrite it for grades 3–5 instead of grades 6–8."))
        #expect(!third.contains(firstPlan.trimmingCharacters(in: .whitespacesAndNewlines)))
        let starts = lines.filter { $0["type"] as? String == "turn_started" }
        #expect(starts.map { $0["command"] as? String } == ["/generate", "/shorten", "/regrade 3–5"])
        #expect(starts[1]["input"] as? String == second)
        #expect(ends.map { $0["status"] as? String } == ["completed", "completed", "completed"])
        #expect(ends.map { $0["version"] as? Int } == [1, 2, 3])
        #expect(lines.last?["from"] as? Int == 3 && lines.last?["to"] as? Int == 2)

        // The key is in no file written.
        let files = binary.writtenFiles()
        #expect(!files.isEmpty)
        for file in files {
            #expect(!file.contents.contains("SECRETKEY"), "\(file.path)")
        }
    }

    @Test func oneShotPrintsOnlyTheFinalPlanOnStdout() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run([
            "generate", "--grade", "4", "--topic", "Fractions", "--minutes", "45", "--then", "/shorten 30", "--then",
            "/regrade K",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Learning Objective"))
        #expect(result.stdout.contains("K–2"))
        #expect(result.stdout.contains("30 minutes"))
        #expect(!result.stdout.contains("──"))
        #expect(result.stderr.contains("→ /shorten 30"))
        #expect(result.stderr.contains("Saved session"))
        #expect(try await server.requests().count == 3)
    }

    /// Every command does under --then what it does at the prompt: an export writes its file, /save names
    /// the session, /check prints the check (on stderr); one that needs a terminal stops the run before
    /// anything is sent.
    @Test func thenRunsEveryCommandAsThePromptDoes() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run([
            "generate", "--grade", "4", "--topic", "Tides", "--then", "/export html plan.html", "--then", "/save tides unit",
            "--then", "/check", "--then", "/repair off", "--then", "/export md",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOf: binary.home.appending(path: "work/plan.html"), encoding: .utf8)
        #expect(page.contains("<html") && page.contains("Tides"))
        #expect(result.stderr.contains("Saved as “tides unit”") && result.stderr.contains("plan check of v1"))
        #expect(result.stderr.contains("Automatic repair is off"))
        // The last step printed a document, so stdout holds the Markdown export, not the bare plan.
        #expect(result.stdout.hasPrefix("# ") && result.stdout.contains("Learning Objective"), "\(result.stdout.prefix(200))")
        #expect(try await binary.run(["resume", "tides unit"], input: "/quit\n").status == 0)

        let refused = try await binary.run(["generate", "--topic", "Tides", "--then", "/shorten 30", "--then", "/edit"])
        #expect(refused.status == 2 && refused.stderr.contains("/edit needs a teacher at a terminal, so it cannot run under --then"))
        #expect(try await server.requests().count == 1)
    }

    @Test func oneShotFailsWithASentenceAndAnExitStatus() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .plan,
            .error(status: 401, message: "Incorrect API key provided: sk-test-***9z8y.", type: "invalid_request_error", code: "invalid_api_key"),
        ])
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/shorten"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The API key was rejected (key ending …6w5v)"))
        #expect(!result.stderr.contains("SECRETKEY"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aRunawayAnswerIsKeptButNotReadAsAPlan() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let runaway = String(repeating: "Warm-Up (5 min)\n- Minutes 0–5: say hello again.\n", count: 6_000)
        // Sent in one piece: the fake's word-by-word streaming would take many seconds for this much.
        let stream = SSEFixtures.responsesStream(
            text: runaway, pieces: [runaway], usage: Usage(inputTokens: 200, outputTokens: 4000))
        try await server.script([.raw(headers: ["Content-Type": "text/event-stream"], body: String(decoding: stream, as: UTF8.self))])
        let result = try await binary.run(["generate", "--topic", "Loops", "--no-repair"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("KB, far longer than a lesson plan, so it was not checked."))
        #expect(result.stdout == runaway)
        let ended = try #require(try binary.transcriptLines().last { $0["type"] as? String == "turn_ended" })
        #expect(ended["version"] as? Int == 1 && ended["check"] == nil)
    }

    @Test func badInputsGetOneSentenceAndStatus2() async throws {
        let binary = try LessonplanBinary(baseURL: URL(string: "http://127.0.0.1:9/v1"))
        defer { binary.removeHome() }
        let grade = try await binary.run(["generate", "--grade", "3-6", "--topic", "x"])
        #expect(grade.status == 2)
        #expect(grade.stderr.contains("K–2, 3–5, 6–8 or 9–12"))
        let minutes = try await binary.run(["generate", "--grade", "3-5", "--topic", "x", "--minutes", "200"])
        #expect(minutes.status == 2 && minutes.stderr.contains("from 10 to 180"))
        let topic = try await binary.run(["generate", "--grade", "3-5"])
        #expect(topic.status == 2 && topic.stderr.contains("--topic is required"))
        let flag = try await binary.run(["--colour"])
        #expect(flag.status == 2 && flag.stderr.contains("unknown flag --colour"))
        let near = try await binary.run(["--grades", "4", "--topic", "x"])
        #expect(near.status == 2 && near.stderr.contains("unknown flag --grades; did you mean --grade?"), "\(near.stderr)")
        // Two letters swapped is one edit, as one letter too many is.
        let swapped = try await binary.run(["--grdae", "4", "--topic", "x"])
        #expect(swapped.status == 2 && swapped.stderr.contains("unknown flag --grdae; did you mean --grade?"), "\(swapped.stderr)")
        // The help each refusal points at answers.
        for refused in [flag, swapped, try await binary.run(["generate", "--colour"])] {
            let pointed = try #require(refused.stderr.split(separator: "`").dropFirst().first, "\(refused.stderr)")
            let words = pointed.split(separator: " ").map(String.init)
            #expect(words.first == "lessonplan", "\(pointed)")
            let help = try await binary.run(Array(words.dropFirst()))
            #expect(help.status == 0 && help.stdout.contains("--"), "\(pointed): \(help.stderr)")
        }
        let then = try await binary.run(["generate", "--topic", "x", "--then", "/shrink"])
        #expect(then.status == 2 && then.stderr.contains("/shrink is not a command"))
    }

    /// A slash command's help flows into paragraphs wrapped to COLUMNS, or 80, when piped: not the source's
    /// ~110-column lines, and not ragged.
    @Test func slashCommandHelpWrapsToColumnsWhenPiped() async throws {
        var binary = try LessonplanBinary(baseURL: URL(string: "http://127.0.0.1:9/v1"))
        defer { binary.removeHome() }
        let atEighty = try await binary.run(["help", "review"])
        #expect(atEighty.status == 0)
        // Ended by a newline, as every page is, so the shell's prompt starts a line of its own.
        #expect(atEighty.stdout.hasSuffix(".\n"), "\(atEighty.stdout.suffix(40).debugDescription)")
        let subcommand = try await binary.run(["help", "replay"])
        #expect(subcommand.stdout.hasSuffix("\n") && !subcommand.stdout.hasSuffix("\n\n\n"))
        let lines = atEighty.stdout.split(separator: "\n")
        #expect(lines.count > 4 && lines.allSatisfy { $0.count <= 80 }, "\(atEighty.stdout)")
        // Filled, not ragged: each line but a paragraph's last reaches past 60 columns.
        let details = try #require(lines.firstIndex { $0.hasPrefix("The built-in criteria") })
        #expect(lines[details...].dropLast().allSatisfy { $0.count > 60 }, "\(atEighty.stdout)")
        binary.environment["COLUMNS"] = "50"
        let narrow = try await binary.run(["help", "review"])
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 50 }, "\(narrow.stdout)")
        binary.environment["COLUMNS"] = "2000"
        let wide = try await binary.run(["help", "review"])
        #expect(wide.stdout.split(separator: "\n").count == 3, "one line each: usage, summary, details:\n\(wide.stdout)")
        // /help in a piped session wraps the same way, to COLUMNS.
        let server = try await FakeOpenAIServer()
        var session = try LessonplanBinary(baseURL: server.baseURL)
        defer { session.removeHome() }
        session.environment["COLUMNS"] = "50"
        let piped = try await session.run(["--grade", "4", "--topic", "Tides", "--minutes", "30"], input: "/help review\n/quit\n")
        let help = piped.stdout.split(separator: "\n").drop { !$0.hasPrefix("/review") }
        #expect(help.count > 8 && help.prefix(12).allSatisfy { $0.count <= 50 }, "\(piped.stdout)")
    }

    /// Questions are asked only at a terminal: a script without --grade or --minutes gets the
    /// defaults, and its first line stays a command.
    @Test func aScriptGetsTheDefaultsInsteadOfQuestions() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["--topic", "Volcanoes"], input: "/shorten 30\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try binary.transcriptLines()
        let inputs = try #require(lines.first?["inputs"] as? [String: Any])
        #expect(inputs["grade"] as? String == "6–8")
        #expect(inputs["minutes"] as? Int == 45)
        let commands = lines.filter { $0["type"] as? String == "turn_started" }.map { $0["command"] as? String }
        #expect(commands == ["/generate", "/shorten 30"])

        let noTopic = try await binary.run([], input: "Volcanoes\n")
        #expect(noTopic.status == 2 && noTopic.stderr.contains("--topic is required"))
    }

    @Test func theGradeATeacherGaveReachesThePromptAndSurvivesResume() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let first = try await binary.run(["--grade", "4", "--topic", "Tides", "--minutes", "30", "--name", "g4"], input: "/quit\n")
        #expect(first.status == 0, "\(first.stderr)")
        let generate = try #require(try await server.requests().first?.inputText)
        #expect(generate.contains("Grade: grade 4 (band 3–5)\n"))
        // The transcript keeps the given grade beside the band; a resumed session's prompts still say it.
        let header = try #require(try binary.transcriptLines().first?["inputs"] as? [String: Any])
        #expect(header["grade"] as? String == "3–5" && header["given_grade"] as? Int == 4)
        _ = try await binary.run(["resume", "g4"], input: "/shorten 20\n/regrade 6-8\n/quit\n")
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests[1].inputText?.contains("30-minute lesson on Tides for grade 4 (band 3–5):") == true)
        #expect(requests[2].inputText?.contains("Rewrite it for grades 6–8 instead of grade 4 (band 3–5).") == true)
        // A band stays a band.
        _ = try await binary.run(["generate", "--grade", "3–5", "--topic", "Tides"])
        let band = try #require(try await server.requests().last?.inputText)
        #expect(band.contains("Grade: grades 3–5\n"))
    }

    @Test func noKeySaysSoFirstOffersThreeWaysAndWritesNoSession() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL, apiKey: nil)
        defer { binary.removeHome() }
        for arguments in [["--grade", "K", "--topic", "Tides"], ["generate", "--topic", "Tides"]] {
            let result = try await binary.run(arguments, input: "/help\n/quiz\n")
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("No API key is set, so lessonplan cannot write a plan yet, and nothing was saved. Three ways on:"))
            #expect(result.stderr.contains("export OPENAI_API_KEY=sk-…, or put api_key = sk-… in "))
            #expect(result.stderr.contains("lessonplan --local, after scripts/local-model install"))
            #expect(result.stderr.contains("lessonplan --endpoint URL with the token the school gave you"))
            #expect(!result.stdout.contains("/shorten [minutes]"), "no command ran")
        }
        // Every try used to leave a session with no plan behind.
        let sessions = binary.home.appending(path: "sessions")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? []).isEmpty)
        #expect(try await server.requests().isEmpty)
    }

    @Test func withoutAKeyResumedHintsNeverPointAtGenerateInVain() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        // A session whose first plan failed: no version yet.
        try await server.script([.error(status: 400, message: "bad request")])
        let made = try await binary.run(["--topic", "Tides", "--name", "tides", "--max-retries", "0"], input: "/quit\n")
        #expect(made.status == 0 || made.status == 1, "\(made.stderr)")
        binary.environment["OPENAI_API_KEY"] = nil
        let resumed = try await binary.run(["resume", "tides"], input: "/quiz\n/show\n/repair\n")
        #expect(resumed.stderr.hasPrefix("No API key is set, so lessonplan cannot write a plan yet. Three ways on:"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Then `lessonplan resume tides` goes on from here."))
        #expect(!resumed.stderr.contains("/generate writes one") && !resumed.stderr.contains("type /generate to write one"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("/quiz needs a plan, but there is no plan yet, and writing one needs a model: set OPENAI_API_KEY"))
        #expect(resumed.stderr.contains("/show needs a plan, but there is no plan yet, and writing one needs a model"))
        #expect(try await server.requests().count == 1)
    }

    @Test func unknownCommandsAndBadArgumentsLeaveTheSessionAsItWas() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "9-12", "--topic", "Tides", "--minutes", "50"],
            input: "/frobnicate\n/regrade 13\n/shorten 60\n/undo\n/show\n/quit\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("/frobnicate is not a command"))
        #expect(result.stderr.contains("“13” is not a grade band"))
        #expect(result.stderr.contains("/shorten needs fewer minutes than the current 50"))
        #expect(result.stderr.contains("Nothing to undo: v1 is the first version."))
        #expect(result.stdout.contains("── v1 · /generate · 9–12 · 50 min"))
        #expect(try await server.requests().count == 1)
    }

    @Test func ctrlCWhileStreamingCancelsTheTurnAndKeepsTheSession() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .slow(delayMs: 300)])
        let running = try binary.start(["--grade", "6-8", "--topic", "Tides", "--minutes", "45"])
        running.write("/shorten 30\n")
        try await running.waitForOutput("── v1")
        try await running.waitForOutput("Learning Objective", after: "── v1")
        running.interrupt()
        try await running.waitForOutput("cancelled, still v1")
        running.write("/history\n/quit\n")
        running.closeInput()
        let result = try await running.wait()
        // A cancelled turn did not complete: a script that saw one exits 1.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Cancelled; the plan is unchanged."))
        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        #expect(ends.map { $0["status"] as? String } == ["completed", "cancelled"])
        #expect(ends[1]["version"] == nil)
        #expect(try await server.clientClosed(request: 2))
    }

    @Test func aBrokenPromptsFolderIsNamed() async throws {
        let binary = try LessonplanBinary(baseURL: URL(string: "http://127.0.0.1:9/v1"))
        defer { binary.removeHome() }
        let folder = binary.home.appending(path: "prompts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in [
            "instructions", "rules", "headings", "generate", "shorten", "lengthen", "differentiate", "regrade", "level",
            "revise", "standards", "convert", "materials", "repair",
        ] {
            try "{{topic}}\n".write(to: folder.appending(path: "\(name).txt"), atomically: true, encoding: .utf8)
        }
        try "Dear {{teacher}}\n".write(to: folder.appending(path: "shorten.txt"), atomically: true, encoding: .utf8)
        let result = try await binary.run(["generate", "--topic", "x", "--prompts", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("shorten.txt, line 1: {{teacher}} is not a known placeholder"))
        try "{{plan}}\n".write(to: folder.appending(path: "shorten.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appending(path: "revise.txt"))
        let missing = try await binary.run(["generate", "--topic", "x", "--prompts", folder.path])
        #expect(missing.status == 2 && missing.stderr.contains("revise.txt is missing"))
    }
}

/// `kill -9` mid-turn loses no completed turn and leaves a file the tool reads.
@Suite(.serialized) struct CrashEndToEndTests {
    @Test func killedMidStreamKeepsCompletedTurns() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        // A second between deltas: the kill lands mid-stream even when a loaded machine is slow to
        // show the first lines.
        try await server.script([.plan, .slow(delayMs: 1000)])
        let running = try binary.start(["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "crash"])
        running.write("/shorten 30\n")
        try await running.waitForOutput("Learning Objective", after: "── v1")
        kill(running.pid, SIGKILL)
        _ = try await running.wait()

        let lines = try binary.transcriptLines()
        #expect(lines.map { $0["type"] as? String }.suffix(2) == ["turn_ended", "turn_started"])
        let replay = try await binary.run(["replay", "crash", "--plain"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("── turn 2") && replay.stdout.contains("unfinished"))
        let resumed = try await binary.run(["resume", "crash"], input: "/history\n/shorten 30\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasPrefix("── v1 · /generate · 6–8 · 45 min"))
        #expect(resumed.stdout.contains("── v2 ·"))
        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        #expect(ends.map { $0["turn"] as? Int } == [1, 3])
    }
}
