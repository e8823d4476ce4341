import Foundation
import LessonPlanCore
import LessonPlanStore

/// A review `/review` made of one plan version, kept beside it (not a version itself).
package struct ReviewVersion: Equatable, Sendable {
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

extension SessionState {
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
