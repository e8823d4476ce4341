import Foundation
import Testing

@testable import LessonPlanCore

/// Parallel forms: the same items and answers in another order, made again the same from the seed.
@Suite struct QuizFormsTests {
    static let quiz = Quiz(
        kind: .exit,
        items: (1...5).map { number in
            QuizItem(
                stem: "Question \(number)?",
                options: ["A", "B", "C", "D"].map {
                    QuizOption(letter: $0, text: "answer \($0) of \(number)", misconception: $0 == "B" ? "" : "idea \($0)")
                },
                answerLetters: ["B"])
        })

    @Test func formsKeepEveryItemAndEveryKeyAndComeAgainFromTheSeed() {
        let forms = QuizForms.make(Self.quiz, count: 3, seed: 42)
        #expect(forms.map(\.form) == ["A", "B", "C"])
        #expect(forms[0].items == Self.quiz.items, "form A is the quiz as written")
        #expect(forms[1].items != Self.quiz.items && forms[2].items != forms[1].items)
        #expect(QuizForms.problems(forms, of: Self.quiz).isEmpty)
        for form in forms {
            for item in form.items {
                let number = item.stem.filter(\.isNumber)
                #expect(item.key?.text == "answer B of \(number)", "the key moves with its text")
                #expect(item.options.map(\.letter) == ["A", "B", "C", "D"], "relettered in order")
                #expect(item.distractors.allSatisfy { !$0.misconception.isEmpty }, "each wrong answer keeps its misconception")
            }
        }
        #expect(QuizForms.make(Self.quiz, count: 3, seed: 42) == forms, "the same seed makes the same forms")
        #expect(forms[1].title == "Exit quiz, form B" && forms[1].keyTitle == "Answer key: exit quiz, form B")
    }

    @Test func aNoteThatNamesALetterNamesTheLetterOnItsForm() {
        let item = QuizItem(
            stem: "Which?",
            options: [
                QuizOption(letter: "A", text: "one", misconception: "A student who picks A thinks one."),
                QuizOption(letter: "B", text: "two"),
                QuizOption(
                    letter: "C", text: "three", misconception: "picks (C): thinks three", feedback: "Option C adds; answer A bigger piece? no."),
            ], answerLetters: ["B"])
        let quiz = Quiz(kind: .exit, items: [item])
        for seed in UInt64(1)...20 {
            let form = QuizForms.make(quiz, count: 2, seed: seed)[1].items[0]
            for option in form.options where option.text != "two" {
                #expect(option.misconception.contains("picks \(option.text == "one" ? "" : "(")\(option.letter)"), "\(option)")
            }
            let three = try! #require(form.options.first { $0.text == "three" })
            #expect(
                three.feedback.hasPrefix("Option \(three.letter) adds") && three.feedback.contains("answer A bigger"), "the article A is left alone")
        }
    }

    @Test func aFormWhoseKeyMovedAwayFromItsTextIsNamed() {
        var forms = QuizForms.make(Self.quiz, count: 2, seed: 7)
        forms[1].items[0].answerLetters = [forms[1].items[0].options.first { $0.text.hasPrefix("answer A") }?.letter ?? "A"]
        #expect(QuizForms.problems(forms, of: Self.quiz).first?.hasPrefix("Form B, item 1: its key is not the quiz's answer") == true)
    }
}
