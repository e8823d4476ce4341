import Foundation
import TestSupport
import Testing

/// `/quiz`, `/rubric` and `/slides` through the built binary against the fake server: a script, the
/// transcript, `replay`, `export` and `generate --then`.
@Suite(.serialized) struct AssessmentEndToEndTests {
    @Test func aQuizIsRepairedOnceAndARubricFitsTheWidthAndBothGoIntoTheExports() async throws {
        let server = try await FakeOpenAIServer()
        // The first quiz leaves items 1 and 4 without an answer; the repair (the server's own quiz) passes.
        let broken = AssessmentFixtures.quiz(kind: "starter", items: 4).replacingOccurrences(of: "Answer: B\n", with: "")
        try await server.script([.plan, .text(broken)])
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        binary.environment["COLUMNS"] = "72"
        defer { binary.removeHome() }
        let handout = binary.home.appending(path: "handout.md")
        let plan = binary.home.appending(path: "plan.md")
        let deck = binary.home.appending(path: "deck.pptx")
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "tides"],
            input: """
                /quiz starter 4
                /rubric 3
                /show quiz
                /materials
                /export materials md \(handout.path)
                /export md \(plan.path)
                /slides \(deck.path)
                /quit

                """)
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("✗ quiz check: 2 problems"), "\(out)")
        #expect(out.contains("   ✗ Item 1 marks no answer; add one line “Answer: <letter>”."))
        #expect(out.contains("── repairing quiz 1 once: asking for the same quiz without its 2 problems…"))
        #expect(out.contains("── quiz 2 · "))
        #expect(out.contains("The repaired quiz has fewer problems, so it replaces quiz 1."))
        // The rubric is a table at the width COLUMNS gives a pipe, never wider.
        let table = out.split(separator: "\n").filter { $0.hasPrefix("│") || $0.hasPrefix("┌") || $0.hasPrefix("└") }
        #expect(table.count > 6)
        #expect(table.allSatisfy { $0.count <= 72 }, "\(table)")
        #expect(table.contains { $0.contains("Criterion") && $0.contains("Developing (2)") })
        #expect(out.contains("── rubric 1 · "))
        // /show quiz: the teacher's view, with the key and the misconceptions.
        #expect(out.contains("── quiz 2 · starter · 4 items · from v1"))
        #expect(out.contains("   Answer: B") && out.contains("Misconceptions it probes:"))

        let requests = try await server.requests()
        #expect(requests.count == 5)
        #expect(requests[1].inputText?.contains("Write a starter quiz of exactly 4 multiple-choice items") == true)
        let repair = try #require(requests[2].inputText)
        #expect(repair.contains("- Item 4 marks no answer") && repair.contains("<<<QUIZ\nQuiz: starter"))
        #expect(requests[3].inputText?.contains("Exactly 3 levels, lowest first") == true)

        let lines = try binary.transcriptLines()
        let starts = lines.filter { $0["type"] as? String == "turn_started" }
        let ends = lines.filter { $0["type"] as? String == "turn_ended" }
        #expect(starts[1]["kind"] as? String == "quiz" && starts[1]["quiz_kind"] as? String == "starter")
        #expect(starts[1]["quiz_items"] as? Int == 4 && starts[1]["base_version"] as? Int == 1)
        #expect(starts[2]["command"] as? String == "(auto repair)" && starts[2]["follows"] as? Int == 1)
        #expect(madeNumber(ends[1], "quiz") == 1 && madeNumber(ends[2], "quiz") == 2 && ends[2]["kept"] as? Bool == true)
        #expect(starts[3]["kind"] as? String == "rubric" && starts[3]["rubric_levels"] as? Int == 3)
        #expect(madeNumber(ends[3], "rubric") == 1 && ends[3]["version"] == nil)

        let handoutText = try String(contentsOf: handout, encoding: .utf8)
        #expect(handoutText.contains("## Starter quiz") && !handoutText.contains("Answer key") && !handoutText.contains("mixes up"), "\(handoutText)")
        #expect(handoutText.contains("| I can explain |"))
        let planText = try String(contentsOf: plan, encoding: .utf8)
        #expect(planText.contains("## Starter quiz") && planText.contains("## Answer key: starter quiz"))
        #expect(planText.contains("| Explains the idea |"))
        let slides = try await OfficeDocument.paragraphs(of: deck)
        #expect(slides.contains { $0.text == "Starter quiz · question 4 of 4" })
        #expect(slides.contains { $0.style.hasPrefix("notes") && $0.text.hasPrefix("Answer: ") })

        // Replay shows the quiz turns; the command line's export carries the quiz too.
        let replay = try await binary.run(["replay", "tides", "--plain"])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("completed → quiz 1 (from v1) · ✗ quiz check: 2 problems"))
        #expect(replay.stdout.contains("completed → quiz 2, repairing quiz 1 (from v1) · ✓ quiz check"))
        let exported = try await binary.run(["export", "tides", "--materials", "--format", "md"])
        #expect(exported.status == 0 && exported.stdout.contains("## Starter quiz") && !exported.stdout.contains("Answer key"))

        // Resumed, the quiz is still there; a new plan version of another band does not fit it, and says why.
        let resumed = try await binary.run(["resume", "tides"], input: "/regrade 3-5\n/show quiz\n/export md\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("This quiz was made from v1, but the plan is now v2; type /quiz to make one from v2."))
        #expect(
            resumed.stdout.contains("It does not fit v2: it was written for grades 6–8, and v2 is for grades 3–5; /quiz again writes it again."),
            "\(resumed.stdout)")
        #expect(
            resumed.stderr.contains(
                "Quiz 2 (starter) was written for v1 and does not fit v2: it was written for grades 6–8, and v2 is for grades 3–5; type /quiz again to rewrite it."
            ), "\(resumed.stderr)")
    }

    @Test func generateThenQuizPrintsTheQuizWithItsKey() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/quiz 3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Exit quiz · 3 items · answer key\n"), "\(result.stdout)")
        #expect(result.stdout.contains("3. Question 3 on Tides") && result.stdout.contains("Answer: A"))
        #expect(result.stderr.contains("── quiz 1 · ") && result.stderr.contains("✓ quiz check"))
        let refused = try await binary.run(["generate", "--topic", "Tides", "--then", "/quiz 40"])
        #expect(refused.status == 1 && refused.stderr.contains("A quiz has 3 to 15 items, not 40"))
    }

    /// A review in prose holds no criterion: it is not kept, and the script that asked for it ends non-zero.
    @Test func generateThenReviewOfAnAnswerInProseExitsNonZero() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text("This plan looks good to me! The objective is clear and the exit ticket fits.")])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/review"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("not kept"), "\(result.stderr)")
    }

    /// Scores off the scale and criteria the rubric does not list are marked where the teacher reads the review.
    @Test func generateThenReviewMarksAScoreOffTheScaleAndAnInventedCriterion() async throws {
        let review = AssessmentFixtures.review()
            .replacingOccurrences(of: "Criterion: Quality of Assessment\nScore: 2 of 3", with: "Criterion: Quality of Assessment\nScore: 7 of 3")
            .replacingOccurrences(of: "Criterion: Assurance of Accessibility", with: "Criterion: Vibes")
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text(review)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/review"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Quality of Assessment: not kept"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ score “7 of 3” is not on the scale, so it is not kept"), "\(result.stdout)")
        #expect(result.stdout.contains("Vibes: 1 of 3") && result.stdout.contains("✗ not one of the criteria the review was asked to score"))
        #expect(!result.stdout.contains("7 of 3\n"))
    }
}
