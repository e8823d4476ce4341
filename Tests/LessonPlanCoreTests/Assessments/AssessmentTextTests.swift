import Foundation
import LessonPlanCore
import Testing

@Suite struct AssessmentTextTests {
    @Test func aQuizForStudentsHasNoKeyAndTheTeachersHasIt() {
        let quiz = QuizReader.read(AssessmentCorpus.starter, kind: .starter)
        let student = AssessmentText.quiz(quiz, withKey: false)
        #expect(student.hasPrefix("1. What do all living things need?\n   A) Energy\n   B) Soil\n"))
        for hidden in ["Answer", "Misconception", "Soil is food", "Leaves drink", "Rain lands on leaves", "feedback"] {
            #expect(!student.contains(hidden))
        }
        let teacher = AssessmentText.quiz(quiz, withKey: true)
        #expect(teacher.hasPrefix("Starter quiz · 3 items · answer key\nMisconceptions it probes:\n- Plants take"))
        #expect(
            teacher.contains(
                "   Answer: C\n   A: Leaves drink the rain.\n      Student feedback: Rain lands on leaves, but think about where water is in the ground.\n"
            ))
        #expect(AssessmentText.answerKey(quiz) == ["1. A) Energy", "2. C) The roots", "3. B) Carbon dioxide"])
    }

    @Test(arguments: [120, 80, 60, 40])
    func aRubricTableFitsTheWidthAndKeepsEveryWord(width: Int) {
        let rubric = RubricReader.read(AssessmentCorpus.rubric)
        let table = AssessmentText.rubricTable(rubric, width: width)
        let lines = table.split(separator: "\n").map(String.init)
        for line in lines { #expect(TextWidth.columns(line) <= width, "\(line)") }
        // Every word of every cell is on the screen, in reading order within its cell.
        let words = Set(table.split { $0.isWhitespace || "│┌┬┐├┼┤└┴┘─╞╪╡═".contains($0) }.map(String.init))
        for criterion in rubric.criteria {
            for word in ([criterion.name] + criterion.cells).joined(separator: " ").split(separator: " ") {
                #expect(words.contains(String(word)), "\(word) missing at width \(width)")
            }
        }
        // Down to 80 columns a table (a four-level rubric needs 12 columns a level); below, a list.
        #expect(lines[0].hasPrefix("┌") == (width >= 80))
        if width >= 80 {
            // A table: every line the same width, the header above the rule.
            #expect(Set(lines.map(TextWidth.columns)).count == 1)
            #expect(lines[1].contains("Beginning (1)") || lines[1].contains("Beginning"))
        } else {
            #expect(lines[0] == "Inputs and outputs" && lines[1].hasPrefix("  Beginning (1): "))
        }
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(TextWidth.columns("光合作用") == 8)
        #expect(TextWidth.columns("e\u{301}") == 1)
        let rubric = Rubric(
            levels: [RubricLevel(name: "低", points: 1), RubricLevel(name: "高", points: 2)],
            criteria: [RubricCriterion(name: "光合作用の説明", cells: ["光と水と二酸化炭素を名前で言える", "すべてを説明できる"])])
        let table = AssessmentText.rubricTable(rubric, width: 50)
        for line in table.split(separator: "\n") {
            #expect(TextWidth.columns(String(line)) == TextWidth.columns(String(table.prefix { $0 != "\n" })))
        }
    }
}
