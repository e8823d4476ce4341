import Foundation
import LessonPlanKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A transcript is data someone may have written: replaying or re-running it runs model turns only, and
/// what it says about itself (its id above all) never picks a path.
@Suite(.serialized) struct SharedTranscriptEndToEndTests {
    /// A three-turn session made by the binary, and its transcript's lines as JSON objects.
    func makeSession(_ binary: LessonplanBinary, model: String? = nil) async throws -> [[String: Any]] {
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45", "--name", "photo week", "--no-repair"]
                + (model.map { ["--model", $0] } ?? []),
            input: "/shorten\n/lengthen\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")
        return try binary.transcriptLines()
    }

    /// Writes `lines` as a transcript at `url`, with each turn_started command replaced as `commands` says.
    func write(_ lines: [[String: Any]], to url: URL, commands: [Int: String] = [:]) throws {
        var text = ""
        for var line in lines {
            if line["type"] as? String == "turn_started", let turn = line["turn"] as? Int, let command = commands[turn] {
                line["command"] = command
            }
            text += String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func aRerunSendsModelTurnsOnlyAndListsWhatItSkipped() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let lines = try await makeSession(binary)
        let victim = binary.home.appending(path: "victim.txt")
        try "keep me\n".write(to: victim, atomically: true, encoding: .utf8)
        // What a colleague's file could say: turn 2 overwrites a file, turn 3 names a session.
        let shared = binary.home.appending(path: "colleague.jsonl")
        try write(lines, to: shared, commands: [2: "/export html \(victim.path) --force", 3: "/save stolen-name"])
        try await server.reset()

        let rerun = try await binary.run(["replay", "--rerun", shared.path, "--plain"])
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(rerun.stdout.contains("── turn 2 · /export html"), "\(rerun.stdout)")
        #expect(rerun.stdout.contains("skipped: /export is not a request to the model; a re-run sends model turns only, so it did not run"))
        #expect(rerun.stdout.contains("── turn 3 · /save stolen-name\n   skipped: /save is not a request to the model"))
        #expect(!rerun.stderr.contains("Wrote"), "\(rerun.stderr)")
        #expect(try await server.requests().count == 1, "only turn 1, /generate, is sent again")
        let list = try await binary.run(["sessions", "--json"])
        #expect(!list.stdout.contains("stolen-name"), "\(list.stdout)")
    }

    /// `resume FILE` of a transcript someone sent: the file is left as it was (never appended to, outside the data
    /// directory), its copy goes on in the sessions folder under an id the tool chose (0600), listed by `sessions`,
    /// and nothing of the header's id is shown or made a path.
    @Test func resumingASentFileGoesOnInACopyInTheDataDirectory() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        var lines = try await makeSession(binary)
        let original = try #require(lines[0]["id"] as? String)
        lines[0]["id"] = "../../.."
        let inbox = binary.home.appending(path: "inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let shared = inbox.appending(path: "their.jsonl")
        try write(lines, to: shared)
        #expect(chmod(shared.path, 0o644) == 0)
        let sent = try Data(contentsOf: shared)

        let resumed = try await binary.run(["resume", shared.path], input: "/shorten\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: shared) == sent, "the sent file was written to")
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path) == ["their.jsonl"])
        #expect(resumed.stderr.contains("Copied their.jsonl into your sessions as "), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Its name “photo week” is taken"), "\(resumed.stderr)")
        #expect(!(resumed.stdout + resumed.stderr).contains("../../.."), "\(resumed.stderr)")

        let list = try await binary.run(["sessions", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2, "\(list.stdout)")
        let copy = try #require(rows.compactMap { $0["id"] as? String }.first { $0 != original && $0.count == 16 })
        #expect(resumed.stderr.contains("Resumed session \(copy.prefix(8)):"), "\(resumed.stderr)")
        let file = binary.home.appending(path: "sessions/\(copy).jsonl")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("{") && text.contains("\"id\":\"\(copy)\"") && !text.contains("../../.."))
        #expect(text.components(separatedBy: "\"type\":\"turn_started\"").count == 5, "three turns sent, one new")
    }

    /// A re-run of more than 3 requests says how many and sends nothing without --yes when not at a terminal.
    @Test func aLongRerunAsksBeforeItSends() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--no-repair"],
            input: "/shorten\n/lengthen\n/shorten\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")
        try await server.reset()

        let refused = try await binary.run(["replay", "--rerun", "tides", "--plain"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("This re-run would send 4 requests to "), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was sent. Pass --yes"), "\(refused.stderr)")
        #expect(try await server.requests().isEmpty)
        let list = try await binary.run(["sessions", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])?.count == 1, "no session was made")

        let atTerminal = try await binary.runAtTerminal(["replay", "--rerun", "tides", "--plain"])
        #expect(atTerminal.stdout.contains("This re-run sends 4 requests to "), "\(atTerminal.stdout)")
        #expect(atTerminal.stdout.contains("Send them? [y/N]"), "\(atTerminal.stdout)")
        #expect(try await server.requests().isEmpty, "no answer is no")

        let sent = try await binary.run(["replay", "--rerun", "tides", "--plain", "--yes"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await server.requests().count == 4)
    }

    @Test func aRerunUsesTheRecordedModelOverLESSONPLAN_MODEL() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        _ = try await makeSession(binary, model: "gpt-recorded")
        try await server.reset()
        binary.environment["LESSONPLAN_MODEL"] = "gpt-from-environment"
        let rerun = try await binary.run(["replay", "--rerun", "photo week", "--plain"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.model == "gpt-recorded" }, "\(requests.map { $0.model ?? "" })")
        #expect(rerun.stderr.contains("with gpt-recorded into new session"), "\(rerun.stderr)")
        // --model still wins.
        try await server.reset()
        _ = try await binary.run(["replay", "--rerun", "photo week", "--plain", "--turn", "1", "--model", "gpt-flag"])
        #expect(try await server.requests().map(\.model) == ["gpt-flag"])
    }

    /// Header lines that name another id: a path out of the data directory, a NUL, another session's id.
    @Test func aSessionsIdIsItsFileNameWhateverItsHeaderSays() async throws {
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        let sessions = binary.home.appending(path: "sessions")
        let victims = binary.home.appending(path: "victims")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victims, withIntermediateDirectories: true)
        for file in ["victim.jsonl", "victim.summary.json"] {
            try "precious\n".write(to: victims.appending(path: file), atomically: true, encoding: .utf8)
        }
        // No plan, so `sessions prune` removes it: by its file's name, not by what its header says.
        try Transcripts.header(id: "../victims/victim", topic: "Empty").write(
            to: sessions.appending(path: "aaaa000000000000.jsonl"), atomically: true, encoding: .utf8)
        try (Transcripts.header(id: "../victims/resumed", topic: "Tides") + Transcripts.completedTurn(1, text: "A plan")).write(
            to: sessions.appending(path: "bbbb000000000000.jsonl"), atomically: true, encoding: .utf8)
        try (Transcripts.header(id: "nul\\u0000id", topic: "Moon") + Transcripts.completedTurn(1, text: "A plan")).write(
            to: sessions.appending(path: "cccc000000000000.jsonl"), atomically: true, encoding: .utf8)
        // A copy keeps its header, whose id is the original's.
        try FileManager.default.copyItem(
            at: sessions.appending(path: "bbbb000000000000.jsonl"), to: sessions.appending(path: "dddd000000000000.jsonl"))

        let replay = try await binary.run(["replay", "aaaa", "--plain"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            replay.stderr.contains("says its id is “../victims/victim”, but a session's id is its file's name, so it is aaaa000000000000 here."),
            "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix("Session aaaa0000 "), "\(replay.stdout)")

        for id in ["bbbb", "cccc", "dddd"] {
            let resumed = try await binary.run(["resume", id], input: "/quit\n")
            #expect(resumed.status == 0, "\(id): \(resumed.stderr)")
        }
        let list = try await binary.run(["sessions", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let ids = rows.compactMap { $0["id"] as? String }.sorted()
        #expect(ids == ["aaaa000000000000", "bbbb000000000000", "cccc000000000000", "dddd000000000000"], "\(list.stdout)")

        let pruned = try await binary.run(["sessions", "prune", "--yes"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("Removed 1 session without a plan: aaaa0000."), "\(pruned.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victims.path).sorted() == ["victim.jsonl", "victim.summary.json"])
        for file in ["victim.jsonl", "victim.summary.json"] {
            #expect(try String(contentsOf: victims.appending(path: file), encoding: .utf8) == "precious\n")
        }
        // Nothing was written beside the data directory's own files, whatever the headers said.
        let home = try FileManager.default.contentsOfDirectory(atPath: binary.home.path).filter { $0 != "history" && $0 != "work" }.sorted()
        #expect(home == ["sessions", "victims"], "\(home)")
        let left = try FileManager.default.contentsOfDirectory(atPath: sessions.path).filter { !$0.hasPrefix(".") }
        let kept = ["bbbb000000000000", "cccc000000000000", "dddd000000000000"]
        #expect(left.filter { $0.hasSuffix(".jsonl") }.sorted() == kept.map { "\($0).jsonl" }, "\(left)")
        #expect(left.allSatisfy { file in kept.contains { file.hasPrefix($0 + ".") } }, "\(left)")
    }
}
