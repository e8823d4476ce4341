import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanStore
import TestSupport
import Testing

/// A session's quiz with student feedback in its exports, and one made before feedback was asked for (issue #39):
/// the teacher's copy shows the misconception and the feedback, the handouts neither, a platform only the feedback;
/// an old quiz is read, kept and exported as it was, never failed or dropped for what it was not asked to write.
@Suite struct QuizFeedbackExportTests {
    typealias Session = CommandSession

    /// A plan, then `/quiz 3` answered by `quiz` with repair off (so it is kept as it came), and handouts.
    static func session(quiz: String) async throws -> Session {
        let transport = ScriptedTransport { request, number in
            if number == 2 { return .text(quiz) }
            return .text(
                AssessmentFixtures.answer(toPrompt: AssessmentFixtures.input(of: request.body))
                    ?? PlanFixtures.passing(minutes: 45, number: number))
        }
        let session = try await Session(place: .script, transport: transport)
        for line in ["/generate", "/repair off", "/quiz 3", "/materials"] { #expect(await session.runner.run(line).status == .done) }
        return session
    }

    static func document(_ state: SessionState, _ format: ExportFormat, materials: Bool) async throws -> String {
        String(decoding: try await ExportCommand.document(state, format: format, materials: materials, prompts: .builtIn), as: UTF8.self)
    }

    @Test func theTeachersCopyShowsBothTheHandoutsNeitherAndAPlatformOnlyTheFeedback() async throws {
        let session = try await Self.session(quiz: AssessmentFixtures.quiz(items: 3))
        defer { session.home.remove() }
        let state = await session.engine.state
        #expect(state.quizzes.last?.problems == [])
        let misconception = "students think wrong idea A holds."
        let feedback = "Look again at what question 1 asks before you choose."
        for format in [ExportFormat.md, .html] {
            let teacher = try await Self.document(state, format, materials: false)
            #expect(teacher.contains(misconception) && teacher.contains("Student feedback: " + feedback), "\(format)")
            let handouts = try await Self.document(state, format, materials: true)
            #expect(handouts.contains("Question 1 about Tides"), "\(format): the handouts carry the quiz")
            #expect(!handouts.contains(misconception) && !handouts.contains(feedback) && !handouts.contains("Student feedback"), "\(format)")
        }
        let gift = try await LMSExport.render(state, format: .gift, prompts: .builtIn, tools: LMSTools())
        let text = String(decoding: gift.data, as: UTF8.self)
        #expect(text.contains("#" + feedback) && !text.contains("wrong idea A holds"), "\(text)")
        #expect(gift.notes.isEmpty, "\(gift.notes)")
    }

    /// A transcript from before feedback was asked for: its quiz turn has no `quiz_feedback`, its quiz no
    /// `Feedback` lines. It reads back passing, every export keeps it, and a platform gets no feedback, said so.
    @Test func aQuizFromBeforeFeedbackIsKeptAndExportedAsItWas() async throws {
        let session = try await Self.session(quiz: AssessmentFixtures.quiz(items: 3, feedback: false))
        defer { session.home.remove() }
        // Made now, the prompt asked for feedback: the quiz fails for lacking it.
        let live = await session.engine.state
        #expect(live.quizzes.last?.problems.first?.hasPrefix("Item 1's wrong answer A has no feedback for the student") == true)

        let url = session.engine.transcriptURL
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(written.contains("\"quiz_feedback\":true"))
        let old = written.replacingOccurrences(of: "\"quiz_feedback\":true,", with: "")
        try Data(old.utf8).write(to: url)
        let state = try #require(TranscriptReader.state(of: try TranscriptReader.read(url, prompts: .skipped)))
        let quiz = try #require(state.quizzes.last)
        #expect(quiz.problems == [] && quiz.quiz.items.count == 3)
        #expect(SessionReview.exportNotes(state, materials: false).isEmpty)

        let teacher = try await Self.document(state, .md, materials: false)
        #expect(teacher.contains("## Answer key: exit quiz") && teacher.contains("students think wrong idea A holds."))
        #expect(!teacher.contains("Student feedback"))
        for format in [LMSFormat.gift, .moodle] {
            let result = try await LMSExport.render(state, format: format, prompts: .builtIn, tools: LMSTools())
            let text = String(decoding: result.data, as: UTF8.self)
            #expect(!text.contains("wrong idea A holds"), "\(format) carries the teacher's note")
            #expect(
                result.notes.contains {
                    $0.contains("but items 1, 2 and 3 have a wrong answer with none, so a student who picks it is told nothing more")
                }, "\(result.notes)")
        }
    }
}
