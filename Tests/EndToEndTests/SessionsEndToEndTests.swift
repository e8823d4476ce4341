import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

/// Sessions made by one process, looked at by another: list, resume, replay, re-run, export.
@Suite(.serialized) struct SessionsEndToEndTests {
    /// A session with three versions where the last command was undone: v2 is current.
    func makeSession(_ binary: LessonplanBinary, name: String = "photo week") async throws {
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--name", name],
            input: "/shorten\n/regrade 3–5\n/undo\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func sessionsListsNewestFirstAndSaysWhereWhenEmpty() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let empty = try await binary.runAtTerminal(["sessions"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("No saved sessions yet. Sessions are stored in \(binary.home.path)/sessions."))
        let emptyPiped = try await binary.run(["sessions"])
        #expect(emptyPiped.stdout.isEmpty && emptyPiped.stderr.contains("No saved sessions yet."))

        try await makeSession(binary)
        _ = try await binary.run(["generate", "--grade", "K", "--topic", "Seasons <&>", "--minutes", "20"])
        // Wide enough for every column (80 leaves out the last command; see theSessionsTableFitsTheWidth).
        let list = try await binary.runAtTerminal(["sessions"], columns: 120)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1].contains("Seasons <&>") && lines[1].contains("K–2") && lines[1].contains("/generate"), "\(list.stdout)")
        #expect(lines[2].contains("photo week") && lines[2].contains("6–8") && lines[2].contains("30"))
        #expect(lines[2].contains("/regrade 3–5"))

        let json = try await binary.run(["sessions", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[1]["name"] as? String == "photo week")
        #expect(array[1]["versions"] as? Int == 3)
    }

    @Test func resumeReopensTheVersionLastSeenWithUndoAndHistory() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await makeSession(binary)
        let before = try binary.transcriptLines().count

        let resumed = try await binary.run(["resume", "photo week"], input: "/history\n/undo\n/show\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Resumed session “photo week”"))
        // The plan shown first is v2, the one current after the undo.
        #expect(resumed.stdout.hasPrefix("── v2 · /shorten · 6–8 · 30 min"))
        #expect(resumed.stdout.contains("→ v2  6–8 · 30 min  /shorten (from v1)"))
        #expect(resumed.stdout.contains("Back to v1 (/generate)"))
        #expect(resumed.stdout.contains("── v1 · /generate · 6–8 · 45 min"))
        let lines = try binary.transcriptLines()
        #expect(lines.count == before + 1)
        #expect(lines.last?["type"] as? String == "undo")

        // An id prefix works too; an unknown one says how to find sessions.
        let id = try #require(lines.first?["id"] as? String)
        let byPrefix = try await binary.run(["resume", String(id.prefix(5))], input: "/quit\n")
        #expect(byPrefix.status == 0 && byPrefix.stdout.hasPrefix("── v1 · /generate"))
        let unknown = try await binary.run(["resume", "nothing-like-this"])
        #expect(unknown.status == 2 && unknown.stderr.contains("run `lessonplan sessions` to list them"))
    }

    @Test func resumeAfterAFailedTurnKeepsTheCurrentVersion() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .cut(afterDeltas: 5)])
        let first = try await binary.run(["--topic", "Tides", "--grade", "4", "--minutes", "40", "--name", "tides"], input: "/lengthen\n/quit\n")
        // The cut turn failed, so the script exits 1; the session is kept.
        #expect(first.status == 1)
        #expect(first.stderr.contains("/retry"))
        let resumed = try await binary.run(["resume", "tides"], input: "/quit\n")
        #expect(resumed.stdout.hasPrefix("── v1 · /generate · 3–5 · 40 min"))
    }

    @Test func anAmbiguousPrefixListsTheMatches() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        let sessions = binary.home.appending(path: "sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        for id in ["abc1000000000000", "abc2000000000000"] {
            try Transcripts.header(id: id, topic: "Topic \(id.prefix(4))").write(
                to: sessions.appending(path: "\(id).jsonl"), atomically: true, encoding: .utf8)
        }
        let result = try await binary.run(["replay", "abc"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("“abc” matches 2 sessions: abc10000 (Topic abc1), abc20000 (Topic abc2); type more"))
    }

    /// Writes hand-made transcripts into a fresh data directory; each is (id, topic, name, with a plan).
    func writeSessions(_ binary: LessonplanBinary, _ sessions: [(String, String, String?, Bool)]) throws {
        let folder = binary.home.appending(path: "sessions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (id, topic, name, planned) in sessions {
            let text =
                Transcripts.header(id: id, topic: topic, name: name) + (planned ? Transcripts.completedTurn(1, text: "A plan", topic: topic) : "")
            try text.write(to: folder.appending(path: "\(id).jsonl"), atomically: true, encoding: .utf8)
        }
    }

    @Test func namesMatchInAnyCaseAndByAUniquePrefixLikeIds() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        try writeSessions(
            binary,
            [
                ("aaa1000000000000", "Photosynthesis", "Photo week", true), ("bbb2000000000000", "Light", "photo lab", true),
                ("ccc3000000000000", "Tides", nil, true),
            ])
        for reference in ["Photo week", "PHOTO WEEK", "photo w", "aaa1", "AAA1"] {
            let found = try await binary.run(["replay", reference, "--plain"])
            #expect(found.status == 0 && found.stdout.hasPrefix("Session “Photo week”"), "\(reference): \(found.stderr)")
        }
        let ambiguous = try await binary.run(["replay", "Photo"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr == "“Photo” matches 2 sessions: aaa10000 “Photo week”, bbb20000 “photo lab”; type more of the id or the name.\n")
        let none = try await binary.run(["replay", "photos"])
        #expect(none.status == 2 && none.stderr.contains("No session matches “photos”"))
    }

    @Test func datesAreShownInLocalTimeAndStayUTCInJSON() async throws {
        var binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        try writeSessions(binary, [("aaa1000000000000", "Tides", "tides", true)])
        // The transcript says 09:00 UTC; Tokyo is nine hours ahead, New York five behind in November.
        binary.environment["TZ"] = "Asia/Tokyo"
        let tokyo = try await binary.run(["sessions"])
        #expect(tokyo.stdout.contains("\t2026-11-28 18:00\t"), "\(tokyo.stdout)")
        let replay = try await binary.run(["replay", "tides", "--plain"])
        #expect(replay.stdout.hasPrefix("Session “tides” · started 2026-11-28 18:00:00 · "))
        #expect(replay.stdout.contains("── turn 1 · 2026-11-28 18:00:01 · /generate"))
        let resumed = try await binary.run(["resume", "tides"], input: "/quit\n")
        #expect(resumed.stderr.contains("started 2026-11-28 18:00, last changed 2026-11-28 18:00"), "\(resumed.stderr)")
        let json = try await binary.run(["sessions", "--json"])
        #expect(json.stdout.contains("\"created\" : \"2026-11-28T09:00:00Z\""), "\(json.stdout)")
        binary.environment["TZ"] = "America/New_York"
        let newYork = try await binary.run(["sessions"])
        #expect(newYork.stdout.contains("\t2026-11-28 04:00\t"), "\(newYork.stdout)")
        let doctor = try await binary.run(["doctor", "--endpoint", "http://127.0.0.1:9/x", "--max-retries", "0"])
        #expect(doctor.stdout.contains("local time"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("America/New_York"), "\(doctor.stdout)")
    }

    @Test func sessionsWithoutAPlanAreListedAsEmptyAndPruned() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        try writeSessions(
            binary,
            [
                ("aaa1000000000000", "Tides", nil, true), ("bbb2000000000000", "Volcanoes", nil, false),
                ("ccc3000000000000", "Magnets", nil, false),
            ])
        let list = try await binary.run(["sessions"])
        #expect(
            list.stderr.contains(
                "2 sessions with 0 versions never got a plan; `lessonplan resume <id>` goes on with one, `lessonplan sessions prune` removes them."))
        let piped = try await binary.run(["sessions", "prune"])
        #expect(piped.status == 2 && piped.stderr.contains("pass --yes when not at a terminal"))
        let pruned = try await binary.run(["sessions", "prune", "--yes"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("Removed 2 sessions without a plan: bbb20000, ccc30000."))
        let after = try await binary.run(["sessions"])
        #expect(after.stdout.contains("Tides") && !after.stdout.contains("Volcanoes") && !after.stderr.contains("0 versions"))
        let again = try await binary.run(["sessions", "prune", "--yes"])
        #expect(again.stdout.contains("Every saved session has a plan; nothing to prune."))
    }

    @Test func theSessionsTableFitsTheWidth() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        try writeSessions(
            binary,
            [
                ("aaa1000000000000", "The water cycle and why clouds form over warm seas", "a session name of 20", true),
                ("bbb2000000000000", "分数と小数のくらべかた、図をつかって", "分数", true),
            ])
        let piped = try await binary.runAtTerminal(["sessions"])
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(piped.stdout)")
        #expect(lines[2].contains("The water cycle") && lines[2].contains("…"), "long topics are clipped to fit: \(piped.stdout)")
        #expect(!piped.stdout.contains("LAST COMMAND"), "at 80 the last command gives way")
        // Columns line up on screen: the Japanese row is as wide as the other when wide characters count twice.
        #expect(DisplayWidth.of(lines[1]) == DisplayWidth.of(lines[2]), "\(piped.stdout)")
        let wide = try await binary.runAtTerminal(["sessions"], columns: 200)
        #expect(wide.stdout.contains("LAST COMMAND") && wide.stdout.contains("a session name of 20"))
        let narrow = try await binary.runAtTerminal(["sessions"], columns: 100)
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of($0) <= 100 }, "\(narrow.stdout)")
        #expect(
            narrow.stdout.contains("LAST COMMAND") && narrow.stdout.contains("The water cycle and…"),
            "topics give way before the last command: \(narrow.stdout)")
    }

    @Test func aMistypedSubcommandGetsDidYouMeanAndExits2() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        let typo = try await binary.run(["sesions"])
        #expect(typo.status == 2)
        #expect(
            typo.stderr == "“sesions” is not a lessonplan command; did you mean `lessonplan sessions`? Run `lessonplan --help` to see them all.\n",
            "\(typo.stderr)")
        let far = try await binary.run(["banana"])
        #expect(far.status == 2 && far.stderr.contains("run `lessonplan --help` to see them.") && !far.stderr.contains("did you mean"))
    }

    @Test func pipedSessionsAreWholeTabSeparatedRowsThatGrepFinds() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        try writeSessions(
            binary,
            [
                ("aaa1000000000000", "Fractions on a number line with friendly denominators", "my fractions", true),
                ("bbb2000000000000", "Tides", nil, false),
            ])
        let piped = try await binary.run(["sessions"])
        #expect(piped.status == 0)
        let rows = piped.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows.count == 2, "no heading, no note: \(piped.stdout)")
        let fractions = try #require(rows.first { $0.first == "aaa1000000000000" })
        #expect(fractions.count == 8)
        #expect(fractions[1] == "my fractions" && fractions[5] == "Fractions on a number line with friendly denominators")
        #expect(!piped.stdout.contains("…") && !piped.stdout.contains("\u{1B}"))
        #expect(piped.stderr.contains("1 session with 0 versions never got a plan"), "notes go to stderr: \(piped.stderr)")
        // `lessonplan sessions | grep "number line"` finds the session by its full topic.
        let grep = try await binary.runShell("'\(binary.url.path)' sessions 2>/dev/null | grep 'number line' | cut -f2")
        #expect(grep == "my fractions\n", "\(grep)")
    }

    @Test func replayShowsEveryTurnWithDiffsWithoutAKey() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await makeSession(binary)
        var offline = try LessonplanBinary(baseURL: URL(string: "http://127.0.0.1:9/v1"), apiKey: nil)
        offline.environment["LESSONPLAN_HOME"] = binary.home.path

        let replay = try await offline.run(["replay", "photo week", "--plain"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let out = replay.stdout
        #expect(out.contains("── turn 1 · "))
        #expect(out.contains(" · /generate"))
        #expect(out.contains("── turn 2 · ") && out.contains(" · /shorten"))
        #expect(out.contains("completed → v2 (from v1)"))
        #expect(out.contains("── turn 3 · ") && out.contains(" · /regrade 3–5"))
        #expect(out.contains("model gpt-5.2 · "))
        #expect(out.contains(" in / ") && out.contains(" out tokens"))
        #expect(out.contains("@@ -"))
        #expect(out.contains("- Plan #1 — grade band 6–8, 45 minutes in total."))
        #expect(out.contains("+ Plan #2 — grade band 6–8, 30 minutes in total."))
        #expect(out.contains("── undo · ") && out.contains("v3 → v2"))
        #expect(!out.contains("\u{1B}["))

        let one = try await offline.run(["replay", "photo week", "--turn", "2", "--full", "--plain"])
        #expect(one.stdout.contains("── turn 2") && !one.stdout.contains("── turn 1") && !one.stdout.contains("@@"))
        #expect(one.stdout.contains("Learning Objective"))
        let missing = try await offline.run(["replay", "photo week", "--turn", "9"])
        #expect(missing.status == 2 && missing.stderr.contains("has no turn 9"))

        // A transcript file can be replayed by path.
        let file = try #require(
            FileManager.default.contentsOfDirectory(atPath: binary.home.appending(path: "sessions").path).first { $0.hasSuffix(".jsonl") })
        let byPath = try await offline.run(["replay", binary.home.appending(path: "sessions/\(file)").path, "--plain"])
        #expect(byPath.status == 0 && byPath.stdout.contains("── turn 3"))
    }

    @Test func rerunSendsTheSameCommandsAndShowsHowPlansDiffer() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await makeSession(binary)
        try await server.reset()
        try await server.script([.plan, .text("Learning Objective\nA different plan.\n")])
        // A plan this broken would be repaired automatically; this test is about the diff, so no repair.
        let rerun = try await binary.run(["replay", "--rerun", "photo week", "--plain", "--model", "gpt-test-b", "--no-repair"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.model == "gpt-test-b" })
        #expect(requests[1].inputText?.contains("in 30 minutes instead of 45") == true)
        #expect(rerun.stdout.contains("── turn 2 · /shorten"))
        #expect(rerun.stdout.contains("recorded: completed · now: completed"))
        // The fake numbers its plans per request, so after a reset turn 1 comes back the same.
        #expect(rerun.stdout.contains("── turn 1 · /generate\n   recorded: completed · now: completed\n(no changes)"))
        #expect(rerun.stdout.contains("- Plan #2 — grade band 6–8, 30 minutes in total."))
        #expect(rerun.stdout.contains("+ A different plan."))
        #expect(rerun.stderr.contains("holds the re-run"))
        let list = try await binary.run(["sessions", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        // The re-run repeated the undo, so it ends where the original did.
        #expect(array[0]["versions"] as? Int == 3 && array[0]["minutes"] as? Int == 30)
    }

    /// A re-run checks the key before it makes a session, honours --turn, and announces each turn once;
    /// a failed attempt is listed as skipped and the retry that made the version is sent once.
    @Test func rerunChecksTheKeyFirstAndSendsOnlyTheAttemptsThatMadeVersions() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .error(status: 500, headers: [:]), .plan])
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--max-retries", "0"],
            input: "/shorten 30\n/retry\n/quit\n")
        #expect(made.status == 1, "\(made.stderr)")
        try await server.reset()

        var noKey = binary
        noKey.environment["OPENAI_API_KEY"] = nil
        let refused = try await noKey.run(["replay", "--rerun", "tides"])
        #expect(refused.status == 2 && refused.stderr.contains("No API key is set"), "\(refused.stderr)")
        #expect(try await server.requests().isEmpty)
        let afterRefusal = try await binary.run(["sessions", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(afterRefusal.stdout.utf8)) as? [Any])?.count == 1)

        binary.environment["OPENAI_API_KEY"] = "sk-test.SECRETKEY-9z8y7x6w5v"
        let all = try await binary.run(["replay", "--rerun", "tides", "--plain"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("── turn 2 · /shorten 30\n   skipped: a failed attempt, not sent again"))
        #expect(all.stdout.contains("── turn 3 · /shorten 30\n   recorded: completed · now: completed"))
        #expect(all.stderr.components(separatedBy: "→ turn 3").count == 2)
        #expect(try await server.requests().count == 2)

        try await server.reset()
        let one = try await binary.run(["replay", "--rerun", "tides", "--plain", "--turn", "3"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(!one.stdout.contains("── turn 1") && one.stdout.contains("── turn 3"))
        let missing = try await binary.run(["replay", "--rerun", "tides", "--turn", "9"])
        #expect(missing.status == 2 && missing.stderr.contains("has no turn 9"))
    }

    @Test func exportsMarkdownHtmlAndJson() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text("Learning Objective\nStudents compare <b>fractions</b> & \"decimals\".\n\nMaterials\n- Fraction strips\n")])
        // Kept as written (no automatic repair), since the escaping of exactly this text is under test.
        _ = try await binary.run(["generate", "--topic", "Fractions & <decimals>", "--grade", "4", "--name", "fr", "--no-repair"])

        let markdown = try await binary.run(["export", "fr", "--format", "md"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("## Learning Objective"))
        #expect(markdown.stdout.contains("- Fraction strips"))
        #expect(markdown.stdout.contains("3–5"))

        let page = binary.home.appending(path: "plan.html")
        let html = try await binary.run(["export", "fr", "--format", "html", "-o", page.path])
        #expect(html.status == 0, "\(html.stderr)")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.contains("Students compare &lt;b&gt;fractions&lt;/b&gt; &amp; &quot;decimals&quot;."))
        #expect(text.contains("Fractions &amp; &lt;decimals&gt;"))
        #expect(!text.contains("<b>fractions"))
        #expect(text.contains("@media print"))
        #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("<script"))
        try await HTMLCheck.parses(text)

        let again = try await binary.run(["export", "fr", "--format", "html", "-o", page.path])
        #expect(again.status == 1 && again.stderr.contains("already exists"))
        let forced = try await binary.run(["export", "fr", "--format", "json", "-o", page.path, "--force"])
        #expect(forced.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: page)) as? [String: Any])
        #expect((json["versions"] as? [[String: Any]])?.first?["command"] as? String == "/generate")
        #expect(json["current_version"] as? Int == 1 || json["currentVersion"] as? Int == 1)

        // A plan with pacing gets a pacing table that adds up to the lesson.
        _ = try await binary.run(["generate", "--topic", "Tides", "--grade", "4", "--minutes", "40", "--name", "paced"])
        let paced = try await binary.run(["export", "paced", "--format", "html"])
        #expect(paced.stdout.contains("<tr><td>Warm-Up (5 min)</td><td>0–5</td><td>5 min</td></tr>"))
        #expect(paced.stdout.contains("<tr><td>Exit Ticket</td><td>37–40</td><td>3 min</td></tr>"))
        try await HTMLCheck.parses(paced.stdout)

        let bad = try await binary.run(["export", "fr", "--format", "pdf"])
        #expect(
            bad.status == 2
                && bad.stderr.contains(
                    "PDF is not offered; export the printable page with --format html -o plan.html, open it in a browser and print it"),
            "\(bad.stderr)")
        let unknown = try await binary.run(["export", "fr", "--format", "rtf"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--format md, html, json, docx, odt or pptx"))

        let inSession = try await binary.run(["resume", "fr"], input: "/export md\n/export pdf\n/export\n/quit\n")
        #expect(inSession.stdout.contains("## Materials"))
        #expect(
            inSession.stderr.contains("PDF is not offered; export the printable page with /export html, open it in a browser and print it"),
            "\(inSession.stderr)")
        #expect(inSession.stderr.contains("/export needs a format"))
    }

    @Test func removeAsksOrNeedsYes() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        _ = try await binary.run(["generate", "--topic", "Tides", "--name", "tides"])
        let refused = try await binary.run(["sessions", "rm", "tides"])
        #expect(refused.status == 2 && refused.stderr.contains("pass --yes"))
        let removed = try await binary.run(["sessions", "rm", "tides", "--yes"])
        #expect(removed.status == 0 && removed.stdout.contains("Removed session"))
        #expect(try await binary.run(["sessions"]).stderr.contains("No saved sessions yet"))
    }

    @Test func aSessionOpenInAnotherProcessIsLocked() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let holder = try binary.start(["--topic", "Tides", "--grade", "4", "--minutes", "30", "--name", "tides"])
        try await holder.waitForOutput("── v1")
        let second = try await binary.run(["resume", "tides"], input: "/quit\n")
        #expect(second.status == 2)
        #expect(second.stderr.contains("is open in another lessonplan"))
        let rm = try await binary.run(["sessions", "rm", "tides", "--yes"])
        #expect(rm.status == 1 && rm.stderr.contains("is open in another lessonplan"))
        holder.write("/quit\n")
        holder.closeInput()
        #expect(try await holder.wait().status == 0)
        let after = try await binary.run(["resume", "tides"], input: "/quit\n")
        #expect(after.status == 0)
    }

    @Test func damagedTranscriptsOpenOrAreRefusedClearly() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let sessions = binary.home.appending(path: "sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)

        // Torn last line: opens, reported once.
        let torn =
            Transcripts.header(id: "1000000000000000", topic: "Torn") + Transcripts.completedTurn(1, text: "The plan")
            + "{\"type\":\"turn_started\",\"v\":1,\"turn\":2,\"comm"
        try torn.write(to: sessions.appending(path: "1000000000000000.jsonl"), atomically: true, encoding: .utf8)
        let replay = try await binary.run(["replay", "1000", "--plain"])
        #expect(replay.status == 0)
        #expect(replay.stderr.components(separatedBy: "cut off").count == 2)
        #expect(replay.stdout.contains("The plan"))
        let resumed = try await binary.run(["resume", "1000"], input: "/quit\n")
        #expect(resumed.status == 0 && resumed.stdout.contains("The plan"))

        // Unknown line type: skipped with a warning.
        let unknown =
            Transcripts.header(id: "2000000000000000", topic: "Unknown") + "{\"type\":\"sticker\",\"v\":1}\n"
            + Transcripts.completedTurn(1, text: "Still here")
        try unknown.write(to: sessions.appending(path: "2000000000000000.jsonl"), atomically: true, encoding: .utf8)
        let skipped = try await binary.run(["replay", "2000", "--plain"])
        #expect(skipped.status == 0 && skipped.stderr.contains("type “sticker”") && skipped.stdout.contains("Still here"))

        // Newer format: refused with a sentence.
        let newer = Transcripts.header(id: "3000000000000000", topic: "Newer").replacingOccurrences(of: "\"v\":1", with: "\"v\":7")
        try newer.write(to: sessions.appending(path: "3000000000000000.jsonl"), atomically: true, encoding: .utf8)
        let refused = try await binary.run(["replay", "3000"])
        #expect(refused.status == 2 && refused.stderr.contains("written by a newer lessonplan (transcript format 7)"))

        // Not a transcript at all.
        let garbage = binary.home.appending(path: "notes.jsonl")
        try Data([0xFF, 0x00, 0x41, 0x0A, 0x7B]).write(to: garbage)
        let notTranscript = try await binary.run(["replay", garbage.path])
        #expect(notTranscript.status == 2 && notTranscript.stderr.contains("is not a lessonplan transcript"))
        let exported = try await binary.run(["export", garbage.path, "--format", "md"])
        #expect(exported.status == 2 && exported.stderr.contains("is not a lessonplan transcript"))
        // Listing does not fail on what it cannot read: it lists it below the table, with the reason.
        let list = try await binary.run(["sessions"])
        #expect(list.status == 0 && list.stdout.contains("10000000"), "\(list.stdout)")
        #expect(
            list.stderr.contains(
                "Cannot list 3000000000000000.jsonl in \(binary.home.path)/sessions: was written by a newer lessonplan (transcript format 7)"),
            "\(list.stderr)")
    }

    /// `/edit` and `/copy` need a teacher at a terminal: a piped script is told so at the line, and
    /// a script in a file is refused before anything is sent. (The editor itself is tested in tmux.)
    @Test func editAndCopyNeedATerminal() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        binary.environment["VISUAL"] = "true"
        let piped = try await binary.run(["--topic", "Tides", "--grade", "4", "--minutes", "30"], input: "/edit\n/copy\n/quit\n")
        #expect(piped.status == 1, "\(piped.stderr)")
        #expect(piped.stderr.contains("/edit needs a teacher at a terminal, so it cannot run in a script."))
        #expect(piped.stderr.contains("/copy needs a teacher at a terminal, so it cannot run in a script."))
        #expect(!piped.stdout.contains("\u{1B}]52"))
        #expect(try binary.transcriptLines().contains { $0["type"] as? String == "hand_edit" } == false)
        #expect(try await server.requests().count == 1)

        let script = binary.home.appending(path: "lesson.txt")
        try "/shorten 30\n/edit\n".write(to: script, atomically: true, encoding: .utf8)
        let fromFile = try await binary.run(["--topic", "Tides", "--grade", "4", "--minutes", "45"], stdinFile: script)
        #expect(fromFile.status == 2, "\(fromFile.stderr)")
        #expect(fromFile.stderr.contains("“/edit”: /edit needs a teacher at a terminal, so it cannot run in a script."))
        #expect(fromFile.stderr.contains("Nothing was sent"))
        #expect(try await server.requests().count == 1)
    }
}

/// Hand-written transcript lines in the documented format, for damaged-file tests.
enum Transcripts {
    static func header(id: String, topic: String, name: String? = nil) -> String {
        let named = name.map { "\"name\":\"\($0)\"," } ?? ""
        return
            "{\"type\":\"session\",\"v\":1,\"id\":\"\(id)\",\(named)\"created\":\"2026-11-28T09:00:00.000Z\",\"inputs\":{\"grade\":\"6–8\",\"topic\":\"\(topic)\",\"minutes\":45,\"standards\":\"\",\"constraints\":\"\"},\"model\":\"gpt-5.2\",\"base_url\":\"https://api.openai.com/v1\",\"tool_version\":\"0.1.0\"}\n"
    }

    static func completedTurn(_ turn: Int, text: String, topic: String = "x") -> String {
        let inputs = "{\"grade\":\"6–8\",\"topic\":\"\(topic)\",\"minutes\":45,\"standards\":\"\",\"constraints\":\"\"}"
        return
            "{\"type\":\"turn_started\",\"v\":1,\"turn\":\(turn),\"at\":\"2026-11-28T09:00:01.000Z\",\"command\":\"/generate\",\"template\":\"generate\",\"inputs\":\(inputs),\"model\":\"gpt-5.2\",\"instructions\":\"i\",\"input\":\"p\",\"max_output_tokens\":8192}\n"
            + "{\"type\":\"turn_ended\",\"v\":1,\"turn\":\(turn),\"at\":\"2026-11-28T09:00:02.000Z\",\"status\":\"completed\",\"output\":\"\(text)\",\"version\":\(turn),\"duration_ms\":1000}\n"
    }
}

/// Python's html.parser reads the page without error and its tags balance.
enum HTMLCheck {
    static func parses(_ html: String) async throws {
        let script = """
            import sys
            from html.parser import HTMLParser
            VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}
            class Check(HTMLParser):
                def __init__(self):
                    super().__init__()
                    self.stack = []
                def handle_starttag(self, tag, attrs):
                    if tag not in VOID:
                        self.stack.append(tag)
                def handle_endtag(self, tag):
                    if not self.stack or self.stack.pop() != tag:
                        sys.exit("unbalanced </%s>" % tag)
            checker = Check()
            checker.feed(sys.stdin.read())
            checker.close()
            if checker.stack:
                sys.exit("unclosed: %s" % checker.stack)
            """
        let result = try await Python.run(script, input: Data(html.utf8))
        #expect(result.status == 0, "html.parser: \(result.output)")
    }
}
