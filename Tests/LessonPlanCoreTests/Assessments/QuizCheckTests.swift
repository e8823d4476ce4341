import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

@Suite struct QuizCheckTests {
    @Test func aStarterQuizInTheAskedLayoutReadsAndPasses() throws {
        let quiz = QuizReader.read(AssessmentCorpus.starter, kind: .exit)
        #expect(quiz.kind == .starter)
        #expect(quiz.misconceptions == ["Plants take their food from the soil.", "Only animals need energy."])
        #expect(
            quiz.items.map(\.stem) == [
                "What do all living things need?", "Which part of a plant takes in water?", "What gas do animals breathe out?",
            ])
        #expect(quiz.items.map { $0.key?.text } == ["Energy", "The roots", "Carbon dioxide"])
        #expect(quiz.items[1].distractors.map(\.letter) == ["A", "B", "D"])
        #expect(quiz.items[1].distractors[0].misconception == "Leaves drink the rain.")
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .starter) == [])
        // The same quiz asked for as an exit quiz, or with more items, fails with sentences that say so.
        let asExit = QuizCheck.problems(quiz, expectedItems: 5, kind: .exit)
        #expect(asExit == [.itemCount(found: 3, expected: 5), .wrongKind(stated: .starter, expected: .exit)])
        #expect(asExit[0].description == "The quiz has 3 items, not 5; write exactly 5.")
    }

    /// A stem of punctuation alone asks nothing (and Moodle's Aiken import skips it): a problem, like no stem.
    @Test func aStemOfPunctuationAloneIsNoQuestion() {
        let text = AssessmentCorpus.starter.replacingOccurrences(of: "What gas do animals breathe out?", with: "?")
        let quiz = QuizReader.read(text, kind: .starter)
        #expect(quiz.items.count == 3)
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .starter) == [.emptyStem(item: 3)])
    }

    @Test func theUsualDriftStillReads() {
        let quiz = QuizReader.read(AssessmentCorpus.driftingExit, kind: .starter)
        #expect(quiz.kind == .exit)
        #expect(quiz.misconceptions == ["Plants get their mass from the soil."])
        #expect(quiz.items.count == 3)
        #expect(quiz.items[0].stem == "Where does most of a tree's mass come from?")
        #expect(quiz.items[0].key?.letter == "B")
        #expect(quiz.items[0].options.first?.misconception == "Plants eat soil.")
        #expect(quiz.items[1].stem == "What does a leaf make in sunlight?")
        #expect(quiz.items[1].key?.text == "Sugar")
        #expect(quiz.items[2].key?.text == "Oxygen")
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .exit) == [])
    }

    @Test func everyItemProblemIsNamedInItemOrder() {
        let quiz = QuizReader.read(AssessmentCorpus.broken, kind: .exit)
        let problems = QuizCheck.problems(quiz, expectedItems: 5, kind: .exit)
        #expect(
            problems == [
                .itemCount(found: 4, expected: 5),
                .allOrNone(item: 1, letter: "D"),
                .severalKeys(item: 2, letters: ["B", "C"]),
                .sameOption(item: 2, letters: ["B", "C"]),
                .noKey(item: 3),
                .keyNotAnOption(item: 4, letter: "E"),
            ])
        // Each problem is one sentence a repair prompt can carry.
        for problem in problems {
            #expect(problem.description.hasSuffix(".") && !problem.description.contains("\n"))
        }
        #expect(AssessmentPrompts.problemList(problems).split(separator: "\n").count == problems.count)
    }

    @Test(arguments: [
        // Too few wrong answers, and one with no misconception.
        ("1. Q?\nA) x\nB) y\nAnswer: A\nMisconception B: b\n", [QuizProblem.distractorCount(item: 1, count: 1)]),
        ("1. Q?\nA) x\nB) y\nC) z\nAnswer: A\nMisconception B: b\n", [.missingMisconception(item: 1, letter: "C")]),
        // Too many wrong answers.
        ("1. Q?\nA) x\nB) y\nC) z\nD) w\nE) v\nAnswer: A\nWhy B: b\nWhy C: c\nWhy D: d\nWhy E: e\n", [.distractorCount(item: 1, count: 4)]),
        // A key marked twice the same way is one key; marked in two ways, two.
        ("1. Q?\nA) x (correct)\nB) y\nC) z\nAnswer: A\nWhy B: b\nWhy C: c\n", []),
        ("1. Q?\nA) x *\nB) y\nC) z\nAnswer: B\nWhy B: b\nWhy C: c\n", [.severalKeys(item: 1, letters: ["A", "B"])]),
        // "None of the above" is refused however it is written.
        ("1. Q?\nA) x\nB) y\nC) None of the above.\nAnswer: A\nWhy B: b\n", [.allOrNone(item: 1, letter: "C")]),
        // An option left empty, and an item with no stem.
        (
            "1. Q?\nA) x\nB) y\nC) z\nAnswer: A\nWhy B: b\nWhy C: c\n\n2. ?\nA) x\nB) .\nC) z\nAnswer: A\nWhy B: b\nWhy C: c\n",
            [.emptyStem(item: 2), .emptyOption(item: 2, letter: "B")]
        ),
        ("Here are the items.\n", [.noItems]),
    ])
    func eachRuleOnItsOwn(text: String, expected: [QuizProblem]) {
        let quiz = QuizReader.read(text, kind: .exit)
        // Student feedback has its rules of its own (QuizFeedbackTests); these items are written without it.
        #expect(QuizCheck.problems(quiz, expectedItems: max(1, quiz.items.count), kind: .exit, feedbackAsked: false) == expected)
    }

    @Test func aStarterQuizMustNameTheMisconceptionsItProbes() {
        let text = AssessmentCorpus.starter.replacingOccurrences(
            of: "Misconceptions:\n- Plants take their food from the soil.\n- Only animals need energy.\n", with: "")
        let quiz = QuizReader.read(text, kind: .starter)
        #expect(quiz.misconceptions.isEmpty)
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .starter) == [.noMisconceptions])
        // An exit quiz needs no list.
        let exit = QuizReader.read(text.replacingOccurrences(of: "Quiz: starter", with: "Quiz: exit"), kind: .exit)
        #expect(QuizCheck.passes(exit, expectedItems: 3, kind: .exit))
    }

    @Test func thePromptsAskForTheLayoutTheReaderReads() throws {
        let library = PromptLibrary.builtIn
        var values = AssessmentPrompts.quizValues(kind: .starter, items: 7)
        values.merge(["grade": "3–5", "topic": "Plants", "minutes": "45", "plan": "the plan"]) { $1 }
        let text = try library.render("quiz", values: values)
        #expect(text.contains("Quiz: starter") && text.contains("exactly 7 multiple-choice items"))
        #expect(text.contains("never the new content this plan teaches"))
        #expect(!text.contains("{{"))
        let exit = try library.render("quiz", values: AssessmentPrompts.quizValues(kind: .exit, items: 5))
        #expect(exit.contains("only what this plan's learning objective says"))
        // The example layout in the prompt is itself read as one item with its key.
        let start = try #require(text.range(of: "Quiz: starter"))
        let example = QuizReader.read(String(text[start.lowerBound...]), kind: .starter)
        #expect(example.items.count == 1 && example.items[0].options.count == 4)
        try library.validate(templates: AssessmentPrompts.templates)
    }
}

/// A quiz is checked against its lesson: one about something else fails (issue #34).
@Suite struct QuizLessonTests {

    @Test func aFractionsQuizFailsOnAPhotosynthesisPlan() {
        let quiz = QuizReader.read(AssessmentFixtures.fractionsQuiz, kind: .exit)
        let photosynthesis = "Photosynthesis\n" + PlanFixtures.passing(minutes: 45, topic: "Photosynthesis")
        let problems = QuizCheck.problems(quiz, expectedItems: 3, kind: .exit, lesson: photosynthesis)
        #expect(problems == [.offLesson(items: [1, 2, 3])])
        #expect(problems.first?.description == "Items 1, 2 and 3 share no word with the lesson's topic and plan; ask about what this lesson teaches.")
        let fractions = "Fractions\n" + PlanFixtures.passing(minutes: 45, topic: "Equivalent fractions")
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .exit, lesson: fractions) == [])
    }
}
