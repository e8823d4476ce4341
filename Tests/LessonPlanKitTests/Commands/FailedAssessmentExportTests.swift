import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// A quiz or rubric that failed its check is never exported as if it passed: every export leaves it out and says
/// so, `--with` prints it marked on the teacher's copy only, and a rubric with no rows is never an empty table.
@Suite struct FailedAssessmentExportTests {
    typealias Session = CommandSession

    /// A plan, then a rubric answer with no table whose repair has none either (the rubric stays failed), and a
    /// quiz with one item that marks no answer, repaired no better.
    static func failedSession(rubric: String = "Rubric: Tide diagram\nStudents explain the tides well.") async throws -> Session {
        let quiz = AssessmentFixtures.quiz(items: 3).replacingOccurrences(of: "Answer: B\n", with: "")
        let transport = ScriptedTransport { _, number in
            switch number {
            case 1: .text(PlanFixtures.passing(minutes: 45))
            case 2, 3: .text(rubric)
            case 4, 5: .text(quiz)
            default: .text(PlanFixtures.passing(minutes: 45))
            }
        }
        let session = try await Session(place: .script, transport: transport)
        for line in ["/generate", "/rubric", "/quiz exit 3"] { #expect(await session.runner.run(line).status == .done) }
        return session
    }

    static func export(_ session: Session, _ format: ExportFormat, materials: Bool = false, asked: ExportAsked = .none) async throws -> String {
        let state = await session.engine.state
        let data = try await ExportCommand.document(state, format: format, materials: materials, prompts: .builtIn, asked: asked)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aFailedRubricAndQuizAreLeftOutOfEveryExportWithOneSentenceEach() async throws {
        let session = try await Self.failedSession()
        defer { session.home.remove() }
        let state = await session.engine.state
        #expect(state.rubrics.last?.problems.isEmpty == false && state.quizzes.last?.problems.isEmpty == false)
        for format in [ExportFormat.md, .html, .json] {
            let text = try await Self.export(session, format)
            #expect(!text.contains("Criterion"), "\(format): an empty rubric table")
            #expect(!text.contains("Tide diagram"), "\(format) prints the failed rubric")
            #expect(!text.contains("Exit quiz") && !text.contains("\"exit\""), "\(format) prints the failed quiz")
        }
        let notes = SessionReview.exportNotes(state, materials: false)
        #expect(
            notes.contains(
                "Rubric 1 did not pass its check (The answer has no rubric table; write it as a table “| Criterion | Level (1) | … |” with one row per criterion), so every export leaves it out; type /rubric to ask for a new one."
            ),
            "\(notes)")
        #expect(
            notes.contains {
                $0.hasPrefix("Quiz 1 (exit) did not pass its check (")
                    && $0.hasSuffix("type /quiz exit to ask for a new one, or add --with exit to print it as it is, marked on the teacher's copy.")
            }, "\(notes)")

        // Through /export: the sentence, then the file, and the command succeeds.
        let outcome = await session.runner.run("/export html plan.html")
        #expect(outcome.status == .done)
        #expect(session.host.notes.contains { $0.hasPrefix("Rubric 1 did not pass its check") }, "\(session.host.notes)")
        let written = try String(contentsOf: session.home.url.appending(path: "plan.html"), encoding: .utf8)
        #expect(!written.contains("<table class=\"rubric-table\""))
    }

    @Test func askedForByNameAFailedQuizIsPrintedMarkedOnTheTeachersCopyOnly() async throws {
        let session = try await Self.failedSession()
        defer { session.home.remove() }
        #expect(await session.runner.run("/materials").status == .done)
        let asked = try #require(ExportAsked(text: "exit"))
        let teacher = try await Self.export(session, .html, asked: asked)
        #expect(teacher.contains("<h2>Exit quiz</h2>"))
        #expect(teacher.contains("Quiz 1 (exit) did not pass its check: Item 1 marks no answer"), "\(teacher)")
        let markdown = try await Self.export(session, .md, asked: asked)
        #expect(markdown.contains("> **⚠ Quiz 1 (exit) did not pass its check: Item 1 marks no answer"))
        // The quiz was asked for, the rubric was not.
        #expect(!teacher.contains("Rubric: Tide diagram"))
        #expect(SessionReview.exportNotes(await session.engine.state, materials: false, asked: asked).count == 1)
        // The students' sheet prints it, never the teacher's mark.
        let handouts = try await Self.export(session, .html, materials: true, asked: asked)
        #expect(handouts.contains("<h2>Exit quiz</h2>"))
        #expect(!handouts.contains("did not pass its check"))
    }

    @Test func aRubricWithNoRowsIsNeverPrintedAndAskingForItWritesNothing() async throws {
        let session = try await Self.failedSession()
        defer { session.home.remove() }
        let state = await session.engine.state
        let rubric = try #require(ExportAsked(text: "rubric"))
        #expect(throws: ExportError.self) { try SessionReview.checkAsked(state, materials: false, asked: rubric) }
        let outcome = await session.runner.run("/export html plan.html --with rubric")
        #expect(outcome.status == .failed)
        #expect(
            session.host.errors.last?.hasPrefix("Rubric 1 has no rows to print (The answer has no rubric table") == true, "\(session.host.errors)")
        #expect(!FileManager.default.fileExists(atPath: session.home.url.appending(path: "plan.html").path))
        // Even asked for, an empty rubric never reaches a page as a table.
        let html = try await Self.export(session, .html, asked: rubric)
        #expect(!html.contains("<table class=\"rubric-table\""))
    }

    @Test func aFailedRubricWithRowsIsPrintedWhenAskedForAndMarked() async throws {
        // Three levels where four were asked for: it fails its check, yet has rows to print.
        let session = try await Self.failedSession(rubric: AssessmentFixtures.rubric(levels: 3))
        defer { session.home.remove() }
        let state = await session.engine.state
        #expect(state.rubrics.last?.problems.first?.contains("3 levels, not 4") == true)
        #expect(!(try await Self.export(session, .md)).contains("Rubric: Tide diagram"))
        let asked = try #require(ExportAsked(text: "rubric,exit"))
        try SessionReview.checkAsked(state, materials: false, asked: asked)
        let markdown = try await Self.export(session, .md, asked: asked)
        #expect(markdown.contains("## Rubric: Tide diagram"))
        #expect(markdown.contains("> **⚠ Rubric 1 did not pass its check: The rubric has 3 levels, not 4"), "\(markdown)")
        #expect(SessionReview.exportNotes(state, materials: false, asked: asked).isEmpty)
    }

    @Test func withTakesOnlyWhatCanBeAskedFor() throws {
        #expect(ExportAsked(text: "rubric") == ExportAsked(rubric: true))
        #expect(ExportAsked(text: "Quiz") == ExportAsked(quizzes: [.starter, .exit]))
        #expect(ExportAsked(text: "rubric, starter") == ExportAsked(rubric: true, quizzes: [.starter]))
        #expect(ExportAsked(text: "slides") == nil)
        #expect(ExportAsked(text: "") == nil)
        let inputs = try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45)
        let context = CommandContext(inputs: inputs, currentVersion: 1, versionCount: 1, framework: "default", frameworks: ["default"])
        let parsed = try CommandTable.parse("/export md plan.md --with rubric", context: context) as? ExportCommand
        #expect(parsed == ExportCommand(format: .md, path: "plan.md", asked: ExportAsked(rubric: true)))
        #expect(throws: CommandError.self) { try CommandTable.parse("/export md plan.md --with", context: context) }
        #expect(throws: CommandError.self) { try CommandTable.parse("/export md --with everything", context: context) }
    }
}
