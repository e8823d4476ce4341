import Foundation
import LessonPlanCore

/// `lessonplan unit`, `/unit N`: the session is a unit; this is its overview as checked, written once the
/// overview turn that made it (`turn`) passed. Every lesson is then a plan turn with `lesson` set, so a
/// unit is one transcript and nothing outside it names its lessons.
package struct UnitRecord: Codable, Equatable, Sendable {
    package var at: Date
    /// The overview turn whose answer this is.
    package var turn: Int
    /// How many lessons the unit has.
    package var lessons: Int
    /// The inputs every lesson is written for (each lesson is `minutes` long).
    package var inputs: LessonInputs
    /// The framework the lessons are written in; nil is the default one.
    package var framework: String?
    package var goal: String
    /// The essential questions.
    package var questions: [String]
    /// One outline per lesson, lesson 1 first.
    package var outline: [UnitLessonOutline]

    package init(
        at: Date, turn: Int, inputs: LessonInputs, framework: String?, plan: UnitPlan
    ) {
        self.at = at
        self.turn = turn
        self.lessons = plan.lessons.count
        self.inputs = inputs
        self.framework = framework
        self.goal = plan.goal
        self.questions = plan.questions
        self.outline = plan.lessons
    }

    /// The overview as a value.
    package var plan: UnitPlan { UnitPlan(goal: goal, questions: questions, lessons: outline) }

    /// The objective the overview gives lesson `number` (1 for the first); nil for a number the unit has not.
    package func objective(ofLesson number: Int) -> String? {
        outline.indices.contains(number - 1) ? outline[number - 1].objective : nil
    }
}

/// `/lesson N`: lesson N of the unit became the current plan, so a resumed session reopens at it.
package struct LessonRecord: Codable, Equatable, Sendable {
    package var at: Date
    /// The lesson's number in the unit (1 is the first).
    package var number: Int

    package init(at: Date, number: Int) {
        self.at = at
        self.number = number
    }
}
