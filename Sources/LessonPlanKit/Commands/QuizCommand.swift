import Foundation
import LessonPlanCore

/// `/quiz [starter|exit] [N]`: a multiple-choice quiz from the plan with its answer key, checked and repaired once,
/// kept beside the plan version it was made from.
public struct QuizCommand: Command, Equatable {
    public static let name = "quiz"
    public static let asksTheModel = true
    public static let usage = "/quiz [starter|exit] [N]; /quiz again; /quiz item N [what to change]"
    public static let summary = "a multiple-choice quiz from the plan with its answer key (default: exit, 5 items)"
    public static let details = """
        exit tests what this lesson teaches; starter tests only what students should know before it and lists the
        misconceptions they may bring. N is 3 to 15. Each item has one answer and 2 or 3 wrong ones, each built on a
        named misconception (for the teacher) and with feedback written to the student who picks it (what a
        learning platform shows them). The quiz is checked (item count, one answer each, distinct options, no “all
        of the above”, feedback for every wrong answer, no answer given away) and, when it fails, repaired once. It
        is kept beside the plan version it was made from: /show quiz prints it with its key; exports of that
        version carry it (the key, misconceptions and feedback on a page of its own for the teacher, none on
        handouts) and /slides puts one item on a slide. /quiz item N [what to change] writes item N of the latest
        quiz again (stem, options, key, misconceptions and feedback) and keeps every other line of the quiz as it
        was; the new quiz is checked like any, and not repaired unasked. After a revision, a quiz written for an
        earlier version is checked against the new plan by code (topic, grade band, objective, the terms its items
        ask about): one that still fits stays with the plan, marked so; /quiz again writes each one that does not
        fit (else the latest) again, of the same kind and length, from the current plan.
        """
    public static let argumentCompletions = ["exit", "starter", "again"]
    public static let templates = ["quiz", "quiz-repair", "quiz-item"]

    public let kind: Quiz.Kind
    public let items: Int
    /// For `/quiz item N`: the item to write again and what to change; nil for a new quiz.
    public let item: (number: Int, request: String)?
    /// `/quiz again`: the quiz that no longer fits the plan (else the latest) written again, same kind and length.
    public let again: Bool

    public init(
        kind: Quiz.Kind = .exit, items: Int = Quiz.defaultItems, item: (number: Int, request: String)? = nil, again: Bool = false
    ) {
        self.kind = kind
        self.items = items
        self.item = item
        self.again = again
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.items == rhs.items && lhs.item?.number == rhs.item?.number
            && lhs.item?.request == rhs.item?.request && lhs.again == rhs.again
    }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let words = arguments.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.first?.lowercased() == "item" {
            guard words.count >= 2, let number = Int(words[1]), Quiz.itemRange.upperBound >= number, number >= 1 else {
                throw CommandError("/quiz item needs the item's number, e.g. /quiz item 2 make the wrong answers more tempting.")
            }
            let request = words.dropFirst(2).joined(separator: " ")
            guard request.count <= LessonInputs.optionalFieldLimit else {
                throw CommandError("That request is \(request.count) characters long; keep it to \(LessonInputs.optionalFieldLimit).")
            }
            return Self(item: (number, request))
        }
        if words.map({ $0.lowercased() }) == ["again"] { return Self(again: true) }
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
        if let item { return await redoItem(item.number, request: item.request, run) }
        guard again else { return await make(kind: kind, items: items, run) }
        let state = await run.engine.state
        let old = state.currentVersion.map { Self.toRewrite(state, plan: $0) } ?? []
        guard !old.isEmpty else {
            run.host.error("There is no quiz to write again yet; type /quiz to make one from the plan.")
            return .failed
        }
        var outcome = CommandOutcome.done
        for quiz in old {
            outcome = await make(kind: quiz.quiz.kind, items: quiz.expectedItems, run)
            if outcome.status != .done { break }
        }
        return outcome
    }

    /// A new quiz of `kind` with `items` items from the current plan, checked and repaired once.
    private func make(kind: Quiz.Kind, items: Int, _ run: CommandRun) async -> CommandOutcome {
        let (outcome, result) = await run.assessment(.quiz(kind: kind, items: items), waiting: "writing the quiz…")
        guard result.first.status == .completed else { return outcome }
        if let made = result.outcomes.compactMap(\.quiz).last, let quiz = await run.engine.state.quizzes.last, quiz.number == made {
            run.host.deliver(.text(AssessmentText.quiz(quiz.quiz, withKey: true)))
        }
        return outcome
    }

    /// The quizzes `/quiz again` writes again: each newest of the plan's line that no longer fits it (starter first),
    /// else the latest.
    static func toRewrite(_ state: SessionState, plan number: Int) -> [QuizVersion] {
        let line = Quiz.Kind.allCases.compactMap { state.newestInLine(of: $0, plan: number) }
        let unfit = line.filter { !state.carries($0, plan: number) }
        return unfit.isEmpty ? (state.quizzes.last.map { [$0] } ?? []) : unfit
    }

    /// `/quiz item N`: item N of the current plan's latest quiz written again, the rest kept; says what changed.
    private func redoItem(_ number: Int, request: String, _ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let current = state.current, let quiz = state.quizzes(for: current.number).last else {
            run.host.error("There is no quiz of this plan yet; type /quiz to make one, then /quiz item N to change one item.")
            return .failed
        }
        guard number <= quiz.quiz.items.count else {
            run.host.error("Quiz \(quiz.number) has \(quiz.quiz.items.count) items; /quiz item \(quiz.quiz.items.count) is the last.")
            return .failed
        }
        let (outcome, result) = await run.part(
            .part(PartRedo(.quizItem, text: quiz.text, number: number, request: request)),
            assessment: .quiz(kind: quiz.quiz.kind, items: quiz.expectedItems), waiting: "writing item \(number)…")
        guard result.first.status == .completed, let made = await run.engine.state.quizzes.last, made.number != quiz.number else {
            return outcome
        }
        let changed = zip(quiz.quiz.items, made.quiz.items).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
        run.host.deliver(.text(AssessmentText.quiz(made.quiz, withKey: true)))
        let kept = made.quiz.items.count - changed.count
        run.host.show(StyledText(
            "quiz \(made.number) from quiz \(quiz.number): changed item \(changed.map(String.init).joined(separator: ", ")); \(kept) \(kept == 1 ? "item" : "items") unchanged",
            style: .dim))
        return outcome
    }
}
