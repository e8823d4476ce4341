import Foundation
import LessonPlanKit
import Testing

/// A unit's overview under a schema (the offline model's way, as its plans are structured): the schema asks for
/// exactly the lessons wanted, and the JSON answer is written back into the layout the overview's reader checks.
@Suite struct UnitOverviewSchemaTests {
    @Test func theSchemaAsksForExactlyTheLessonsAndTheAnswerReadsAsAnOverview() throws {
        let schema = UnitOverviewSchema(lessons: 3)
        let json = try JSONValue.parse(Data(schema.schema(lengthLimits: true).utf8))
        let lessons = try #require(json["properties"]?["lessons"])
        #expect(lessons["minItems"]?.intValue == 3 && lessons["maxItems"]?.intValue == 3)
        #expect(try JSONValue.parse(Data(schema.schema(lengthLimits: false).utf8))["properties"]?["goal"]?["maxLength"] == nil)

        let answer = #"""
            {"goal": "Students compare and order fractions\non a number line.", "essential_questions": ["What does a fraction measure?", "How can two fractions be equal?"],
             "lessons": [{"title": "Parts of a whole", "objective": "Students will name unit fractions of shapes.", "builds_on": "halves and quarters"},
                         {"title": "Fractions on a line", "objective": "Students will place fractions on a number line.", "builds_on": "lesson 1"},
                         {"title": "Equal fractions", "objective": "Students will explain why two fractions are equivalent.", "builds_on": "lesson 2"}]}
            """#
        let text = try schema.render(json: answer)
        let plan = UnitPlan(reading: text)
        #expect(plan.problems(expected: 3).isEmpty, "\(plan.problems(expected: 3))\n\(text)")
        #expect(plan.goal == "Students compare and order fractions on a number line.")
        #expect(plan.lessons.map(\.title) == ["Parts of a whole", "Fractions on a line", "Equal fractions"])
        #expect(plan.lessons[2].buildsOn == "lesson 2")

        // Two lessons alike are written back as they came, for the check to name.
        let alike = answer.replacingOccurrences(of: "Students will explain why two fractions are equivalent.", with: "Students will name unit fractions of shapes.")
        #expect(!UnitPlan(reading: try schema.render(json: alike)).problems(expected: 3).isEmpty)
        #expect(throws: StructuredPlanError.notJSON) { try schema.render(json: "Lesson 1: not JSON {") }
    }
}
