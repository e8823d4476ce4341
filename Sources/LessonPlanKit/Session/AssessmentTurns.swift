import Foundation
import LessonPlanCore
import LessonPlanStore

/// What `/quiz` or `/rubric` asks the model for: the parameters its prompt, its check and its transcript
/// lines share.
package enum AssessmentRequest: Sendable, Equatable {
    case quiz(kind: Quiz.Kind, items: Int)
    case rubric(levels: Int)

    /// The kind of turn that carries it.
    package var turnKind: TurnKind {
        switch self {
        case .quiz: .quiz
        case .rubric: .rubric
        }
    }

    /// `quiz` or `rubric`, as sentences name it.
    package var noun: String { turnKind.rawValue }

    /// The template that writes it.
    package var template: String { noun }

    /// The template that repairs it once when it fails its check.
    package var repairTemplate: String { noun + "-repair" }

    /// The placeholder values its templates use beside the plan's own.
    package var values: [String: String] {
        switch self {
        case .quiz(let kind, let items): AssessmentPrompts.quizValues(kind: kind, items: items)
        case .rubric(let levels): AssessmentPrompts.rubricValues(levels: levels)
        }
    }

    /// The check's problems with the model's answer, one sentence each (they go into the repair prompt as they are).
    /// - Parameters:
    ///   - lesson: the plan it was made from, whose topic and text a quiz must be about.
    ///   - feedbackAsked: whether the quiz's prompt asked for student feedback (the turn's `quiz_feedback`); a quiz
    ///     made before feedback was asked for is not failed for lacking it.
    package func problems(in text: String, lesson: PlanVersion?, feedbackAsked: Bool) -> [String] {
        switch self {
        case .quiz(let kind, let items):
            Self.quizProblems(
                QuizReader.read(text, kind: kind), text: text, items: items, kind: kind, lesson: lesson,
                feedbackAsked: feedbackAsked)
        case .rubric(let levels):
            RubricCheck.problems(RubricReader.read(text), expectedLevels: levels).map(\.description)
                + StandardsFindings.problems(in: text)
        }
    }
}

extension AssessmentRequest {
    /// What a quiz is checked to be about: the lesson's topic and its plan.
    static func lessonText(_ plan: PlanVersion) -> String { plan.inputs.topic + "\n" + plan.text }

    /// A quiz's problems: its own check, the codes it cites that are no standard, and its items that go past an
    /// assessment boundary of a standard the lesson is aligned to (its standards or its plan cite it).
    static func quizProblems(
        _ quiz: Quiz, text: String, items: Int, kind: Quiz.Kind, lesson: PlanVersion?, feedbackAsked: Bool
    ) -> [String] {
        let own = QuizCheck.problems(
            quiz, expectedItems: items, kind: kind, lesson: lesson.map(lessonText), feedbackAsked: feedbackAsked
        ).map(\.description)
        let stems = quiz.items.enumerated().map { (label: "Item \($0.offset + 1)", text: $0.element.stem) }
        let aligned = lesson.map { $0.inputs.standards + "\n" + $0.text } ?? ""
        return own + StandardsFindings.problems(in: text) + StandardsFindings.pastBoundaries(stems, citedIn: aligned)
    }
}

extension SessionState {
    /// The quiz `choice` names, as `/show quiz` and `results --quiz` read it: by number, or the newest of a kind.
    package func quiz(_ choice: QuizChoice) -> QuizVersion? {
        switch choice {
        case .number(let number): quizzes.first { $0.number == number }
        case .kind(let kind): quizzes.last { $0.quiz.kind == kind }
        }
    }

    /// A quiz as exports give it: its parallel forms when `/quiz forms` made some, else the quiz itself.
    package func forms(of quiz: QuizVersion) -> [Quiz] {
        guard let record = forms[quiz.number], record.forms >= 2 else { return [quiz.quiz] }
        return QuizForms.make(quiz.quiz, count: record.forms, seed: record.seed)
    }

    /// The newest quiz made from plan version `number` (the one an export of that version carries).
    package func quiz(madeFrom number: Int?) -> QuizVersion? {
        guard let number else { return nil }
        return quizzes.last { $0.planVersion == number }
    }

    /// The newest rubric made from plan version `number` (the one an export of that version carries).
    package func rubric(madeFrom number: Int?) -> RubricVersion? {
        guard let number else { return nil }
        return rubrics.last { $0.planVersion == number }
    }

    /// The plan versions whose quiz and rubric version `number` still carries: itself, then back through its
    /// parents while each step kept the lesson (a hand edit, a repair, or a plan that replaced a draft).
    ///
    /// - Returns: those versions, nearest first, and the version whose command changed the lesson (a `/regrade`,
    ///   `/shorten`, `/revise` …) where the walk stopped, if it stopped at one.
    package func lesson(of number: Int) -> (versions: [Int], changedBy: PlanVersion?) {
        var versions: [Int] = []
        var at = version(number)
        while let here = at, !versions.contains(here.number) {
            versions.append(here.number)
            guard here.sameLesson, let parent = here.parent else {
                return (versions, here.sameLesson || here.parent == nil ? nil : here)
            }
            at = version(parent)
        }
        return (versions, nil)
    }

    /// How a quiz or rubric made from plan version `made` stands with plan version `number`.
    package enum Standing: Equatable, Sendable {
        /// Made from this lesson: the version itself, or one it only corrected (``lesson(of:)``).
        case sameLesson
        /// Written for an earlier version of this plan and checked by code against it (``AssessmentFit``): it fits.
        case fits(writtenFor: Int)
        /// Written for an earlier version, and the check names why it no longer fits.
        case doesNotFit(writtenFor: Int, reasons: [String])
        /// Made from another branch, or a later version: nothing to do with this plan.
        case elsewhere

        /// Whether an export of the plan carries it.
        package var isCarried: Bool {
            switch self {
            case .sameLesson, .fits: true
            case .doesNotFit, .elsewhere: false
            }
        }
    }

    /// How what was made from `made` (with `quiz`'s items, for a quiz) stands with plan version `number`.
    package func standing(madeFrom made: Int?, quiz: Quiz? = nil, plan number: Int) -> Standing {
        guard let made else { return .elsewhere }
        if lesson(of: number).versions.contains(made) { return .sameLesson }
        guard line(of: number).contains(made), let old = version(made), let new = version(number) else { return .elsewhere }
        let reasons = AssessmentFit.problems(
            writtenFor: .init(number: old.number, text: old.text, inputs: old.inputs),
            now: .init(number: new.number, text: new.text, inputs: new.inputs), quiz: quiz)
        return reasons.isEmpty ? .fits(writtenFor: made) : .doesNotFit(writtenFor: made, reasons: reasons)
    }

    /// The quizzes an export of plan version `number` carries: for each kind the newest one of this plan's line,
    /// when it is this lesson's or still fits it (``standing(madeFrom:quiz:plan:)``), the starter quiz first.
    package func quizzes(for number: Int?) -> [QuizVersion] {
        guard let number else { return [] }
        return Quiz.Kind.allCases.compactMap { kind in
            newestInLine(of: kind, plan: number).flatMap { carries($0, plan: number) ? $0 : nil }
        }
    }

    /// Plan version `number` and every version before it on its branch: what a quiz or rubric may follow from.
    /// Only ancestry, no check: which is the newest of the line is decided without reading any plan.
    func line(of number: Int) -> Set<Int> {
        var line: Set<Int> = []
        var at: Int? = number
        while let here = at, line.insert(here).inserted { at = version(here)?.parent }
        return line
    }

    /// The newest quiz of `kind` made from plan version `number`'s line (itself or a version before it).
    package func newestInLine(of kind: Quiz.Kind, plan number: Int) -> QuizVersion? {
        let line = line(of: number)
        return quizzes.last { $0.quiz.kind == kind && $0.planVersion.map(line.contains) == true }
    }

    /// Whether an export of plan version `number` may carry `quiz`: made from that lesson, or it still fits it.
    package func carries(_ quiz: QuizVersion, plan number: Int) -> Bool {
        standing(madeFrom: quiz.planVersion, quiz: quiz.quiz, plan: number).isCarried
    }

    /// The newest rubric of plan version `number`'s line (itself or a version before it).
    package func newestRubricInLine(plan number: Int) -> RubricVersion? {
        let line = line(of: number)
        return rubrics.last { $0.planVersion.map(line.contains) == true }
    }

    /// The newest rubric of plan version `number`'s line, when it is this lesson's or still fits it.
    package func rubric(for number: Int?) -> RubricVersion? {
        guard let number, let newest = newestRubricInLine(plan: number) else { return nil }
        return standing(madeFrom: newest.planVersion, plan: number).isCarried ? newest : nil
    }

    /// One sentence for each newest quiz or rubric that an export of `number` leaves out: written for an earlier
    /// version and no longer fitting it (why, and `/quiz again`), or made from another branch or lesson.
    package func assessmentsLeftOut(exporting number: Int?) -> [String] {
        guard let number else { return [] }
        var notes = followingSentences(plan: number).filter { !$0.carried }.map(\.sentence)
        let changedBy = lesson(of: number).changedBy
        let why =
            changedBy.map { " (\($0.command.split(separator: " ").first.map(String.init) ?? $0.command) made v\($0.number) a new lesson)" } ?? ""
        for kind in Quiz.Kind.allCases where newestInLine(of: kind, plan: number) == nil {
            guard let quiz = quizzes.last(where: { $0.quiz.kind == kind }), let made = quiz.planVersion else { continue }
            notes.append(
                "Quiz \(quiz.number) (\(kind.rawValue)) was made from v\(made), not the lesson of v\(number)\(why), so it is left out; type /quiz \(kind.rawValue) to make one from v\(number)."
            )
        }
        if let rubric = rubrics.last, newestRubricInLine(plan: number) == nil, let made = rubric.planVersion {
            notes.append(
                "Rubric \(rubric.number) was made from v\(made), not the lesson of v\(number)\(why), so it is left out; type /rubric to make one from v\(number)."
            )
        }
        return notes
    }

    /// For the newest quiz of each kind and the newest rubric written for an earlier version of plan `number`: that
    /// it still fits (checked by code) and goes with it, or why it does not; nothing for those made from its lesson.
    package func followingSentences(plan number: Int) -> [(carried: Bool, sentence: String)] {
        var sentences: [(Bool, String)] = []
        for kind in Quiz.Kind.allCases {
            guard let quiz = newestInLine(of: kind, plan: number) else { continue }
            let name = "Quiz \(quiz.number) (\(kind.rawValue))"
            switch standing(madeFrom: quiz.planVersion, quiz: quiz.quiz, plan: number) {
            case .fits(let made):
                sentences.append(
                    (
                        true,
                        "\(name) was written for v\(made) and checked against v\(number) by code (topic, grade band, objective, the terms its items ask about): it still fits, so it goes with v\(number)."
                    ))
            case .doesNotFit(let made, let reasons):
                sentences.append(
                    (
                        false,
                        "\(name) was written for v\(made) and does not fit v\(number): \(reasons.joined(separator: "; ")); type /quiz again to rewrite it."
                    ))
            case .sameLesson, .elsewhere: break
            }
        }
        if let rubric = newestRubricInLine(plan: number) {
            switch standing(madeFrom: rubric.planVersion, plan: number) {
            case .fits(let made):
                sentences.append(
                    (
                        true,
                        "Rubric \(rubric.number) was written for v\(made) and checked against v\(number) by code (topic, grade band, objective): it still fits, so it goes with v\(number)."
                    ))
            case .doesNotFit(let made, let reasons):
                sentences.append(
                    (
                        false,
                        "Rubric \(rubric.number) was written for v\(made) and does not fit v\(number): \(reasons.joined(separator: "; ")); type /rubric again to rewrite it."
                    ))
            case .sameLesson, .elsewhere: break
            }
        }
        return sentences
    }
}

/// A quiz or a rubric: judged, footed and replayed alike (``AssessmentProduct``); each says what it keeps and how
/// `/show` prints it.
protocol AssessmentKind: ProductKind {}

extension AssessmentKind {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        AssessmentProduct.judge(context, into: &ended)
    }

    static func footer(_ outcome: TurnOutcome) -> [String] { [ProductText.check(kind, problems: outcome.assessmentProblems)] }

    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)? {
        AssessmentProduct.replay(turn, ended: ended, base: base, in: state)
    }

    /// `/show` for a quiz or rubric: `body` under `label` with its check's problems, a warning when the plan has
    /// moved on from the version it was made from (unless the current plan is still its lesson), and whether it
    /// still fits the current plan.
    static func shown(
        _ label: String, _ body: String, problems: [String], madeFrom: Int?, quiz: Quiz? = nil, in state: SessionState
    ) -> [StyledText] {
        let current = ProductText.lessonVersion(state, madeFrom: madeFrom, quiz: quiz)
        let shown = ProductText.labelled(
            label, body, problems: problems, stale: ProductText.stale(kind.rawValue, madeFrom: madeFrom, current: current))
        let standing = ProductText.standingLine(state, madeFrom: madeFrom, quiz: quiz, noun: kind.rawValue)
        return [shown] + (standing.map { [StyledText($0, style: .dim)] } ?? [])
    }
}

/// What a quiz and a rubric share as products: checked against what was asked for; a repair of one is kept only
/// with fewer problems.
enum AssessmentProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        let kind = context.request.kind
        let noun = kind.rawValue
        let problems =
            context.request.assessment?.problems(in: context.output, lesson: context.base, feedbackAsked: context.request.quizFeedback == true) ?? []
        let keep = context.keep
        let kept = keep.keeps(problems: problems.count)
        if keep != .always { ended.kept = kept }
        if kept { ended.made = Made(kind, context.state.nextNumber(of: kind)) }
        var verdict = ProductVerdict(problems: problems)
        if let draft = context.request.follows {
            verdict.keepNote =
                kept
                ? "The repaired \(noun) has fewer problems, so it replaces \(noun) \(draft)."
                : "The repaired \(noun) has no fewer problems than \(noun) \(draft), so \(noun) \(draft) stays."
        }
        return verdict
    }

    /// For `replay`: what the turn made (or that it was not kept), what it repaired, and its check; then the text as
    /// the model wrote it.
    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?) {
        let started = turn.started
        let noun = started.kind?.rawValue ?? ""
        let made = ended.kept == false ? "not kept" : "\(noun) \(ended.made?.number.description ?? "?")"
        let repairing = started.follows.map { ", repairing \(noun) \($0)" } ?? ""
        var facts = ["completed → \(made)\(repairing)\(base)"]
        if let problems = started.assessment?.problems(
            in: ended.output, lesson: started.baseVersion.flatMap(state.version), feedbackAsked: started.quizFeedback == true)
        {
            facts.append(problems.isEmpty ? "✓ \(noun) check" : "✗ \(noun) check: \(counted(problems.count, "problem"))")
        }
        return (facts, ended.output)
    }
}
