import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/review`: a second opinion on the current plan from the model, against published criteria
/// (`prompts/review-rubric.txt`), one row per criterion with a score and the sentence of the plan it rests on;
/// each quoted sentence is checked by code against the plan, and one that is not in it is marked.
package struct ReviewCommand: Command, Equatable {
    package static let name = "review"
    package static let asksTheModel = true
    package static let usage = "/review"
    package static let summary = "a second opinion on the plan against published criteria, each score resting on a quoted sentence"
    package static let details = """
        The built-in criteria are adapted from the Achieve OER Rubrics (CC BY 3.0; see prompts/review-rubric.txt), scored
        0 to 3 or N/A. Every sentence the model quotes is checked by code against the plan (ignoring case, spacing and curly
        quotes); a row whose quotation is not in the plan is marked “evidence not found in the plan”. The review is
        kept beside the plan version it reviewed: /show review prints it, replay shows it, and exports of that version
        carry it on the teacher's copy, never on handouts or slides. A score off the scale (7 of 3) is not kept, and a
        criterion not among the criteria, or scored twice, is marked; otherwise the scores are the model's opinion.
        """
    package static let templates = ["review"]

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let plan = await run.currentPlan() else { return .failed }
        guard let rubric = ReviewRubric(parsing: run.engine.prompts.reviewRubricText) else {
            run.host.error(ReviewRubric.unusable)
            return .failed
        }
        let columns = run.host.columns
        let refinement = Refinement(.besidePlan(.review), inputs: plan.inputs, values: rubric.promptValues)
        let source = rubric.source
        let (outcome, result) = await run.requestResult(
            refinement, waiting: "reviewing the plan…",
            shows: { text in
                let review = LessonReview(reading: text, plan: plan.text, rubric: rubric)
                let shown = review.rows.isEmpty ? text : ReviewText.render(review, source: source, width: columns)
                return StyledText(shown.hasSuffix("\n") ? String(shown.dropLast()) : shown)
            })
        guard result.first.status == .completed else { return outcome }
        // An answer in another layout (prose, no criterion) is not kept: the command did not do what it was asked,
        // so a script (`generate --then /review`) ends non-zero.
        guard let made = result.first.made?.number else { return CommandOutcome(status: .failed, turns: outcome.turns) }
        if let kept = await run.engine.state.reviews.last, kept.number == made {
            run.host.deliver(.text(ReviewText.render(kept.review, source: kept.source ?? source, width: nil)))
        }
        return outcome
    }
}
