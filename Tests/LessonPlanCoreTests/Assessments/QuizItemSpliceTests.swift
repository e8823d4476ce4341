import CoreTestSupport
import Foundation
import Testing

@testable import LessonPlanCore

/// `/quiz item N`'s splice (issue #38): the answer's item goes in place of item N, renumbered as it, and every
/// other line of the quiz stays byte for byte.
@Suite struct QuizItemSpliceTests {
    @Test func eachItemIsReplacedAloneAndTheRestIsKeptByteForByte() throws {
        let quiz = AssessmentFixtures.quiz(items: 5)
        let old = QuizReader.read(quiz, kind: .exit)
        #expect(old.items.count == 5)
        for number in 1...5 {
            let answer =
                "Here it is:\n\n7. Which one is new?\nA) this\nB) that\nC) neither\nAnswer: A\nMisconception B: thinks that.\n"
                + "Feedback B: Look at the question once more.\nMisconception C: thinks neither.\nFeedback C: One of them is new; which?"
            let result = try QuizItemSplice(quiz: quiz, item: number).splice(answer)
            let new = QuizReader.read(result, kind: .exit)
            #expect(new.items.count == 5, "\(number)")
            for index in 0..<5 {
                if index == number - 1 {
                    #expect(new.items[index].stem == "Which one is new?")
                    // The student feedback comes in with its item, beside each misconception.
                    #expect(new.items[index].options.map(\.feedback) == ["", "Look at the question once more.", "One of them is new; which?"])
                    #expect(new.items[index].options.map(\.misconception) == ["", "thinks that.", "thinks neither."])
                } else {
                    #expect(new.items[index] == old.items[index], "item \(index + 1) after replacing \(number)")
                }
            }
            #expect(result.contains("\n\(number). Which one is new?\n") || result.hasPrefix("\(number). Which one is new?\n"))
            // The quiz's head (kind, misconceptions) is the old one's, byte for byte.
            let head = try #require(quiz.range(of: "1. ")).lowerBound
            #expect(result.hasPrefix(String(quiz[..<head])))
        }
    }

    @Test func aMissingItemAnEmptyAnswerOrNoChangeIsRefused() throws {
        let quiz = AssessmentFixtures.quiz(items: 3)
        #expect(throws: QuizItemSplice.Failure.noItem(4)) { try QuizItemSplice(quiz: quiz, item: 4).splice("1. Q?\nA) a\nB) b\nAnswer: A") }
        #expect(throws: QuizItemSplice.Failure.noAnswer(2)) { try QuizItemSplice(quiz: quiz, item: 2).splice("No item here.") }
        let lines = quiz.components(separatedBy: "\n")
        let second = try #require(lines.firstIndex { $0.hasPrefix("2. ") })
        let third = try #require(lines.firstIndex { $0.hasPrefix("3. ") })
        let same = lines[second..<third].joined(separator: "\n")
        #expect(throws: QuizItemSplice.Failure.unchanged(2)) { try QuizItemSplice(quiz: quiz, item: 2).splice(same) }
    }
}

/// `/rubric row N`'s splice: the teacher's row N and the student version's row N are replaced, nothing else.
@Suite struct RubricRowSpliceTests {
    static let rubric = """
        Rubric: Tide poster
        | Criterion | Beginning (1) | Proficient (2) |
        | --- | --- | --- |
        | Explains | vague | clear |
        | Uses words | few | many |

        Student version:
        | I can … | Beginning (1) | Proficient (2) |
        | --- | --- | --- |
        | I can explain | sometimes | always |
        | I can use the words | few | many |
        """

    @Test func rowTwoOfBothTablesIsReplacedAndTheRestKept() throws {
        let answer =
            "Here:\n| Criterion | Beginning (1) | Proficient (2) |\n| Uses vocabulary | names 1 word | names 5 words |\n| I can use the vocabulary | 1 word | 5 words |"
        let result = try RubricRowSplice(rubric: Self.rubric, row: 2).splice(answer)
        let old = Self.rubric.components(separatedBy: "\n")
        let new = result.components(separatedBy: "\n")
        #expect(new.count == old.count)
        let differing = zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing == [4, 10], "\(differing)")
        #expect(new[4] == "| Uses vocabulary | names 1 word | names 5 words |")
        #expect(new[10] == "| I can use the vocabulary | 1 word | 5 words |")
        let read = RubricReader.read(result)
        #expect(read.criteria.count == 2 && read.studentCriteria.count == 2)
    }

    @Test func aMissingRowOrAnAnswerWithNoRowIsRefused() {
        #expect(throws: SpliceRefusal.self) { try RubricRowSplice(rubric: Self.rubric, row: 3).splice("| A | b | c |") }
        #expect(throws: SpliceRefusal.self) { try RubricRowSplice(rubric: Self.rubric, row: 1).splice("No table here.") }
        #expect(throws: SpliceRefusal.self) {
            try RubricRowSplice(rubric: Self.rubric, row: 1).splice("| Explains | vague | clear |\n| I can explain | sometimes | always |")
        }
    }
}
