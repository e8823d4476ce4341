import Foundation
import LessonPlanCore
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
        let alike = answer.replacingOccurrences(
            of: "Students will explain why two fractions are equivalent.", with: "Students will name unit fractions of shapes.")
        #expect(!UnitPlan(reading: try schema.render(json: alike)).problems(expected: 3).isEmpty)
        #expect(throws: StructuredPlanError.notJSON) { try schema.render(json: "Lesson 1: not JSON {") }
    }

    /// The offline model gave two lessons the same objective every time: under llama-server's schema each lesson's
    /// objective starts with its own step of `prompts/unit-progression.txt`, spread from the first to the last.
    @Test func eachLessonsObjectiveStartsWithItsOwnStepOfTheProgression() throws {
        let progression = PromptLibrary.builtIn.unitProgression
        #expect(progression.first == "identify" && progression.last == "create")
        #expect(UnitOverviewSchema.steps(lessons: 3, progression: progression) == ["identify", "apply", "create"])
        #expect(UnitOverviewSchema.steps(lessons: 2, progression: progression) == ["identify", "create"])
        #expect(UnitOverviewSchema.steps(lessons: progression.count, progression: progression) == progression)
        // Too short a list would repeat a step; a word that is not plain letters would be read as a pattern.
        #expect(UnitOverviewSchema.steps(lessons: 3, progression: ["name", "use"]).isEmpty)
        #expect(UnitOverviewSchema.steps(lessons: 2, progression: ["name", "use.*"]).isEmpty)
        // Every step is a verb the content check counts as observable.
        let verbs = CheckWords.builtIn
        for step in progression { #expect(verbs.counted.contains(ContentText.stem(step)), "\(step)") }

        let schema = UnitOverviewSchema(lessons: 3, steps: ["identify", "apply", "create"])
        let enforced = try JSONValue.parse(Data(schema.schema(lengthLimits: true).utf8))
        let lessons = try #require(enforced["properties"]?["lessons"])
        let patterns = (lessons["prefixItems"]?.arrayValue ?? []).map { $0["properties"]?["objective"]?["pattern"]?.stringValue }
        #expect(patterns == ["identify", "apply", "create"].map { "^Students will \($0) [^\"\\\\\\n]{10,180}$" })
        #expect(lessons["minItems"]?.intValue == 3 && lessons["maxItems"]?.intValue == 3)
        // Without length limits (OpenAI's strict mode) the schema stays one item schema for every lesson.
        let plain = try JSONValue.parse(Data(schema.schema(lengthLimits: false).utf8))
        #expect(plain["properties"]?["lessons"]?["prefixItems"] == nil)
        #expect(plain["properties"]?["lessons"]?["items"] != nil)
        #expect(schema.promptLine.contains("lesson 2's starts \"Students will apply\""))
        #expect(UnitOverviewSchema(lessons: 3).promptLine.isEmpty)

        // Objectives that differ only in their step are not alike to the overview's check.
        let overview = UnitPlan(
            goal: "Students place and compare fractions on a number line.", questions: ["What is a fraction?", "Why?"],
            lessons: ["identify", "apply", "create"].map {
                UnitLessonOutline(title: $0, objective: "Students will \($0) fractions on a number line.")
            })
        #expect(overview.problems(expected: 3).isEmpty, "\(overview.problems(expected: 3))")
    }
}
