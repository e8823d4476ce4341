import Foundation
import Testing

@testable import LessonPlanCore

/// Whether a quiz written for one plan still fits a later version, by code: each reason named.
@Suite struct AssessmentFitTests {
    static let old = """
        Learning Objective
        Students will be able to explain how the moon's gravity causes tides and predict high tide.

        Direct Instruction
        - Show the tide table and the moon's orbit; explain gravity and the bulge of water.
        """
    static let quiz = Quiz(
        kind: .exit,
        items: [
            QuizItem(
                stem: "What pulls the ocean into a bulge?",
                options: [QuizOption(letter: "A", text: "The moon's gravity"), QuizOption(letter: "B", text: "Wind")], answerLetters: ["A"]),
            QuizItem(
                stem: "What does a tide table show?",
                options: [QuizOption(letter: "A", text: "Times of high tide"), QuizOption(letter: "B", text: "Rain")], answerLetters: ["A"]),
        ])

    static func plan(_ number: Int, _ text: String, grade: GradeBand = .threeTo5, topic: String = "Tides") throws -> AssessmentFit.Plan {
        .init(number: number, text: text, inputs: try LessonInputs(grade: grade, topic: topic, minutes: 45))
    }

    @Test func aShorterPlanOfTheSameLessonFits() throws {
        let shorter = Self.old.replacingOccurrences(of: "the bulge of water", with: "the bulge")
        #expect(AssessmentFit.problems(writtenFor: try Self.plan(1, Self.old), now: try Self.plan(2, shorter), quiz: Self.quiz).isEmpty)
    }

    @Test func eachReasonItDoesNotFitIsNamed() throws {
        let other = """
            Learning Objective
            Students will be able to describe waves and wind.

            Direct Instruction
            - Show the moon's orbit and discuss gravity.
            """
        let problems = AssessmentFit.problems(
            writtenFor: try Self.plan(1, Self.old), now: try Self.plan(3, other, grade: .sixTo8, topic: "Waves"), quiz: Self.quiz)
        #expect(
            problems == [
                "the topic changed from “Tides” to “Waves”",
                "it was written for grades 3–5, and v3 is for grades 6–8",
                "the objective changed: v3 no longer has “causes”, “predict”, “tides”",
                "item 1 asks about “bulge”, which v3 no longer teaches",
                "item 2 asks about “table”, which v3 no longer teaches",
            ])
    }
}
