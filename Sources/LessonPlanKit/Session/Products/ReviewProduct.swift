import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// A review `/review` made of one plan version, kept beside it (not a version itself).
package struct ReviewVersion: Equatable, Sendable, KeptProduct {
    package var number: Int
    /// The model's answer as it came; ``review`` is read from it.
    package var text: String
    /// The rows, each quotation checked against the plan version reviewed.
    package var review: LessonReview
    /// The plan version it reviewed.
    package var planVersion: Int?
    package var inputs: LessonInputs
    package var createdAt: Date

    init(number: Int, text: String, plan: String?, rubric: ReviewRubric?, started: TurnStarted, createdAt: Date) {
        self.number = number
        self.text = text
        review = LessonReview(reading: text, plan: plan, rubric: rubric)
        planVersion = started.baseVersion
        inputs = started.inputs
        self.createdAt = createdAt
    }

    /// Where the criteria come from, when they are the built-in ones (whose licence asks that it be said); nil for a
    /// prompts folder's own criteria, which the built-in source does not describe.
    package var source: String? {
        guard let rubric = ReviewRubric(parsing: PromptLibrary.builtIn.reviewRubricText), rubric.covers(review) else { return nil }
        return rubric.source
    }
}

/// A review (`/review`): kept only when it holds a criterion in the layout asked for; its quotations are checked
/// against the plan it reviewed, here for the footer and again whenever the transcript is read.
enum ReviewProduct: ProductKind {
    static let kind = TurnKind.review
    static let noneYet = "There is no review yet; type /review to ask for one of the plan."
    /// It judges the plan alone, not the sources the plan was written from.
    static let carriesSources = false

    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        let review = LessonReview(reading: context.output, plan: context.base?.text, rubric: context.state.reviewRubric)
        guard !review.rows.isEmpty else {
            return ProductVerdict(
                keepNote:
                    "The answer holds no criterion in the layout asked for (Criterion:, Score:, Evidence:, Why:), so it is not kept; type /review to ask again."
            )
        }
        ended.made = Made(kind, context.state.nextNumber(of: kind))
        var verdict = ProductVerdict(problems: review.problems)
        verdict.notice = review.markNotice
        return verdict
    }

    /// Whether every quotation is in the plan it reviewed.
    static func footer(_ outcome: TurnOutcome) -> [String] {
        guard outcome.made?.kind == kind else { return [] }
        return [quotations(unfound: outcome.assessmentProblems.count)]
    }

    private static func quotations(unfound: Int) -> String {
        unfound == 0 ? "✓ quotations in the plan" : "✗ \(counted(unfound, "quotation")) not in the plan"
    }

    /// For `replay`: what the turn made and whether its quotations are in the plan; then each row with its quotation
    /// marked when the plan it reviewed does not say it, or the answer as it came when it was not kept.
    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)? {
        let made = ended.made(kind).map { "review \($0)" } ?? "not kept (no criterion in the layout asked for)"
        guard let number = ended.made(kind), let review = state.reviews.first(where: { $0.number == number }) else {
            return (["completed → \(made)\(base)"], ended.output)
        }
        return (
            ["completed → \(made)\(base)", quotations(unfound: review.review.unfound.count)],
            ReviewText.render(review.review, source: review.source, width: nil)
        )
    }

    /// Its quotations are checked against the version it reviewed, as that version's text stands.
    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> ReviewVersion {
        ReviewVersion(
            number: made.number, text: ended.output, plan: started.baseVersion.flatMap(state.version)?.text, rubric: state.reviewRubric,
            started: started, createdAt: ended.at)
    }

    /// The newest review of exactly that version, each quotation checked against it: on the teacher's copy only.
    static func teachersCopy(of number: Int, in state: SessionState, into document: inout ExportDocument) {
        guard let review = state.review(of: number) else { return }
        document.teacherTables.append(review.table(of: number))
    }

    static func leftOut(exporting number: Int?, in state: SessionState) -> String? { state.reviewLeftOut(exporting: number) }

    /// The review under a one-line label, and a warning when the plan has moved on from the version it reviewed (its
    /// quotations were checked against that version, not the current one).
    static func show(_ review: ReviewVersion, in state: SessionState, width: Int) -> [StyledText] {
        let from = review.planVersion.map { " · of v\($0)" } ?? ""
        let label = "── review \(review.number) · \(counted(review.review.rows.count, "criterion", "criteria"))\(from)"
        let body = review.review.rows.isEmpty ? review.text : ReviewText.render(review.review, source: review.source, width: width)
        return [
            ProductText.labelled(
                label, body, problems: [], stale: ProductText.stale("review", madeFrom: review.planVersion, current: state.currentVersion))
        ]
    }
}

extension ReviewVersion {
    /// The review as the teacher's copy of an export carries it, its quotations checked against plan version
    /// `number`: a table of a row per criterion, a quotation the plan does not hold marked; in JSON, its rows.
    func table(of number: Int) -> TeacherTable {
        let data = Exported(number: self.number, planVersion: number, rows: review.rows, summary: review.summary, source: source)
        return TeacherTable(
            key: "review", title: "Second opinion: review \(self.number) of v\(number)",
            caveat:
                "A model's review of this plan against published criteria, for the teacher only. Each quotation was checked by code against the plan; the scores and reasons were not.",
            header: ["Criterion", "Score", "Evidence from the plan", "Why"], widths: [0.2, 0.1, 0.35, 0.35],
            rows: review.rows.map { [$0.criterion, $0.scoreText, Self.evidence($0), $0.why] },
            marked: Set(review.rows.indices.filter { [.notFound, .unchecked].contains(review.rows[$0].status) }),
            summary: review.summary, source: source, data: JSONValue(encoding: data))
    }

    /// The evidence cell: the quotation in quotation marks, and the mark when the plan does not hold it.
    private static func evidence(_ row: ReviewRow) -> String {
        let quoted = row.evidence.isEmpty ? "none" : "“\(row.evidence)”"
        return row.status == .found || row.status == .none ? quoted : "\(quoted) ⚠ \(row.status.mark)"
    }

    /// What the JSON export holds of a review.
    private struct Exported: Encodable {
        var number: Int
        /// The plan version it reviewed (the exported one).
        var planVersion: Int
        var rows: [ReviewRow]
        var summary: String
        /// Where the criteria come from and their licence; nil for a prompts folder's own criteria.
        var source: String?
    }
}

extension SessionState {
    /// Reviews made by `/review`, oldest first, each checked against the plan version it reviewed.
    package var reviews: [ReviewVersion] { kept(ReviewProduct.self) }

    /// Reads every review, and those to come, against `rubric`'s scale and criteria.
    package mutating func reviewing(with rubric: ReviewRubric?) {
        reviewRubric = rubric
        let plans = self
        reread(ReviewProduct.self) { review in
            var review = review
            review.review = LessonReview(reading: review.text, plan: review.planVersion.flatMap(plans.version)?.text, rubric: rubric)
            return review
        }
    }

    /// The newest review of plan version `number` exactly: its quotations were checked against that text, so a
    /// review never follows a plan into an edit or a repair.
    package func review(of number: Int?) -> ReviewVersion? {
        guard let number else { return nil }
        return reviews.last { $0.planVersion == number }
    }

    /// A sentence when the newest review is of another version than `number`, which an export of `number` leaves out.
    package func reviewLeftOut(exporting number: Int?) -> String? {
        guard let number, let last = reviews.last, review(of: number) == nil, let made = last.planVersion else { return nil }
        return "Review \(last.number) is of v\(made), not v\(number), so it is left out; type /review to review v\(number)."
    }
}

extension PromptLibrary {
    /// The criteria `/review` scores a plan against: the folder's `review-rubric.txt`, else the built-in one.
    package var reviewRubricText: String { dataFile("review-rubric.txt") }
}
