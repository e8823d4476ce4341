import Foundation
import TestSupport
import Testing

/// `/redo SECTION` through the built binary against the scripted server (issue #38): one request whose answer
/// is one section, a version that differs from its parent in that section alone, and a change of its time
/// refused before anything is sent.
@Suite struct RedoEndToEndTests {
    @Test func oneSectionIsWrittenAgainAndTheRestIsKept() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--no-repair"],
            input: "/redo warm-up 10 minutes of tide pools\n/redo d\n/redo warm-up more hands-on\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("Warm-Up takes 5 minutes; making it 10 would make the lesson 50 minutes, not 45. Nothing was sent"), "\(all)")
        #expect(all.contains("“d” could be Direct Instruction or Differentiation"), "\(all)")
        #expect(all.contains("changed: Warm-Up; 9 sections unchanged"), "\(all)")
        let requests = try await server.requests()
        #expect(requests.count == 2, "the refused ones sent nothing")
        let input = try #require(requests.last?.inputText)
        #expect(
            input.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("Reply with the Warm-Up (5 min) section only, under its heading."),
            "\(input.suffix(200))")
        #expect(input.contains("more hands-on"))

        // The saved version is the first plan with its warm-up replaced, and nothing else.
        let shown = try await binary.run(["export", "tides", "--format", "md"])
        #expect(shown.stdout.contains("(written again in request #2)"), "\(shown.stdout)")
        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        let first = try #require(ends.first?["output"] as? String)
        let second = try #require(ends.last?["output"] as? String)
        let firstLines = first.components(separatedBy: "\n")
        let secondLines = second.components(separatedBy: "\n")
        #expect(firstLines.count == secondLines.count)
        let differing = zip(firstLines, secondLines).filter { $0 != $1 }
        #expect(differing.count == 1 && differing[0].1.hasSuffix("(written again in request #2)"), "\(differing)")
        #expect(differing[0].0.contains("Quick-write"), "the line that changed is the warm-up's")
    }
}

extension RedoEndToEndTests {
    /// An answer that holds nothing for the section fails the turn and leaves the plan as it was; `/retry` does not
    /// send a part on its own (it would be put into nothing), and says to type the command again.
    @Test func anEmptyAnswerChangesNothingAndRetrySaysToTypeItAgain() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .text("Materials\n")])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--no-repair"], input: "/redo materials\n/retry\n/history\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("The answer held nothing for Materials; the plan is unchanged."), "\(all)")
        #expect(all.contains("/retry sends whole requests again; type “/redo materials” again"), "\(all)")
        #expect(try await server.requests().count == 2)
        #expect(!all.contains("v2"), "no version was made")
    }
}

/// `/quiz item N` through the built binary (issue #38): item N alone is written again, the new quiz keeps every
/// other item as it was, and it is checked like any quiz.
@Suite struct QuizItemEndToEndTests {
    @Test func oneItemIsWrittenAgainAndTheOthersAreKept() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--no-repair"],
            input: "/quiz item 2\n/quiz exit 5\n/quiz item 9\n/quiz item 2 make the wrong answers more tempting\n/show quiz\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("There is no quiz of this plan yet; type /quiz to make one"), "\(all)")
        #expect(all.contains("Quiz 1 has 5 items; /quiz item 5 is the last."), "\(all)")
        #expect(all.contains("quiz 2 from quiz 1: changed item 2; 4 items unchanged"), "\(all)")
        let requests = try await server.requests()
        #expect(requests.count == 3, "the plan, the quiz and the one item")
        let input = try #require(requests.last?.inputText)
        #expect(input.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("Reply with item 2 only, in that layout."))
        #expect(input.contains("make the wrong answers more tempting") && input.contains("<<<QUIZ\nQuiz: exit"))

        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        let old = try #require(ends[1]["output"] as? String).components(separatedBy: "\n")
        let new = try #require(ends[2]["output"] as? String).components(separatedBy: "\n")
        let firstOfTwo = try #require(old.firstIndex { $0.hasPrefix("2. ") })
        let firstOfThree = try #require(old.firstIndex { $0.hasPrefix("3. ") })
        // Before item 2 and from item 3 on, the quiz is the old one line for line.
        #expect(Array(new.prefix(firstOfTwo)) == Array(old.prefix(firstOfTwo)))
        #expect(Array(new.suffix(old.count - firstOfThree)) == Array(old.suffix(old.count - firstOfThree)))
        #expect(new[firstOfTwo].hasSuffix("(written again in request #3)"))
        #expect(madeNumber(ends[2], "quiz") == 2, "kept as quiz 2")
        #expect(result.stdout.contains("(written again in request #3)"), "/show quiz prints the new quiz")
    }
}

/// `/rubric row N` through the built binary (issue #38): row N of both tables alone is written again.
@Suite struct RubricRowEndToEndTests {
    @Test func oneRowIsWrittenAgainAndTheOthersAreKept() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--no-repair"],
            input: "/rubric\n/rubric row 4\n/rubric row 2 make the levels easier to tell apart\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("Rubric 1 has 3 rows; /rubric row 3 is the last."), "\(all)")
        #expect(all.contains("rubric 2 from rubric 1: changed row 2; 2 rows unchanged"), "\(all)")
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests.last?.inputText?.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("Reply with row 2 only, as table rows.") == true)
        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        let old = try #require(ends[1]["output"] as? String).components(separatedBy: "\n")
        let new = try #require(ends[2]["output"] as? String).components(separatedBy: "\n")
        let differing = zip(old, new).filter { $0 != $1 }.map(\.1)
        #expect(differing.count == 2 && differing.allSatisfy { $0.contains("(written again in request #3)") }, "\(differing)")
        #expect(madeNumber(ends[2], "rubric") == 2)
    }
}

/// Branches (issue #38): `/fork 1` and a command make a second branch from v1, `/history` draws the tree,
/// `/switch` moves between them, `/diff` compares across them, `resume` opens the version last current, and
/// `replay` and `replay --rerun` show and repeat the moves.
@Suite struct BranchEndToEndTests {
    @Test func aForkASwitchAndADiffAcrossBranchesHoldThroughResumeReplayAndRerun() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let session = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--no-repair"],
            input: "/shorten 30\n/fork 1\n/lengthen 60\n/history\n/switch 2\n/diff 2 3\n/switch 9\n/quit\n")
        let all = session.stdout + session.stderr
        #expect(all.contains("Now at v1 (/generate); the next command starts a new branch from it."), "\(all)")
        #expect(
            all.contains("  v1  3–5 · 45 min  /generate\n  └ v2  3–5 · 30 min  /shorten 30 (from v1)\n→ └ v3  3–5 · 60 min  /lengthen 60 (from v1)"),
            "\(all)")
        #expect(all.contains("Now at v2 (/shorten 30)"))
        #expect(all.contains("There is no v9; /history lists the versions (v1 to v3)."))
        #expect(all.contains("60 minutes in total") || all.contains("60 min"), "the diff shows the other branch's plan")

        let resumed = try await binary.run(["resume", "tides"], input: "/history\n/quit\n")
        #expect(resumed.stdout.contains("→ └ v2  3–5 · 30 min  /shorten 30 (from v1)"), "\(resumed.stdout)")

        let replay = try await binary.run(["replay", "tides", "--plain"])
        #expect(replay.stdout.contains("/fork 1") && replay.stdout.contains("/switch 2"), "\(replay.stdout)")

        let requestsBefore = try await server.requests().count
        let rerun = try await binary.run(["replay", "--rerun", "tides", "--yes", "--no-repair"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try await server.requests().count == requestsBefore + 3, "generate, shorten and lengthen again")
        // The new session has the same tree, and the version the recorded one ended at is current.
        let rerunAll = rerun.stdout + rerun.stderr
        let id = try #require(rerunAll.firstMatch(of: /into new session ([0-9a-f]{8})/)?.1)
        let again = try await binary.run(["resume", String(id)], input: "/history\n/quit\n")
        #expect(again.stdout.contains("  └ v3  3–5 · 60 min  /lengthen 60 (from v1)"), "\(again.stdout)")
        #expect(again.stdout.contains("→ └ v2  3–5 · 30 min  /shorten 30 (from v1)"), "\(again.stdout)")
    }

    /// A transcript written before branches has no `/fork` or `/switch` lines: a line of versions reads as one
    /// branch, `/undo` walks it back, and a version made after an `/undo` hangs from the version it returned to.
    @Test func aTranscriptWithoutBranchMovesReadsAsOneBranch() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        _ = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "line", "--no-repair"],
            input: "/shorten 30\n/lengthen 60\n/quit\n")
        let moves = try binary.transcriptLines().filter { $0["type"] as? String == "undo" }
        #expect(moves.isEmpty)
        let line = try await binary.run(["resume", "line"], input: "/history\n/undo\n/undo\n/undo\n/quit\n")
        #expect(!line.stdout.contains("└"), "one branch is a list, not a tree: \(line.stdout)")
        let said = line.stdout + line.stderr
        let undos = said.matches(of: /Back to (v\d)/).map { String($0.1) }
        #expect(undos == ["v2", "v1"], "\(said)")
        #expect(said.contains("Nothing to undo"), "\(said)")

        _ = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "undone", "--no-repair"],
            input: "/shorten 30\n/undo\n/lengthen 60\n/quit\n")
        let undone = try await binary.run(["resume", "undone"], input: "/history\n/undo\n/quit\n")
        #expect(undone.stdout.contains("→ └ v3  3–5 · 60 min  /lengthen 60 (from v1)"), "\(undone.stdout)")
        #expect((undone.stdout + undone.stderr).contains("Back to v1"))
    }
}
