import Foundation
import LessonPlanCore

/// `/quiz [starter|exit] [N]`: a multiple-choice quiz from the plan with its answer key, checked and repaired once,
/// kept beside the plan version it was made from.
public struct QuizCommand: Command, Equatable {
    public static let name = "quiz"
    public static let asksTheModel = true
    public static let usage = "/quiz [starter|exit] [N]"
    public static let summary = "a multiple-choice quiz from the plan with its answer key (default: exit, 5 items)"
    public static let details = """
        exit tests what this lesson teaches; starter tests only what students should know before it and lists the
        misconceptions they may bring. N is 3 to 15. Each item has one answer and 2 or 3 wrong ones, each built on a
        named misconception. The quiz is checked (item count, one answer each, distinct options, no “all of the
        above”) and, when it fails, repaired once. It is kept beside the plan version it was made from: /show quiz
        prints it with its key; exports of that version carry it (the key on a page of its own for the teacher,
        none on handouts) and /slides puts one item on a slide.
        """
    public static let argumentCompletions = ["exit", "starter"]
    public static let templates = ["quiz", "quiz-repair"]

    public let kind: Quiz.Kind
    public let items: Int

    public init(kind: Quiz.Kind = .exit, items: Int = Quiz.defaultItems) {
        self.kind = kind
        self.items = items
    }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        var kind: Quiz.Kind?
        var items: Int?
        for word in arguments.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) {
            if let number = Int(word), items == nil {
                guard Quiz.itemRange.contains(number) else {
                    throw CommandError("A quiz has \(Quiz.itemRange.lowerBound) to \(Quiz.itemRange.upperBound) items, not \(number); e.g. /quiz exit 5.")
                }
                items = number
            } else if let named = Quiz.Kind(rawValue: word), kind == nil {
                kind = named
            } else if items != nil, ["items", "questions", "item", "question"].contains(word) {
                continue
            } else {
                throw CommandError("“\(word)” is not a quiz kind or a number of items; type /quiz [starter|exit] [N], e.g. /quiz starter 6.")
            }
        }
        return Self(kind: kind ?? .exit, items: items ?? Quiz.defaultItems)
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        let (outcome, result) = await run.assessment(.quiz(kind: kind, items: items), waiting: "writing the quiz…")
        guard result.first.status == .completed else { return outcome }
        if let made = result.outcomes.compactMap(\.quiz).last, let quiz = await run.engine.state.quizzes.last, quiz.number == made {
            run.host.deliver(.text(AssessmentText.quiz(quiz.quiz, withKey: true)))
        }
        return outcome
    }
}
