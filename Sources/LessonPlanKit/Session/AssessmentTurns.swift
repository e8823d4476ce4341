import Foundation

/// What `/quiz` or `/rubric` asks the model for: the parameters its prompt, its check and its transcript
/// lines share.
public enum AssessmentRequest: Sendable, Equatable {
    case quiz(kind: Quiz.Kind, items: Int)
    case rubric(levels: Int)

    /// The kind of turn that carries it.
    public var turnKind: TurnKind {
        switch self {
        case .quiz: .quiz
        case .rubric: .rubric
        }
    }

    /// `quiz` or `rubric`, as sentences name it.
    public var noun: String { turnKind.rawValue }

    /// The template that writes it.
    public var template: String { noun }

    /// The template that repairs it once when it fails its check.
    public var repairTemplate: String { noun + "-repair" }

    /// The placeholder values its templates use beside the plan's own.
    public var values: [String: String] {
        switch self {
        case .quiz(let kind, let items): AssessmentPrompts.quizValues(kind: kind, items: items)
        case .rubric(let levels): AssessmentPrompts.rubricValues(levels: levels)
        }
    }

    /// The check's problems with the model's answer, one sentence each (they go into the repair prompt as they are).
    public func problems(in text: String) -> [String] {
        switch self {
        case .quiz(let kind, let items):
            QuizCheck.problems(QuizReader.read(text, kind: kind), expectedItems: items, kind: kind).map(\.description)
        case .rubric(let levels):
            RubricCheck.problems(RubricReader.read(text), expectedLevels: levels).map(\.description)
        }
    }
}

/// A quiz `/quiz` made, kept beside the plan version it was made from (not a version itself).
public struct QuizVersion: Equatable, Sendable {
    public var number: Int
    /// The model's answer as it came; ``quiz`` is read from it.
    public var text: String
    public var quiz: Quiz
    /// How many items were asked for.
    public var expectedItems: Int
    /// What the check found, one sentence each; empty when it passed.
    public var problems: [String]
    /// The plan version it was made from.
    public var planVersion: Int?
    public var inputs: LessonInputs
    public var createdAt: Date

    init(number: Int, text: String, started: TurnStarted, createdAt: Date) {
        let kind = started.quizKind ?? .exit
        let items = started.quizItems ?? Quiz.defaultItems
        self.number = number
        self.text = text
        quiz = QuizReader.read(text, kind: kind)
        expectedItems = items
        problems = QuizCheck.problems(quiz, expectedItems: items, kind: kind).map(\.description)
        planVersion = started.baseVersion
        inputs = started.inputs
        self.createdAt = createdAt
    }
}

/// A rubric `/rubric` made, kept beside the plan version it was made from (not a version itself).
public struct RubricVersion: Equatable, Sendable {
    public var number: Int
    /// The model's answer as it came; ``rubric`` is read from it.
    public var text: String
    public var rubric: Rubric
    /// What the check found, one sentence each; empty when it passed.
    public var problems: [String]
    /// The plan version it was made from.
    public var planVersion: Int?
    public var inputs: LessonInputs
    public var createdAt: Date

    init(number: Int, text: String, started: TurnStarted, createdAt: Date) {
        self.number = number
        self.text = text
        rubric = RubricReader.read(text)
        problems = RubricCheck.problems(rubric, expectedLevels: started.rubricLevels ?? Rubric.defaultLevels).map(\.description)
        planVersion = started.baseVersion
        inputs = started.inputs
        self.createdAt = createdAt
    }
}

extension SessionState {
    /// The newest quiz made from plan version `number` (the one an export of that version carries).
    public func quiz(madeFrom number: Int?) -> QuizVersion? {
        guard let number else { return nil }
        return quizzes.last { $0.planVersion == number }
    }

    /// The newest rubric made from plan version `number` (the one an export of that version carries).
    public func rubric(madeFrom number: Int?) -> RubricVersion? {
        guard let number else { return nil }
        return rubrics.last { $0.planVersion == number }
    }

    /// One sentence for each newest quiz or rubric made from another plan version than `number`, which an
    /// export of `number` therefore leaves out.
    public func assessmentsLeftOut(exporting number: Int?) -> [String] {
        guard let number else { return [] }
        var notes: [String] = []
        if let quiz = quizzes.last, quiz.planVersion != number, self.quiz(madeFrom: number) == nil {
            notes.append(
                "Quiz \(quiz.number) was made from v\(quiz.planVersion ?? 0), not v\(number), so it is left out; type /quiz to make one from v\(number).")
        }
        if let rubric = rubrics.last, rubric.planVersion != number, self.rubric(madeFrom: number) == nil {
            notes.append(
                "Rubric \(rubric.number) was made from v\(rubric.planVersion ?? 0), not v\(number), so it is left out; type /rubric to make one from v\(number).")
        }
        return notes
    }
}
