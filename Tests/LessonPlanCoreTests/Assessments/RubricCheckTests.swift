import Foundation
import LessonPlanCore
import Testing

@Suite struct RubricCheckTests {
    @Test func aRubricInTheAskedLayoutReadsAndPasses() {
        let rubric = RubricReader.read(AssessmentCorpus.rubric)
        #expect(rubric.task == "Labelled diagram of photosynthesis")
        #expect(rubric.levels == AssessmentPrompts.levelNames(4))
        #expect(rubric.criteria.map(\.name) == ["Inputs and outputs", "Role of light", "Labels"])
        #expect(rubric.criteria[2].cells.last == "All labels correct, with arrows showing flow.")
        #expect(rubric.studentCriteria.map(\.name).first == "I can name what goes in and out.")
        #expect(RubricCheck.problems(rubric, expectedLevels: 4) == [])
        #expect(RubricCheck.problems(rubric, expectedLevels: 5) == [.levelCount(found: 4, expected: 5)])
        #expect(rubric.forStudents.criteria == rubric.studentCriteria)
    }

    @Test func everyRubricProblemIsNamed() {
        let rubric = RubricReader.read(AssessmentCorpus.brokenRubric)
        let problems = RubricCheck.problems(rubric, expectedLevels: 4)
        #expect(
            problems == [
                .levelCount(found: 3, expected: 4),
                .levelWithoutPoints(level: "Developing"),
                .levelsNotOrdered(levels: ["Exemplary (4)", "Proficient (3)", "Developing"]),
                .emptyCell(criterion: "Accuracy", level: "Developing"),
                .duplicateCriterion(criterion: "Accuracy"),
                .emptyCell(criterion: "Presentation", level: "Developing"),
                .extraCells(criterion: "Spelling", count: 1),
            ])
        for problem in problems { #expect(problem.description.hasSuffix(".") && !problem.description.contains("\n")) }
    }

    @Test(arguments: [
        ("No table here, sorry.", [RubricProblem.noTable]),
        ("| Criterion | Low (1) | High (2) |\n| --- | --- | --- |\n", [.noCriteria]),
        ("| Criterion | 1 - Low | 2 - High |\n|---|---|---|\n| Ideas | Few. | Many. |\n", []),
        ("| Criterion | Low: 1 pt | High: 2 pts |\n|---|---|---|\n| Ideas | Few. | Many. |\n", []),
        ("| Criterion | Low (1) | Low (2) |\n|---|---|---|\n| Ideas | Few. | Many. |\n", [.duplicateLevel(level: "Low")]),
        (
            "| Criterion | Low (1) | High (2) |\n|---|---|---|\n| Ideas | Few. | Many. |\nStudent version:\n| I can | Low (1) | High (2) |\n|---|---|---|\n| I can share ideas. | | Many. |\n| Extra | a | b |\n",
            [.studentRowCount(found: 2, expected: 1), .emptyStudentCell(criterion: "I can share ideas.", level: "Low")]
        ),
    ])
    func eachRuleOnItsOwn(text: String, expected: [RubricProblem]) {
        #expect(RubricCheck.problems(RubricReader.read(text), expectedLevels: 2) == expected)
    }

    @Test func thePromptAsksForTheLevelsTheCheckWants() throws {
        var values = AssessmentPrompts.rubricValues(levels: 3)
        values.merge(["grade": "6–8", "topic": "Photosynthesis", "minutes": "45", "plan": "the plan"]) { $1 }
        let text = try PromptLibrary.builtIn.render("rubric", values: values)
        #expect(text.contains("| Criterion | Beginning (1) | Developing (2) | Proficient (3) |"))
        // The example table in the prompt reads as a 3-level rubric with ordered points.
        let example = RubricReader.read(text)
        #expect(example.levels == AssessmentPrompts.levelNames(3))
        #expect(!RubricCheck.problems(example, expectedLevels: 3).contains { if case .levelsNotOrdered = $0 { true } else { false } })
        let ubd = try PromptLibrary.builtIn.render("rubric", values: values, framework: "ubd")
        #expect(ubd.contains("performance task under Evidence"))
    }
}
