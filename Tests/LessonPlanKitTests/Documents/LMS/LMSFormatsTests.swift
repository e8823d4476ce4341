import Foundation
@testable import LessonPlanKit
@testable import LessonPlanCore
@testable import LessonPlanDocuments
import Testing
import TestSupport

/// Every platform format written from a quiz whose text holds each format's special characters, then read back
/// by `Tests/Readers/lms_read.py`, a reader that shares no code with the writers.
@Suite(.serialized) struct LMSFormatsTests {
    /// Braces, equals, tilde, hash and colon (GIFT), markup and quotes (XML and HTML), a backslash, a tab, a line
    /// break, and answers that begin like a GIFT format tag or weight.
    static let quiz = Quiz(
        kind: .exit, misconceptions: [],
        items: [
            QuizItem(
                stem: #"Which is right: {a} = ~b # c \ d <i>e</i> & "f" 'g'?"#,
                options: [
                    QuizOption(letter: "A", text: "x = {1} :: y"),
                    QuizOption(letter: "B", text: "~tilde #hash :colon", misconception: #"Thinks {braces} = sets & <tags> # "quotes" matter"#),
                    QuizOption(letter: "C", text: #"<script>alert("&amp;")</script>"#, misconception: #"Reads \n as a line: break ~ and \\ as one"#),
                ],
                answerLetters: ["A"]),
            QuizItem(
                stem: "Line one\nLine two\twith a tab, and  two spaces",
                options: [
                    QuizOption(letter: "A", text: "[plain] looks like a format tag", misconception: "Believes [tags] are text"),
                    QuizOption(letter: "B", text: "%50% sure"),
                    QuizOption(letter: "C", text: "// not a comment", misconception: "Thinks // hides a line"),
                    QuizOption(letter: "D", text: "-> an arrow = a match?", misconception: "Mixes up -> and =>"),
                ],
                answerLetters: ["B"]),
            QuizItem(
                stem: "Plain question about tides?",
                options: [
                    QuizOption(letter: "A", text: "The Moon's pull", misconception: ""),
                    QuizOption(letter: "B", text: "The wind", misconception: "Wind makes tides"),
                    QuizOption(letter: "C", text: "The Sun alone"),
                ],
                answerLetters: ["C"]),
        ])

    static func lmsQuiz(_ quiz: Quiz = quiz) throws -> LMSQuiz {
        try LMSQuiz(quiz, topic: "Tides & <Moons>", identifier: "lptestq1")
    }

    /// The items a student should see: what the quiz says, with feedback only where the format carries it and
    /// line breaks as spaces where it keeps one line.
    static func expected(feedback: Bool = true, oneLine: Bool = false, tabs: Bool = false) -> [(stem: String, options: [String], key: Int, feedback: [String])] {
        quiz.items.map { item in
            let key = item.options.firstIndex { item.answerLetters.contains($0.letter) } ?? -1
            func text(_ value: String) -> String {
                let line = oneLine ? value.replacingOccurrences(of: "\n", with: " ") : value
                return tabs ? line.replacingOccurrences(of: "\t", with: " ") : line
            }
            return (
                text(item.stem), item.options.map { text($0.text) }, key,
                item.options.enumerated().map { feedback && $0.offset != key ? $0.element.misconception : "" }
            )
        }
    }

    static func check(_ file: LMSReader.File, feedback: Bool = true, oneLine: Bool = false, tabs: Bool = false, format: String) {
        let want = expected(feedback: feedback, oneLine: oneLine, tabs: tabs)
        #expect(file.items.count == want.count, "\(format)")
        for (got, expected) in zip(file.items, want) {
            #expect(got.stem == expected.stem, "\(format)")
            #expect(got.options == expected.options, "\(format)")
            #expect(got.key == expected.key, "\(format)")
            #expect(got.feedback == expected.feedback, "\(format)")
        }
    }

    static func write(_ data: Data, _ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appending(path: name)
        try data.write(to: url)
        return url
    }

    @Test func giftReadsBackExactlyWithEachMisconceptionAsFeedback() async throws {
        let text = GIFTQuiz.render(try Self.lmsQuiz())
        #expect(text.contains(##"::Exit quiz 1::[plain]Which is right\: \{a\} \= \~b \# c \\ d <i>e</i>"##))
        let file = try await LMSReader.read("gift", try Self.write(Data(text.utf8), "quiz.gift"))
        Self.check(file, format: "gift")
        #expect(file.items.map(\.title) == ["Exit quiz 1", "Exit quiz 2", "Exit quiz 3"])
    }

    @Test func moodleXMLReadsBackExactly() async throws {
        let file = try await LMSReader.read("moodle", try Self.write(Data(MoodleXMLQuiz.render(try Self.lmsQuiz()).utf8), "quiz.xml"))
        Self.check(file, format: "moodle")
    }

    @Test func aikenKeepsOneLineAndSaysWhatItLeavesOut() async throws {
        let quiz = try Self.lmsQuiz()
        let file = try await LMSReader.read("aiken", try Self.write(Data(try AikenQuiz.render(quiz).utf8), "quiz.txt"))
        Self.check(file, feedback: false, oneLine: true, format: "aiken")
        #expect(
            AikenQuiz.losses(quiz) == [
                "Aiken has no feedback for an answer: the misconceptions behind the wrong answers of items 1, 2 and 3 are left out.",
                "Aiken keeps a question and each answer on one line: the line breaks in item 2 become spaces.",
            ])
    }

    @Test func aikenRefusesALineItWouldMisread() throws {
        var quiz = Self.quiz
        quiz.items[2].options[1].text = "B. looks like an answer letter"
        quiz.items[0].stem = "ANSWER: is this the key line?"
        #expect(throws: ExportError.self) { try AikenQuiz.render(try Self.lmsQuiz(quiz)) }
        do {
            _ = try AikenQuiz.render(try Self.lmsQuiz(quiz))
        } catch {
            #expect((error as? ExportError)?.message.hasPrefix("Aiken would misread items 1 and 3:") == true, "\(error)")
        }
    }

    @Test func blackboardKeepsATabInsideItsField() async throws {
        let quiz = try Self.lmsQuiz()
        let text = BlackboardQuiz.render(quiz)
        #expect(text.split(separator: "\n").count == 3)
        let file = try await LMSReader.read("blackboard", try Self.write(Data(text.utf8), "quiz.txt"))
        Self.check(file, feedback: false, format: "blackboard")
        #expect(BlackboardQuiz.losses(quiz).first?.contains("items 1, 2 and 3") == true)
    }

    @Test func canvasQTIZipHasItsManifestAtTheRootAndOneAssessment() async throws {
        let data = try await CanvasQTIPackage.render(try Self.lmsQuiz(), tools: LMSTools())
        let file = try await LMSReader.read("qti", try Self.write(data, "quiz.zip"))
        Self.check(file, format: "qti")
        #expect(file.extra.files == ["imsmanifest.xml", "lptestq1/lptestq1.xml"])
        #expect(file.extra.title == "Exit quiz: Tides & <Moons>")
        #expect(file.items.first?.title == "Exit quiz 1")
    }

    @Test func kahootSpreadsheetOpensInLibreOfficeWithTheRightAnswerNumbers() async throws {
        guard LMSReader.hasLibreOffice else {
            Issue.record("LibreOffice is not installed; run scripts/setup (it installs libreoffice-calc-nogui).")
            return
        }
        let quiz = try Self.lmsQuiz()
        let data = try await KahootSheet.render(quiz, tools: LMSTools())
        let file = try await LMSReader.read("kahoot", try Self.write(data, "quiz.xlsx"))
        Self.check(file, feedback: false, oneLine: true, tabs: true, format: "kahoot")
        #expect(file.items.map(\.key) == [0, 1, 2])
        #expect(file.items.map(\.time) == [30, 30, 30])
        #expect(KahootSheet.losses(quiz).last == "Kahoot keeps a question and each answer on one line: the line breaks and tabs in item 2 become spaces.")
    }

    @Test func kahootRefusesTextOverItsLimitsAndCutsNothing() async throws {
        var quiz = Self.quiz
        quiz.items[1].stem = String(repeating: "q", count: 121)
        quiz.items[2].options[0].text = String(repeating: "a", count: 76)
        quiz.items[0].options += [QuizOption(letter: "D", text: "four"), QuizOption(letter: "E", text: "five")]
        do {
            _ = try await KahootSheet.render(try Self.lmsQuiz(quiz), tools: LMSTools())
            Issue.record("a quiz over Kahoot's limits was written")
        } catch {
            #expect(
                (error as? ExportError)?.message
                    == "Kahoot takes questions of at most 120 characters, answers of at most 75 and 2 to 4 answers, and this quiz has item 1 (5 answers), item 2's question (121 characters) and item 3's answer 1 (76 characters); nothing written, nothing cut. Shorten them (/quiz makes a new quiz) or export another format.")
        }
        quiz.items[1].stem = String(repeating: "q", count: 120)
        quiz.items[2].options[0].text = String(repeating: "a", count: 75)
        quiz.items[0].options.removeLast(2)
        #expect(KahootSheet.overLimits(try Self.lmsQuiz(quiz)).isEmpty)
    }

    @Test func anItemAPlatformCannotScoreStopsTheExport() {
        var quiz = Self.quiz
        quiz.items[0].answerLetters = ["A", "B"]
        quiz.items[2].answerLetters = []
        #expect(throws: ExportError.self) { try Self.lmsQuiz(quiz) }
        do { _ = try Self.lmsQuiz(quiz) } catch {
            #expect((error as? ExportError)?.message.hasPrefix("Items 1 and 3 have no question, fewer than two answers or not exactly one answer marked") == true, "\(error)")
        }
    }
}
