import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

/// The overview reader and its check by code: the layout asked for, the ways models stray from it, and each
/// problem the check names.
@Suite struct UnitPlanTests {
    static let overview = UnitFixtures.overview

    @Test func theLayoutAskedForReadsWhole() {
        let plan = UnitPlan(reading: Self.overview)
        #expect(plan.goal == "Students compare and order fractions with unlike denominators.")
        #expect(plan.questions.count == 2)
        #expect(plan.lessons.map(\.title) == ["Unit fractions", "Equivalent fractions", "Comparing fractions"])
        #expect(plan.lessons[1].objective == "Students will generate equivalent fractions with area models.")
        #expect(plan.lessons[2].buildsOn == "Lessons 1 and 2")
        #expect(plan.problems(expected: 3).isEmpty)
        // What the prompts carry reads back as the same overview.
        #expect(UnitPlan(reading: plan.text) == plan)
    }

    @Test func markdownAndOtherSeparatorsStillRead() {
        let text = """
            **Goal:** Fractions as numbers.
            ## Essential Questions
            1. What is a fraction?
            * Why compare?
            ### Lesson 1 — Halves
            **Objective** – Students will split shapes in halves.
            Lesson 2. Quarters
            Objective: Students will split shapes in quarters.
            """
        let plan = UnitPlan(reading: text)
        #expect(plan.goal == "Fractions as numbers.")
        #expect(plan.questions == ["What is a fraction?", "Why compare?"])
        #expect(plan.lessons.map(\.title) == ["Halves", "Quarters"])
        #expect(plan.lessons[0].objective == "Students will split shapes in halves.")
        #expect(plan.problems(expected: 2).isEmpty)
    }

    @Test func theCheckNamesEachProblem() {
        #expect(UnitPlan(reading: Self.overview).problems(expected: 4) == ["It has 3 lessons; it must have exactly 4, numbered 1 to 4."])
        let missing = Self.overview.replacingOccurrences(of: "Objective: Students will generate equivalent fractions with area models.\n", with: "")
            .replacingOccurrences(of: "Lesson 3: Comparing fractions", with: "Lesson 3:")
        #expect(
            UnitPlan(reading: missing).problems(expected: 3) == [
                "Lesson 2 has no “Objective:” line.", "Lesson 3 has no title after “Lesson 3:”.",
            ])
        let skipped = Self.overview.replacingOccurrences(of: "Lesson 3:", with: "Lesson 4:")
        #expect(
            UnitPlan(reading: skipped).problems(expected: 3) == ["The lessons are not numbered 1 to 3 in order; number them Lesson 1 to Lesson 3."])
    }

    /// Objectives alike after normalising: case, punctuation, plural endings and the "Students will (be able to)"
    /// every objective starts with do not make two objectives different.
    @Test func objectivesAlikeAfterNormalisingAreFound() {
        let alike = Self.overview.replacingOccurrences(
            of: "Objective: Students will compare two fractions using benchmarks and common denominators.",
            with: "Objective: Students will be able to NAME and draw unit fraction of a whole!")
        #expect(
            UnitPlan(reading: alike).problems(expected: 3) == [
                "Lessons 1 and 3 have the same objective; give each lesson an objective of its own."
            ])
        #expect(UnitPlan(reading: "no overview here").problems(expected: 2) == ["It has 0 lessons; it must have exactly 2, numbered 1 to 2."])
    }
}
