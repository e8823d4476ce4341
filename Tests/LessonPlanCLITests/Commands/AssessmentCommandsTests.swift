import Foundation
import LessonPlanCLI
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import TestSupport
import Testing

/// `/quiz` and `/rubric`: the repair-once rule over a corpus of answers, and what is kept beside the plan
/// (transcript, resume, exports, replay and re-run).
@Suite struct AssessmentCommandsTests {
    typealias Session = CommandRunnerTests.Session

    /// One answer to a quiz or rubric request, what the repair request gets back, and what must follow.
    struct RepairCase: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        var before: [String] = []
        let first: String
        /// What the repair request gets; nil when none may be sent.
        var repair: String? = nil
        /// A sentence the repair prompt must carry (a problem the check found).
        var problem: String? = nil
        /// Whether the repair replaced the draft.
        var kept = false
        var testDescription: String { name }
    }

    static let quiz3 = AssessmentFixtures.quiz(items: 3)
    static let rubric4 = AssessmentFixtures.rubric(levels: 4)

    static let corpus: [RepairCase] = [
        RepairCase(name: "a passing quiz is not repaired", line: "/quiz 3", first: quiz3),
        RepairCase(
            name: "an item without an answer is repaired, and the repair kept", line: "/quiz 3",
            first: quiz3.replacingOccurrences(of: "Answer: B\n", with: ""), repair: quiz3,
            problem: "Item 1 marks no answer", kept: true),
        RepairCase(
            name: "two answers to one item are repaired", line: "/quiz exit 3",
            first: quiz3.replacingOccurrences(of: "Answer: B\n", with: "Answer: B and C\n"), repair: quiz3,
            problem: "Item 1 marks B and C as the answer", kept: true),
        RepairCase(
            name: "all of the above is repaired", line: "/quiz 3",
            first: quiz3.replacingOccurrences(of: "C) Wrong idea C for question 1", with: "C) All of the above"),
            repair: quiz3, problem: "“all of the above”", kept: true),
        RepairCase(
            name: "wrong answers without student feedback are repaired", line: "/quiz 3",
            first: AssessmentFixtures.quiz(items: 3, feedback: false), repair: quiz3,
            problem: "Item 1's wrong answer A has no feedback for the student; add “Feedback A: …”", kept: true),
        RepairCase(
            name: "a starter quiz without misconceptions is repaired", line: "/quiz starter 3",
            first: AssessmentFixtures.quiz(kind: "starter", items: 3)
                .replacingOccurrences(of: "Misconceptions:\n- The Moon pulls only the water facing it.\n", with: ""),
            repair: AssessmentFixtures.quiz(kind: "starter", items: 3), problem: "lists no misconceptions", kept: true),
        RepairCase(
            name: "a repair with as many problems is not kept", line: "/quiz 3", first: AssessmentFixtures.quiz(items: 4),
            repair: AssessmentFixtures.quiz(items: 2), problem: "The quiz has 4 items, not 3", kept: false),
        RepairCase(
            name: "a repair that is no quiz at all is not kept", line: "/quiz 3",
            first: quiz3.replacingOccurrences(of: "Answer: B\n", with: ""), repair: "Sorry, I cannot write that.",
            problem: "Item 1 marks no answer", kept: false),
        RepairCase(
            name: "with repair off a failing quiz is kept as it is", line: "/quiz 3", before: ["/repair off"],
            first: AssessmentFixtures.quiz(items: 4)),
        RepairCase(name: "a passing rubric is not repaired", line: "/rubric", first: rubric4),
        RepairCase(
            name: "an empty cell is repaired, and the repair kept", line: "/rubric 4",
            first: rubric4.replacingOccurrences(of: "Uses evidence at proficient level", with: ""), repair: rubric4,
            problem: "The cell for “Uses evidence” at “Proficient” is empty", kept: true),
        RepairCase(
            name: "a rubric with too few levels, repaired no better, stays", line: "/rubric 4",
            first: AssessmentFixtures.rubric(levels: 3), repair: AssessmentFixtures.rubric(levels: 3),
            problem: "The rubric has 3 levels, not 4", kept: false),
    ]

    @Test(arguments: corpus)
    func aFailingQuizOrRubricIsRepairedOnceAndKeptOnlyWhenBetter(example: RepairCase) async throws {
        let first = example.first
        let repair = example.repair
        let transport = ScriptedTransport { request, number in
            switch number {
            case 1: .text(PlanFixtures.passing(minutes: 45))
            case 2: .text(first)
            default: .text(repair ?? "no repair was expected")
            }
        }
        let session = try await Session(place: .script, transport: transport)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        for line in example.before { #expect(await session.runner.run(line).status == .done) }

        let outcome = await session.runner.run(example.line)

        #expect(outcome.status == .done)
        #expect(transport.requests.count == (repair == nil ? 2 : 3))
        let state = await session.engine.state
        let isQuiz = example.line.hasPrefix("/quiz")
        let numbers = isQuiz ? state.quizzes.map(\.number) : state.rubrics.map(\.number)
        #expect(numbers == (example.kept ? [1, 2] : [1]))
        if let problem = example.problem {
            let prompt = transport.prompts.last ?? ""
            #expect(prompt.contains(problem), "\(prompt)")
            #expect(prompt.contains(first.split(separator: "\n")[1]))
            #expect(outcome.turns.last?.kept == example.kept)
            #expect(outcome.turns.last?.keepNote?.contains(example.kept ? "replaces" : "stays") == true)
            #expect(state.turns.last?.started.follows == 1)
            #expect(state.turns.last?.started.command == "(auto repair)")
        }
        // The kept one is what the teacher sees and what the check says of it.
        let problems = isQuiz ? state.quizzes.last?.problems : state.rubrics.last?.problems
        #expect((problems?.isEmpty == true) == (example.kept || (repair == nil && example.before.isEmpty)))
    }

    /// A session with a quiz, a rubric and handouts, made from v1.
    static func assessedSession(place: CommandPlace = .script) async throws -> Session {
        let session = try await Session(place: place)
        for line in ["/generate", "/quiz starter 4", "/rubric 3", "/materials"] {
            #expect(await session.runner.run(line).status == .done)
        }
        return session
    }

    /// Every kind kept beside the plan is shown by `/show KIND [N]` through its own product kind: the newest under its
    /// label, a number that does not exist named with the range there is, and one with none yet says which command
    /// makes one.
    @Test func showPrintsEveryKindKeptBesideThePlan() async throws {
        #expect(TurnKind.keptBesidePlan == [.materials, .quiz, .rubric, .review])
        #expect(ShowCommand.argumentCompletions == ["materials", "quiz", "rubric", "review", "repair"])
        let session = try await Self.assessedSession()
        defer { session.home.remove() }
        let labels = ["materials": "── handouts 1 · from v1", "quiz": "── quiz 1 · starter", "rubric": "── rubric 1"]
        for (noun, label) in labels {
            #expect(await session.runner.run("/show \(noun)").status == .done)
            #expect(session.host.shown.last?.hasPrefix(label) == true, "\(noun): \(session.host.shown.last?.prefix(60) ?? "")")
            #expect(await session.runner.run("/show \(noun) 2").status == .failed)
            #expect(session.host.errors.last?.hasSuffix("are numbered 1 to 1 (see /history).") == true)
        }
        #expect(session.host.errors.contains("There is no quiz 2; the quizzes are numbered 1 to 1 (see /history)."))
        // Handouts answer to the name the footer gives them too.
        #expect(await session.runner.run("/show handouts").status == .done)
        #expect(session.host.shown.last?.hasPrefix("── handouts 1 · from v1") == true)
        #expect(await session.runner.run("/show quiz exit").status == .failed)
        #expect(session.host.errors.last == "There is no exit quiz yet; type /quiz exit to make one from the plan.")
        #expect(await session.runner.run("/show review").status == .failed)
        #expect(session.host.errors.last == "There is no review yet; type /review to ask for one of the plan.")
        #expect(await session.runner.run("/show quiz 1 2").status == .failed)
        #expect(session.host.errors.last?.hasSuffix("/show quiz takes at most one number, the quiz's (see /history): e.g. /show quiz 2.") == true)
    }

    /// Quizzes and rubrics are read back from the transcript as they were made, every line by the fast reader.
    @Test func resumeReadsTheQuizAndRubricBack() async throws {
        let session = try await Self.assessedSession()
        defer { session.home.remove() }
        let live = await session.engine.state
        let loaded = try TranscriptReader.read(session.engine.transcriptURL)
        let state = try #require(TranscriptReader.state(of: loaded))
        // The same, but for the time, which the transcript keeps to the millisecond.
        #expect(state.quizzes.map(\.text) == live.quizzes.map(\.text))
        #expect(state.quizzes.map(\.quiz) == live.quizzes.map(\.quiz))
        #expect(state.rubrics.map(\.rubric) == live.rubrics.map(\.rubric))
        #expect(state.rubrics.map(\.problems) == live.rubrics.map(\.problems))
        // Whether feedback was asked for is kept on the turn, so the quiz is checked on resume as it was live.
        #expect(state.quizzes.map(\.problems) == live.quizzes.map(\.problems))
        #expect(state.turns.map(\.started.quizFeedback) == live.turns.map(\.started.quizFeedback))
        #expect(state.turns.compactMap(\.started.quizFeedback) == [true])
        #expect(state.quizzes.first?.quiz.items.first?.distractors.allSatisfy { !$0.feedback.isEmpty } == true)
        #expect(zip(state.quizzes, live.quizzes).allSatisfy { abs($0.createdAt.timeIntervalSince($1.createdAt)) < 0.001 })
        #expect(state.quizzes.first?.quiz.kind == .starter)
        #expect(state.quizzes.first?.expectedItems == 4)
        #expect(state.quizzes.first?.planVersion == 1)
        #expect(state.rubrics.first?.rubric.levels.count == 3)
        let data = try Data(contentsOf: session.engine.transcriptURL)
        for line in data.split(separator: UInt8(ascii: "\n")) {
            #expect(TranscriptCoder().decodeFastPath(Data(line)) != nil)
        }
    }

    /// The teacher's export has the quiz, the rubric and the key on its own page; the handouts have the quiz
    /// without its key and the students' rubric; once the plan moves on, they go with it while the check by code
    /// says they still fit, marked so on the teacher's copy.
    @Test func exportsCarryTheQuizAndRubricOfTheirPlanVersion() async throws {
        let session = try await Self.assessedSession()
        defer { session.home.remove() }
        var state = await session.engine.state
        let prompts = PromptLibrary.builtIn
        func markdown(materials: Bool) async throws -> String {
            String(decoding: try await ExportCommand.document(state, format: .md, materials: materials, prompts: prompts), as: UTF8.self)
        }
        let teacher = try await markdown(materials: false)
        #expect(teacher.contains("## Starter quiz"))
        #expect(teacher.contains("## Answer key: starter quiz"))
        #expect(teacher.contains("Explains the cause"))
        let handouts = try await markdown(materials: true)
        #expect(handouts.contains("## Starter quiz"))
        #expect(!handouts.contains("Answer key"))
        #expect(handouts.contains("I can explain the cause"))
        #expect(!handouts.contains("Explains the cause"))
        #expect(SessionReview.exportNotes(state, materials: false).isEmpty)

        #expect(await session.runner.run("/shorten 30").status == .done)
        #expect(
            session.host.notes.contains { $0.hasPrefix("Quiz 1 (starter) was written for v1 and checked against v2 by code") },
            "\(session.host.notes)")
        state = await session.engine.state
        let moved = try await markdown(materials: false)
        #expect(moved.contains("## Starter quiz"))
        #expect(
            moved.contains(
                "Quiz 1 (starter) was written for v1 and checked against v2 by code (topic, grade band, objective, the terms its items ask about): it still fits, so it goes with v2."
            ))
        #expect(moved.contains("Rubric 1 was written for v1 and checked against v2 by code"))
        #expect(SessionReview.exportNotes(state, materials: false).isEmpty, "nothing is left out")
        // The handouts came from v1, and so did the quiz: they still go together.
        await #expect(try markdown(materials: true).contains("## Starter quiz"))

        #expect(await session.runner.run("/show quiz").status == .done)
        #expect(session.host.shown.last == "Written for v1 and checked against v2 by code: it still fits, so it goes with v2.")
        #expect(session.host.shown.dropLast().last?.contains("Answer: ") == true)
    }

    /// Replay shows the quiz and rubric turns; a re-run sends the teacher's /quiz again but not the repair.
    @Test func replayShowsQuizTurnsAndARerunSendsTheCommandNotTheRepair() async throws {
        let quiz3 = Self.quiz3
        let transport = ScriptedTransport { request, number in
            switch number {
            case 2: .text(quiz3.replacingOccurrences(of: "Answer: B\n", with: ""))
            default:
                .text(
                    AssessmentFixtures.answer(toPrompt: AssessmentFixtures.input(of: request.body))
                        ?? PlanFixtures.passing(minutes: 45, number: number))
            }
        }
        let first = try await Session(place: .terminal, transport: transport)
        defer { first.home.remove() }
        for line in ["/generate", "/quiz 3", "/rubric"] { #expect(await first.runner.run(line).status == .done) }
        let recorded = await first.engine.state
        #expect(recorded.turns.map(\.started.command) == ["/generate", "/quiz 3", "(auto repair)", "/rubric"])

        let replay = SessionReview.replay(recorded, options: ReplayOptions()).map(\.plain).joined()
        #expect(replay.contains("completed → quiz 1 (from v1)"))
        #expect(replay.contains("✗ quiz check: 1 problem"))
        #expect(replay.contains("completed → quiz 2, repairing quiz 1 (from v1)"))
        #expect(replay.contains("completed → rubric 1 (from v1) · ✓ rubric check"))
        #expect(replay.contains("Misconception A:"))

        let again = try await Session(place: .rerun)
        defer { again.home.remove() }
        let steps = await SessionRerun.run(recorded, runner: again.runner)
        #expect(steps.map(\.command) == ["/generate", "/quiz 3", "(auto repair)", "/rubric"])
        #expect(steps[2].outcome == nil && steps[2].note?.contains("automatic") == true)
        #expect(await again.commands == ["/generate", "/quiz 3", "/rubric"])
        #expect(await again.engine.state.quizzes.map(\.number) == [1])
    }

    /// Bad arguments say what to type; nothing is sent.
    @Test func badArgumentsAreRefusedBeforeAnythingIsSent() async throws {
        let session = try await Session(place: .script)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        for line in ["/quiz 2", "/quiz 16", "/quiz middle", "/rubric 7", "/rubric four", "/slides plan.docx", "/show quizz"] {
            #expect(await session.runner.run(line).status == .failed)
        }
        #expect(session.transport.requests.count == 1)
        #expect(session.host.errors.contains { $0.contains("A quiz has 3 to 15 items, not 2") })
        #expect(session.host.errors.contains { $0.contains("A rubric has 2 to 6 levels, not 7") })
        #expect(session.host.errors.contains { $0.contains("name the file FILE.pptx") })
        #expect(await session.runner.run("/show quiz").status == .failed)
        #expect(session.host.errors.last == "There is no quiz yet; type /quiz to make one from the plan.")
    }
}
