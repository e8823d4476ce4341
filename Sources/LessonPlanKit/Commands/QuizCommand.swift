import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/quiz [starter|exit] [N]`: a multiple-choice quiz from the plan with its answer key, checked and repaired once,
/// kept beside the plan version it was made from.
package struct QuizCommand: Command, Equatable {
    package static let name = "quiz"
    package static let asksTheModel = true
    package static let usage = "/quiz [starter|exit] [N]; /quiz again; /quiz forms N [starter|exit]; /quiz item N [what to change]"
    package static let summary = "a multiple-choice quiz from the plan with its answer key (default: exit, 5 items)"
    package static let details = """
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
        fit (else the latest) again, of the same kind and length, from the current plan. /quiz forms N (2 to 4)
        makes N parallel forms of the plan's latest quiz for the next row of desks, without asking the model: form
        A as written, the others with the items and each item's options in another order, by a seeded shuffle
        (the seed is saved, so the forms are made again the same); each form's key is checked by code to be the
        same answer as the quiz's, and every export gives each form with its own key (one file per form for a
        learning platform).
        """
    package static let argumentCompletions = ["exit", "starter", "again", "forms"]
    package static let templates = ["quiz", "quiz-repair", "quiz-item"]

    package let kind: Quiz.Kind
    package let items: Int
    /// For `/quiz item N`: the item to write again and what to change; nil for a new quiz.
    package let item: (number: Int, request: String)?
    /// `/quiz again`: the quiz that no longer fits the plan (else the latest) written again, same kind and length.
    package let again: Bool
    /// `/quiz forms N`: how many parallel forms of the latest quiz to make; nil for a new quiz.
    package let forms: Int?
    /// With `forms`: whether `kind` was named (`/quiz forms 2 exit`); else the plan's latest quiz of either kind.
    package let formsOfKind: Bool

    package init(
        kind: Quiz.Kind = .exit, items: Int = Quiz.defaultItems, item: (number: Int, request: String)? = nil, again: Bool = false,
        forms: Int? = nil, formsOfKind: Bool = false
    ) {
        self.formsOfKind = formsOfKind
        self.kind = kind
        self.items = items
        self.item = item
        self.again = again
        self.forms = forms
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.items == rhs.items && lhs.item?.number == rhs.item?.number
            && lhs.item?.request == rhs.item?.request && lhs.again == rhs.again && lhs.forms == rhs.forms && lhs.formsOfKind == rhs.formsOfKind
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
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
        if words.first?.lowercased() == "forms" {
            let rest = words.dropFirst().map { $0.lowercased() }
            let kind = rest.compactMap(Quiz.Kind.init(rawValue:)).first
            let numbers = rest.filter { Quiz.Kind(rawValue: $0) == nil }
            guard numbers.count <= 1, let count = numbers.first.map({ Int($0) }) ?? 2, (2...QuizForms.most).contains(count) else {
                throw CommandError(
                    "/quiz forms takes how many forms, 2 to \(QuizForms.most), and optionally starter or exit: e.g. /quiz forms 2 exit.")
            }
            return Self(kind: kind ?? .exit, forms: count, formsOfKind: kind != nil)
        }
        var kind: Quiz.Kind?
        var items: Int?
        for word in arguments.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) {
            if let number = Int(word), items == nil {
                guard Quiz.itemRange.contains(number) else {
                    throw CommandError(
                        "A quiz has \(Quiz.itemRange.lowerBound) to \(Quiz.itemRange.upperBound) items, not \(number); e.g. /quiz exit 5.")
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

    package func run(_ run: CommandRun) async -> CommandOutcome {
        if let item { return await redoItem(item.number, request: item.request, run) }
        if let forms { return await makeForms(forms, run) }
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
        if let made = result.outcomes.compactMap(\.made?.number).last, let quiz = await run.engine.state.quizzes.last, quiz.number == made {
            run.host.deliver(.text(AssessmentText.quiz(quiz.quiz, withKey: true)))
        }
        return outcome
    }

    /// `/quiz forms N`: parallel forms of the plan's latest quiz, checked and saved as their seed; no model call.
    private func makeForms(_ count: Int, _ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        let carried = state.quizzes(for: state.currentVersion).filter { !formsOfKind || $0.quiz.kind == kind }
        guard let quiz = carried.max(by: { $0.number < $1.number }) else {
            run.host.error("There is no quiz of this plan yet; type /quiz to make one, then /quiz forms \(count).")
            return .failed
        }
        let seed = UInt64.random(in: 1...UInt64(1) << 62)
        let forms = QuizForms.make(quiz.quiz, count: count, seed: seed)
        let problems = QuizForms.problems(forms, of: quiz.quiz)
        guard problems.isEmpty else {
            run.host.error("The forms did not pass their check (\(problems.joined(separator: "; "))); nothing was saved.")
            return .failed
        }
        await run.engine.addForms(count, of: quiz.number, seed: seed)
        let shown = forms.dropFirst().map { "── \($0.title)\n" + AssessmentText.quiz($0, withKey: true) }.joined(separator: "\n")
        run.host.show(StyledText(shown))
        run.host.deliver(.text(shown))
        let letters = forms.compactMap(\.form)
        run.host.show(
            StyledText(
                "Quiz \(quiz.number) now has forms \(letters.first ?? "A")–\(letters.last ?? "B"): form A as written, the others with the items and their options in another order (seed \(seed), saved with the session). Checked by code: every form holds every item once, and each item's key is the same answer as in quiz \(quiz.number). Exports give each form with its own key; /export quiz FORMAT writes one file per form.",
                style: .dim))
        return .done
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
        run.host.show(
            StyledText(
                "quiz \(made.number) from quiz \(quiz.number): changed item \(changed.map(String.init).joined(separator: ", ")); \(kept) \(kept == 1 ? "item" : "items") unchanged",
                style: .dim))
        return outcome
    }
}
