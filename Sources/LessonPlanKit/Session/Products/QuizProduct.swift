import Foundation
import LessonPlanCore
import LessonPlanStore

/// A quiz `/quiz` made, kept beside the plan version it was made from (not a version itself).
package struct QuizVersion: Equatable, Sendable, KeptProduct {
    package var number: Int
    /// The model's answer as it came; ``quiz`` is read from it.
    package var text: String
    package var quiz: Quiz
    /// How many items were asked for.
    package var expectedItems: Int
    /// What the check found, one sentence each; empty when it passed.
    package var problems: [String]
    /// The plan version it was made from.
    package var planVersion: Int?
    package var inputs: LessonInputs
    package var createdAt: Date

    init(number: Int, text: String, started: TurnStarted, lesson: PlanVersion?, createdAt: Date) {
        let kind = started.quizKind ?? .exit
        let items = started.quizItems ?? Quiz.defaultItems
        self.number = number
        self.text = text
        quiz = QuizReader.read(text, kind: kind)
        expectedItems = items
        problems = AssessmentRequest.quizProblems(
            quiz, text: text, items: items, kind: kind, lesson: lesson, feedbackAsked: started.quizFeedback == true)
        planVersion = started.baseVersion
        inputs = started.inputs
        self.createdAt = createdAt
    }
}

/// A quiz (`/quiz`): checked against what was asked for; a repair of one is kept only with fewer problems.
enum QuizProduct: AssessmentKind {
    static let kind = TurnKind.quiz
    static let noneYet = "There is no quiz yet; type /quiz to make one from the plan."

    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> QuizVersion {
        QuizVersion(
            number: made.number, text: ended.output, started: started, lesson: started.baseVersion.flatMap(state.version), createdAt: ended.at)
    }

    static func chooses(_ word: String) -> Bool { Quiz.Kind(text: word) != nil }

    /// `/show quiz starter|exit`: the newest quiz of that kind.
    static func choose(_ word: String, in state: SessionState) -> Result<QuizVersion, SessionError>? {
        guard let kind = Quiz.Kind(text: word) else { return nil }
        return state.quiz(.kind(kind)).map { .success($0) }
            ?? .failure(SessionError("There is no \(kind.rawValue) quiz yet; type /quiz \(kind.rawValue) to make one from the plan."))
    }

    /// The quiz with its key (the teacher's view) under a one-line label, its check's problems, a warning when the
    /// plan has moved on from the version it was made from, and whether it still fits the current plan.
    static func show(_ quiz: QuizVersion, in state: SessionState, width: Int) -> [StyledText] {
        let from = quiz.planVersion.map { " · from v\($0)" } ?? ""
        let label = "── quiz \(quiz.number) · \(quiz.quiz.kind.rawValue) · \(counted(quiz.quiz.items.count, "item"))\(from)"
        let body = quiz.quiz.items.isEmpty ? quiz.text : AssessmentText.quiz(quiz.quiz, withKey: true)
        return shown(label, body, problems: quiz.problems, madeFrom: quiz.planVersion, quiz: quiz.quiz, in: state)
    }
}

extension SessionState {
    /// Quizzes made by `/quiz` (and kept repairs of them), oldest first.
    package var quizzes: [QuizVersion] { kept(QuizProduct.self) }
}
