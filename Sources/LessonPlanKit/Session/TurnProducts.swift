import Foundation
import LessonPlanCore
import LessonPlanStore

/// What a product's judge knows about a completed turn.
struct ProductContext {
    /// The whole answer (after a structure is rendered, and after a `/continue`'s draft).
    var output: String
    var request: TurnRequest
    /// When an answer of a follow-up replaces what it follows.
    var keep: KeepRule
    /// The plan the turn started from.
    var base: PlanVersion?
    var state: SessionState
}

/// What a product decided besides the fields it sets on the turn's end.
struct ProductVerdict {
    /// A quiz's or rubric's check problems, or a review's quotations not in the plan; one sentence each.
    var problems: [String] = []
    /// A plan's quotations checked against the session's sources.
    var quotes: QuoteReport?
    /// For a follow-up: one sentence on why its answer was kept or not.
    var keepNote: String?
    /// One line for the terminal that does not end the turn.
    var notice: String?
}

/// One kind of thing a turn makes: it checks the answer, decides keep or drop, numbers what it keeps and
/// writes its note, all on the turn's end record. A new kind is one such type and one line in
/// ``TurnKind/product``.
protocol TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict
}

extension TurnKind {
    /// What one thing of this kind is called before its number: "quiz 2", "handouts 1".
    package var noun: String {
        switch self {
        case .materials: "handouts"
        case .plan: "version"
        case .quiz, .rubric, .review, .overview: rawValue
        }
    }

    /// The product that judges an answer of this kind.
    var product: any TurnProduct.Type {
        switch self {
        case .plan: PlanProduct.self
        case .materials: MaterialsProduct.self
        case .quiz, .rubric: AssessmentProduct.self
        case .review: ReviewProduct.self
        case .overview: OverviewProduct.self
        }
    }
}

/// A plan: checked (structure and content), measured for reading level, its quotations checked against
/// the sources, and made a version when its keep rule allows.
enum PlanProduct: TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        let output = context.output
        let keep = context.keep
        guard output.utf8.count <= PlanChecker.largestCheckedPlan else {
            // A runaway answer (a model looping to its limit) is no lesson plan: reading it section by section
            // would take seconds for nothing. It is kept unchecked only where any answer would be kept; a
            // follow-up never replaces its draft with one.
            let kept = keep == .always
            if keep != .always { ended.kept = kept }
            if kept { ended.version = context.state.nextVersionNumber }
            return ProductVerdict(
                notice: "The answer is \(output.utf8.count / 1024) KB, far longer than a lesson plan, so it was not checked.")
        }
        let framework = context.request.framework
        let inputs = context.request.inputs
        let plan = framework.document(of: output)
        let report = framework.check(plan, lessonMinutes: inputs.minutes, topic: inputs.topic, grade: inputs.grade)
        let level = ReadingMeasure(studentText: framework.studentFacingText(of: plan), band: inputs.grade)
        ended.check = report
        ended.readingLevel = level
        let sources = context.state.sources
        let quotes = sources.isEmpty ? nil : QuoteChecker.check(output, against: sources)
        let kept = keep.keeps(check: report, level: level, quoteProblems: quotes?.problems.count ?? 0)
        if keep != .always { ended.kept = kept }
        if kept { ended.version = context.state.nextVersionNumber }
        return ProductVerdict(
            quotes: quotes, keepNote: context.base.flatMap { keep.note(kept: kept, draft: $0.number, level: level) })
    }
}

/// Student handouts: kept, numbered on their own, beside the plan version they were made from.
enum MaterialsProduct: TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        ended.made = Made(.materials, context.state.nextNumber(of: .materials))
        return ProductVerdict()
    }
}

/// A quiz or rubric: checked against what was asked for; a repair of one is kept only with fewer problems.
enum AssessmentProduct: TurnProduct {
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
}

/// A review: kept only when it holds a criterion in the layout asked for; its quotations are checked against
/// the plan it reviewed, here for the footer and again whenever the transcript is read.
enum ReviewProduct: TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        let review = LessonReview(reading: context.output, plan: context.base?.text, rubric: context.state.reviewRubric)
        guard !review.rows.isEmpty else {
            return ProductVerdict(
                keepNote:
                    "The answer holds no criterion in the layout asked for (Criterion:, Score:, Evidence:, Why:), so it is not kept; type /review to ask again."
            )
        }
        ended.made = Made(.review, context.state.nextNumber(of: .review))
        var verdict = ProductVerdict(problems: review.problems)
        verdict.notice = review.markNotice
        return verdict
    }
}
