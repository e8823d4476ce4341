import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

/// Each wrong answer carries feedback written to the student beside the teacher's misconception (issue #39): the
/// reader keeps them apart, the check asks for the feedback and refuses an answer given away, and a quiz made
/// before feedback was asked for still reads.
@Suite struct QuizFeedbackTests {
    /// One item in the asked layout: B is the key, A and C each with a misconception and feedback.
    static let item = """
        Quiz: exit
        1. Which fraction is bigger?
        A) 1/8
        B) 1/2
        C) 1/4
        Answer: B
        Misconception A: Thinks a bigger denominator means a bigger fraction.
        Feedback A: Cut two equal strips into eighths and halves; which pieces are bigger?
        Misconception C: Compares only the numerators.
        Feedback C: The tops are the same here, so compare the sizes of the pieces.
        """

    @Test func theReaderKeepsFeedbackApartFromTheMisconception() throws {
        let quiz = QuizReader.read(Self.item, kind: .exit)
        let options = try #require(quiz.items.first?.options)
        #expect(options.map(\.misconception) == ["Thinks a bigger denominator means a bigger fraction.", "", "Compares only the numerators."])
        #expect(
            options.map(\.feedback) == [
                "Cut two equal strips into eighths and halves; which pieces are bigger?", "",
                "The tops are the same here, so compare the sizes of the pieces.",
            ])
        #expect(QuizCheck.problems(quiz, expectedItems: 1, kind: .exit) == [])
        // In the usual drift too: bold, a bullet, lower case, `Student feedback`, `Feedback for (c) –`.
        let drift = QuizReader.read(AssessmentCorpus.driftingExit, kind: .exit)
        #expect(
            drift.items[0].options.map(\.feedback) == [
                "A tree in a pot takes very little soil away; where else could its mass come from?", "",
                "Water matters, but think about what the leaves take in from the air.",
            ])
        #expect(drift.items[0].options[0].misconception == "Plants eat soil.")
        #expect(drift.items[2].options.map(\.feedback).filter { !$0.isEmpty }.count == 2)
    }

    /// A quiz made before feedback was asked for reads as it did, and passes when feedback was not asked for.
    @Test func aQuizWithoutFeedbackLinesStillReadsAndPassesWhenNoneWasAsked() {
        let old = AssessmentFixtures.quiz(items: 3, feedback: false)
        let quiz = QuizReader.read(old, kind: .exit)
        #expect(quiz.items.count == 3)
        #expect(quiz.items.allSatisfy { $0.key != nil && $0.options.allSatisfy { $0.feedback.isEmpty } })
        #expect(quiz.items[0].distractors.allSatisfy { !$0.misconception.isEmpty })
        #expect(QuizCheck.problems(quiz, expectedItems: 3, kind: .exit, feedbackAsked: false) == [])
        // Asked for, each wrong answer without it is named by item and letter.
        let problems = QuizCheck.problems(quiz, expectedItems: 3, kind: .exit)
        #expect(
            problems == [
                .missingFeedback(item: 1, letter: "A"), .missingFeedback(item: 1, letter: "C"),
                .missingFeedback(item: 2, letter: "A"), .missingFeedback(item: 2, letter: "B"),
                .missingFeedback(item: 3, letter: "B"), .missingFeedback(item: 3, letter: "C"),
            ])
        #expect(
            problems[1].description
                == "Item 1's wrong answer C has no feedback for the student; add “Feedback C: …”, one or two sentences to a student who picks it that guide without giving the answer away."
        )
    }

    @Test func feedbackOnlyForSomeWrongAnswersNamesTheOthers() {
        let text = Self.item.replacingOccurrences(of: "\nFeedback C: The tops are the same here, so compare the sizes of the pieces.", with: "")
        #expect(QuizCheck.problems(QuizReader.read(text, kind: .exit), expectedItems: 1, kind: .exit) == [.missingFeedback(item: 1, letter: "C")])
    }

    @Test func feedbackThatCopiesTheMisconceptionIsTheTeachersNote() {
        let text = Self.item.replacingOccurrences(
            of: "Feedback A: Cut two equal strips into eighths and halves; which pieces are bigger?",
            with: "Feedback A: thinks a bigger denominator means a bigger fraction")
        let problems = QuizCheck.problems(QuizReader.read(text, kind: .exit), expectedItems: 1, kind: .exit)
        #expect(problems == [.feedbackIsNote(item: 1, letter: "A")])
        #expect(problems.first?.description.hasPrefix("Item 1's feedback for A repeats its misconception, which is the teacher's note;") == true)
    }

    /// A question that gives the answer letter away, and questions that only look like it.
    @Test(
        arguments: [
            ("Which fraction is bigger? (answer: B)", "B"),
            ("Which fraction is bigger? Hint: it's C", "C"),
            ("Which fraction is bigger (the correct answer is A)?", "A"),
            ("Which fraction is bigger? (C is correct)", "C"),
            ("Which fraction is bigger? Key: B", "B"),
            ("Which fraction is bigger? hint – pick option A.", "A"),
            // Innocent: a letter that is no answer, a word in capitals, the article, or a letter no option has.
            ("Which food has the most vitamin C?", nil),
            ("Point A is 3 cm from point B; which answer is right?", nil),
            ("Hint: it's a lot like the last question. Which is bigger?", nil),
            ("Which fraction is bigger? Write your answer: A bigger piece means a bigger fraction.", nil),
            ("Which fraction is bigger? (answer: F)", nil),
        ] as [(String, String?)])
    func aQuestionThatGivesTheAnswerAwayIsNamed(stem: String, letter: String?) {
        let text = Self.item.replacingOccurrences(of: "1. Which fraction is bigger?", with: "1. " + stem)
        let problems = QuizCheck.problems(QuizReader.read(text, kind: .exit), expectedItems: 1, kind: .exit)
        #expect(problems == (letter.map { [.answerInStem(item: 1, letter: $0)] } ?? []), "\(stem)")
    }

    /// Feedback that gives the key (B) away, and feedback that only looks like it.
    @Test(arguments: [
        ("The answer is B.", true),
        ("Try option B instead.", true),
        ("Look again: (B) is the one with the biggest pieces.", true),
        ("The correct answer is one half.", true),
        ("Answer: B, because halves are bigger.", true),
        // Innocent: the student's own letter, the article, a letter that is not the key.
        ("Your answer is A, but eighths are small pieces; compare the pieces.", false),
        ("A bigger denominator means smaller pieces; compare them again.", false),
        ("If you picked A, cut a strip into eighths and look at one piece.", false),
        ("Think about which pieces are bigger when you cut fewer of them.", false),
    ])
    func feedbackThatGivesTheAnswerAwayIsNamed(feedback: String, leaks: Bool) {
        let text = Self.item.replacingOccurrences(
            of: "Feedback A: Cut two equal strips into eighths and halves; which pieces are bigger?", with: "Feedback A: " + feedback)
        let problems = QuizCheck.problems(QuizReader.read(text, kind: .exit), expectedItems: 1, kind: .exit)
        #expect(problems == (leaks ? [.answerInFeedback(item: 1, letter: "A")] : []), "\(feedback)")
    }

    /// An option stored before feedback existed (no `feedback` key) still decodes, with none.
    @Test func anOptionStoredWithoutFeedbackStillDecodes() throws {
        let old =
            #"{"kind":"exit","misconceptions":[],"items":[{"stem":"Q?","answerLetters":["A"],"options":[{"letter":"A","text":"x","misconception":""},{"letter":"B","text":"y","misconception":"thinks y"}]}]}"#
        let quiz = try JSONDecoder().decode(Quiz.self, from: Data(old.utf8))
        #expect(quiz.items[0].options[1].misconception == "thinks y" && quiz.items[0].options[1].feedback == "")
        let new = QuizReader.read(Self.item, kind: .exit)
        #expect(try JSONDecoder().decode(Quiz.self, from: JSONEncoder().encode(new)) == new)
    }

    /// Every quiz prompt shows the `Feedback` line, so a quiz written from it is held to it; an old prompt is not.
    @Test func thePromptsAskForFeedbackAndSaySo() throws {
        let library = PromptLibrary.builtIn
        var values = AssessmentPrompts.quizValues(kind: .exit, items: 5)
        values.merge([
            "grade": "6–8", "topic": "Tides", "minutes": "45", "plan": "the plan", "draft": "1. Q?", "problems": "- x",
            "item_number": "2", "request": "easier",
        ]) { $1 }
        for template in ["quiz", "quiz-item", "quiz-repair"] {
            let text = try library.render(template, values: values)
            #expect(QuizReader.asksForFeedback(text), "\(template)")
            #expect(text.contains("without giving the answer"), "\(template)")
        }
        #expect(!QuizReader.asksForFeedback("Misconception A: what a student who picks A believes (one line for every wrong answer)"))
    }

    /// The teacher's copy shows both under each wrong answer; the students' copy shows neither.
    @Test func theTeachersCopyShowsBothAndTheStudentsNeither() {
        let quiz = QuizReader.read(Self.item, kind: .exit)
        let teacher = AssessmentText.quiz(quiz, withKey: true)
        #expect(
            teacher.contains(
                """
                   Answer: B
                   A: Thinks a bigger denominator means a bigger fraction.
                      Student feedback: Cut two equal strips into eighths and halves; which pieces are bigger?
                   C: Compares only the numerators.
                """))
        let student = AssessmentText.quiz(quiz, withKey: false)
        for hidden in ["Thinks a bigger", "Cut two equal strips", "Compares only", "The tops are the same", "feedback"] {
            #expect(!student.contains(hidden), "\(hidden)")
        }
    }
}
