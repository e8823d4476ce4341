import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

/// `/review`'s pieces without a model: the criteria file, the reader of the answer's layout, and the check that
/// every quoted sentence is in the plan.
@Suite struct LessonReviewTests {
    static let plan = PlanFixtures.passing(minutes: 45)

    @Test func theBuiltInCriteriaNameTheirSourceAndLicence() throws {
        let text = PromptLibrary.builtIn.reviewRubricText
        let rubric = try #require(ReviewRubric(parsing: text))
        #expect(rubric.top == 3)
        #expect(rubric.criteria.count == 7)
        #expect(rubric.criteria.first?.name == "Degree of Alignment to Standards")
        #expect(!rubric.criteria.contains { $0.name.contains("Interactivity") })
        #expect(rubric.source.contains("Achieve OER Rubrics") && rubric.source.contains("CC BY 3.0"))
        #expect(rubric.source.contains("https://creativecommons.org/licenses/by/3.0/"))
        let values = rubric.promptValues
        #expect(values["review_top"] == "3")
        #expect(values["review_criteria"]?.hasPrefix("1. Degree of Alignment to Standards: how closely") == true)
        // The template renders with them and asks for the layout the reader reads.
        let prompt = try PromptLibrary.builtIn.render("review", values: values.merging(["plan": Self.plan]) { $1 })
        #expect(prompt.contains("7. Assurance of Accessibility"))
        #expect(prompt.contains("Score: N of 3"))
        #expect(prompt.contains(Self.plan))
    }

    @Test func criteriaWithoutAScaleOrACriterionAreRefused() {
        #expect(ReviewRubric(parsing: "# only comments\nsource: somewhere\n") == nil)
        #expect(ReviewRubric(parsing: "criterion: Clarity | is it clear\n") == nil)
        #expect(ReviewRubric(parsing: "scale: 4 | 4 best\ncriterion: Clarity\n")?.criteria.map(\.name) == ["Clarity"])
    }

    @Test func theReaderReadsEachBlockInItsVariousSpellings() {
        let answer = """
            Here is my review.

            **Criterion:** Quality of Assessment
            **Score:** 2/3
            **Evidence:** "What is the main idea of Tides?"
            **Why:** The questions check the idea,
            but only by recall.

            1. Criterion: Opportunities for Deeper Learning
            - Score: N/A
            - Evidence: none
            - Why: Nothing asks students to reason.

            CRITERION: Degree of Alignment to Standards
            score: 3 out of 3
            evidence: ‘Students will be able to explain the key ideas of Tides’
            why: Clear objective.
            """
        let rows = ReviewReader.read(answer)
        #expect(rows.map(\.criterion) == ["Quality of Assessment", "Opportunities for Deeper Learning", "Degree of Alignment to Standards"])
        #expect(rows.map(\.scoreText) == ["2 of 3", "N/A", "3 of 3"])
        #expect(rows[0].evidence == "What is the main idea of Tides?")
        #expect(rows[0].why == "The questions check the idea, but only by recall.")
        #expect(rows[1].evidence.isEmpty)
        #expect(rows[2].evidence == "Students will be able to explain the key ideas of Tides")
        #expect(ReviewReader.read("I cannot review this plan.").isEmpty)
    }

    /// The check by code: one invented quotation is marked not found; the others, quoted with other spacing, case
    /// and quotation marks than the plan's, are found.
    @Test func anInventedQuotationIsMarkedAndTheOthersAreFound() {
        let invented = "Students build a model of the Moon's orbit out of clay."
        let answer = AssessmentFixtures.review(invented: ("Quality of Assessment", invented))
        let review = LessonReview(reading: answer, plan: Self.plan)
        #expect(review.rows.count == 7)
        #expect(review.rows.filter { $0.status == .notFound }.map(\.criterion) == ["Quality of Assessment"])
        #expect(review.rows.filter { $0.status == .found }.count == 6)
        #expect(review.problems.count == 1)
        #expect(review.problems.first?.contains(invented) == true)
        #expect(review.summary == "✗ 1 of 7 quoted sentences is not in the plan (marked); do not rely on those scores.")
        let shown = ReviewText.render(review, source: "Criteria from somewhere.", width: 80)
        #expect(shown.contains("✗ evidence not found in the plan"))
        #expect(shown.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(shown.hasSuffix("Criteria from somewhere.\n"))

        let all = LessonReview(reading: AssessmentFixtures.review(), plan: Self.plan)
        #expect(all.rows.allSatisfy { $0.status == .found })
        #expect(all.summary == "✓ Every quoted sentence (7) is in the plan.")
    }

    @Test(arguments: [
        ("what is the MAIN idea of tides?", true),
        ("What is the main idea\nof   Tides", true),
        ("“Slides or board notes on Tides”", true),
        ("Students will be able to explain … a new example.", true),
        ("Students will be able to explain the key ideas of Oceans", false),
        ("a new example … Students will be able", false),
    ])
    func quotationsAreNormalisedAsSourceQuotationsAre(quote: String, found: Bool) {
        #expect(QuoteChecker.isQuoted(quote, in: Self.plan) == found)
    }

    @Test func markdownEmphasisInThePlanDoesNotHideAQuotation() {
        #expect(QuoteChecker.isQuoted("Objective: students compare fractions.", in: "**Objective:** Students compare `fractions`.\n"))
    }

    @Test func aRowWithoutEvidenceOrWithoutItsPlanIsNotCountedAsFound() {
        let answer = "Criterion: Quality of Assessment\nScore: 0 of 3\nEvidence: none\nWhy: There is no check."
        #expect(LessonReview(reading: answer, plan: Self.plan).rows.first?.status == EvidenceStatus.none)
        let lost = LessonReview(reading: AssessmentFixtures.review(), plan: nil)
        #expect(lost.rows.allSatisfy { $0.status == .unchecked })
        #expect(lost.summary.contains("not checked"))
    }

    static func row(_ name: String, _ score: String) -> String {
        "Criterion: \(name)\nScore: \(score)\nEvidence: none\nWhy: Because."
    }

    /// A score is kept only on the scale: not above its own `of M`, not above the rubric's top or out of another
    /// top, not a number run into letters (`0x3`) and not one of four digits or more (once read as 10).
    @Test(arguments: ["7 of 3", "1000 of 3", "0x3", "4", "2 of 5", "3/2", "12 of 33"])
    func aScoreOffTheScaleIsNotKept(score: String) throws {
        let rubric = try #require(ReviewRubric(parsing: PromptLibrary.builtIn.reviewRubricText))
        let review = LessonReview(reading: Self.row("Quality of Assessment", score), plan: Self.plan, rubric: rubric)
        let row = try #require(review.rows.first)
        #expect(row.score == nil && row.refusedScore != nil && row.scoreText == "not kept", "\(score): \(row)")
        #expect(row.marks.first?.hasPrefix("score “") == true)
        #expect(review.markNotice?.contains("Quality of Assessment") == true)
        #expect(ReviewText.render(review, source: nil, width: nil).contains("✗ score “"))
    }

    @Test(arguments: [("2 of 3", 2), ("3", 3), ("0 out of 3", 0), ("2/3 (strong)", 2), ("1 of 3.", 1)])
    func aScoreOnTheScaleIsKept(score: String, value: Int) throws {
        let rubric = try #require(ReviewRubric(parsing: PromptLibrary.builtIn.reviewRubricText))
        let row = try #require(LessonReview(reading: Self.row("Quality of Assessment", score), plan: Self.plan, rubric: rubric).rows.first)
        #expect(row.score == value && row.refusedScore == nil && row.marks.isEmpty, "\(score): \(row)")
    }

    @Test func withoutTheRubricAScoreAboveItsOwnTopIsStillNotKept() throws {
        let review = LessonReview(reading: Self.row("Anything", "7 of 3") + "\n\n" + Self.row("Other", "5 of 5"), plan: Self.plan)
        #expect(review.rows.map(\.scoreText) == ["not kept", "5 of 5"])
        #expect(review.rows.allSatisfy { $0.criterionIssue == nil })
    }

    @Test func anInventedOrRepeatedCriterionIsMarked() throws {
        let rubric = try #require(ReviewRubric(parsing: PromptLibrary.builtIn.reviewRubricText))
        let answer = [
            Self.row("Quality of Assessment", "2 of 3"), Self.row("Vibes and Energy", "3 of 3"), Self.row("quality of assessment", "3 of 3"),
        ].joined(separator: "\n\n")
        let review = LessonReview(reading: answer, plan: Self.plan, rubric: rubric)
        #expect(review.rows.map(\.criterionIssue) == [nil, .invented, .repeated])
        let shown = ReviewText.render(review, source: nil, width: 72)
        #expect(shown.contains("✗ not one of the criteria the review was asked to score"), "\(shown)")
        #expect(shown.contains("✗ this criterion is scored twice; the first one stands"), "\(shown)")
        #expect(review.summary.contains("2 criteria marked"), "\(review.summary)")
        // Read without the rubric (a transcript on its own), the repeat is still marked, the invention cannot be.
        #expect(LessonReview(reading: answer, plan: Self.plan).rows.map(\.criterionIssue) == [nil, nil, .repeated])
    }
}
