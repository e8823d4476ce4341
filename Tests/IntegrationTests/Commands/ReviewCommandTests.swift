import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import TestSupport
import Testing

/// `/review` through the command runner and the real transport against the loopback fake server: what is sent,
/// what the teacher sees, what the transcript keeps, and where the review goes (the teacher's copy, never handouts).
@Suite(.serialized) struct ReviewCommandTests {
    static let invented = "Students build a model of the Moon's orbit out of clay."

    /// A session on the fake server, with the runner and a recording host.
    struct Session {
        let server: FakeOpenAIServer
        let home: TemporaryHome
        let engine: SessionEngine
        let host: RecordingHost
        let runner: CommandRunner

        init(place: CommandPlace = .script) async throws {
            server = try await FakeOpenAIServer()
            home = try TemporaryHome()
            engine = try SessionEngine(
                newSessionWith: try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), name: nil, store: home.store,
                prompts: .builtIn,
                client: ModelClient(
                    transport: CurlTransport(),
                    settings: ModelSettings(baseURL: server.baseURL, apiKey: "sk-test-key", model: "gpt-5.2")),
                toolVersion: "test", retryClock: RecordingRetryClock())
            host = RecordingHost(place: place, workingDirectory: home.url, columns: 72)
            runner = CommandRunner(engine: engine, host: host, settings: SessionSettings())
        }
    }

    @Test func aReviewIsSentCheckedShownAndKeptWithTheVersionItReviewed() async throws {
        let session = try await Session()
        defer { session.home.remove() }
        let plan = PlanFixtures.passing(minutes: 45)
        let answer = AssessmentFixtures.review(invented: ("Quality of Assessment", Self.invented))
        try await session.server.script([.text(plan), .text(answer)])
        #expect(await session.runner.run("/generate").status == .done)

        let outcome = await session.runner.run("/review")

        #expect(outcome.status == .done, "\(session.host.errors)")
        // The prompt carries the plan, every criterion and the layout asked for.
        let requests = try await session.server.requests()
        #expect(requests.count == 2)
        let prompt = try #require(requests.last?.inputText)
        #expect(prompt.contains("<<<PLAN\n" + plan))
        #expect(prompt.contains("2. Quality of Explanation of the Subject Matter: "))
        #expect(prompt.contains("Score: N of 3"))

        // The teacher sees a row per criterion, the invented quotation marked, and where the criteria come from.
        let shown = session.host.shown.joined(separator: "\n")
        #expect(shown.contains("Quality of Assessment: 2 of 3"), "\(shown)")
        #expect(shown.contains("✗ evidence not found in the plan"))
        #expect(shown.components(separatedBy: "evidence not found in the plan").count == 2, "one row is marked, once")
        #expect(shown.contains("✗ 1 of 7 quoted sentences is not in the plan"))
        #expect(shown.contains("Achieve OER Rubrics"))
        #expect(shown.split(separator: "\n").allSatisfy { $0.count <= 72 })
        let turn = try #require(outcome.turns.first)
        #expect(turn.made == Made(.review, 1) && turn.kind == .review && turn.version == nil)
        let footer = Footer.lines(for: turn)
        #expect(footer.first?.contains("review 1") == true && footer.first?.contains("✗ 1 quotation not in the plan") == true, "\(footer)")
        #expect(footer.contains { $0.contains(Self.invented) })
        // What `--then` would print last: the review, as shown.
        let delivered = session.host.products.compactMap { if case .text(let text) = $0 { text } else { nil } }
        #expect(delivered.last?.contains("Degree of Alignment to Standards: 2 of 3") == true)

        // The transcript: a `review` turn on v1, its number on turn_ended; read back (fast path) the same.
        let state = await session.engine.state
        #expect(state.versions.count == 1)
        let review = try #require(state.reviews.first)
        #expect(review.number == 1 && review.planVersion == 1)
        #expect(review.review.unfound.map(\.criterion) == ["Quality of Assessment"])
        let data = try Data(contentsOf: session.engine.transcriptURL)
        let lines = data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let started = try #require(objects.last { $0["type"] as? String == "turn_started" })
        let ended = try #require(objects.last { $0["type"] as? String == "turn_ended" })
        #expect(started["kind"] as? String == "review" && started["base_version"] as? Int == 1 && started["template"] as? String == "review")
        #expect(madeNumber(ended, "review") == 1 && ended["version"] == nil)
        for line in lines { #expect(TranscriptCoder().decodeFastPath(line) != nil) }
        let loaded = try #require(TranscriptReader.state(of: try TranscriptReader.read(session.engine.transcriptURL)))
        #expect(loaded.reviews.map(\.review) == state.reviews.map(\.review))

        // /show review and replay show it with its mark.
        #expect(await session.runner.run("/show review").status == .done)
        #expect(session.host.shown.last?.hasPrefix("── review 1 · 7 criteria · of v1") == true)
        let replay = SessionReview.replay(loaded, options: ReplayOptions()).map(\.plain).joined()
        #expect(replay.contains("completed → review 1 (from v1) · ✗ 1 quotation not in the plan"), "\(replay)")
        #expect(replay.contains("  Evidence: “\(Self.invented)”\n    ✗ evidence not found in the plan\n"), "\(replay)")
        #expect(await session.runner.run("/show review 2").status == .failed)
        #expect(session.host.errors.last == "There is no review 2; the reviews are numbered 1 to 1 (see /history).")
    }

    /// The teacher's copy carries the review (HTML, Markdown, JSON); the handouts made from the same version do not.
    @Test func theReviewIsOnTheTeachersCopyAndNeverOnTheHandouts() async throws {
        let session = try await Session()
        defer { session.home.remove() }
        let handouts = "Warm-Up\n1. What do you already know about Tides?\n\nExit Ticket\n1. One key idea I learned…\n"
        try await session.server.script([
            .text(PlanFixtures.passing(minutes: 45)),
            .text(AssessmentFixtures.review(invented: ("Quality of Assessment", Self.invented))),
            .text(handouts),
        ])
        for line in ["/generate", "/review", "/materials"] {
            #expect(await session.runner.run(line).status == .done, "\(line): \(session.host.errors)")
        }
        let state = await session.engine.state
        let prompts = PromptLibrary.builtIn
        func export(_ format: ExportFormat, materials: Bool) async throws -> String {
            String(decoding: try await ExportCommand.document(state, format: format, materials: materials, prompts: prompts), as: UTF8.self)
        }

        let teacher = try await export(.html, materials: false)
        #expect(teacher.contains("<h2>Second opinion: review 1 of v1</h2>"))
        #expect(teacher.contains("<th scope=\"row\">Quality of Assessment</th><td>2 of 3</td>"))
        #expect(teacher.contains("<tr class=\"marked\"><th scope=\"row\">Quality of Assessment</th>"))
        #expect(teacher.contains("⚠ evidence not found in the plan"))
        #expect(teacher.components(separatedBy: "class=\"marked\"").count == 2)
        #expect(teacher.contains("Achieve OER Rubrics") && teacher.contains("CC BY 3.0"))
        let markdown = try await export(.md, materials: false)
        #expect(markdown.contains("## Second opinion: review 1 of v1"))
        #expect(markdown.contains("| Quality of Assessment | 2 of 3 | “\(Self.invented)” ⚠ evidence not found in the plan |"))
        let json =
            try await JSONSerialization.jsonObject(with: try ExportCommand.document(state, format: .json, materials: false, prompts: prompts))
            as? [String: Any]
        let review = try #require(json?["review"] as? [String: Any])
        #expect((review["rows"] as? [[String: Any]])?.count == 7)
        #expect(review["number"] as? Int == 1 && review["planVersion"] as? Int == 1 && review["summary"] is String)
        #expect((review["rows"] as? [[String: Any]])?.first?["criterion"] as? String == "Degree of Alignment to Standards")

        for format in [ExportFormat.html, .md, .json] {
            let handout = try await export(format, materials: true)
            #expect(!handout.contains("Second opinion"), "\(format)")
            #expect(!handout.contains("Quality of Assessment"), "\(format)")
            #expect(!handout.contains("evidence not found"), "\(format)")
        }
        #expect(SessionReview.exportNotes(state, materials: false).isEmpty)

        // Once the plan moves on, an export of the new version leaves the review out and says so.
        try await session.server.script([.text(PlanFixtures.passing(minutes: 30, number: 2))])
        #expect(await session.runner.run("/shorten 30").status == .done)
        let moved = await session.engine.state
        let notes = SessionReview.exportNotes(moved, materials: false)
        #expect(notes.contains("Review 1 is of v1, not v2, so it is left out; type /review to review v2."), "\(notes)")
        let movedHTML = await String(decoding: try ExportCommand.document(moved, format: .html, materials: false, prompts: prompts), as: UTF8.self)
        #expect(!movedHTML.contains("Second opinion"))
    }

    /// An answer in no layout the reader knows is not kept, and says how to ask again; no plan is needed twice.
    @Test func anAnswerWithoutCriteriaIsNotKept() async throws {
        let session = try await Session()
        defer { session.home.remove() }
        try await session.server.script([.text(PlanFixtures.passing(minutes: 45)), .text("This plan looks good to me!")])
        #expect(await session.runner.run("/generate").status == .done)
        let outcome = await session.runner.run("/review")
        // Not what was asked for: the command failed, so a script that ran it ends non-zero.
        #expect(outcome.status == .failed)
        #expect(await session.engine.state.reviews.isEmpty)
        let turn = try #require(outcome.turns.first)
        #expect(turn.made == nil)
        #expect(Footer.text(for: turn).contains("not kept"))
        #expect(turn.keepNote?.contains("type /review to ask again") == true)
        #expect(session.host.shown.last == "This plan looks good to me!")
        #expect(await session.runner.run("/review now").status == .failed)
        #expect(session.host.errors.last?.hasSuffix("/review takes no arguments; type /review.") == true)
    }
}
