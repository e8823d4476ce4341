import Foundation
import TestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanDocuments
@testable import LessonPlanKit

/// Every platform format written from a quiz whose text holds each format's special characters, then read back
/// by `Tests/Readers/lms_read.py`, a reader that shares no code with the writers.
@Suite(.serialized) struct LMSFormatsTests {
    /// Braces, equals, tilde, hash and colon (GIFT), markup and quotes (XML and HTML), a backslash, a tab, a line
    /// break, and answers that begin like a GIFT format tag or weight. Each wrong answer's student feedback holds
    /// them too; its misconception (the teacher's note, which no platform may carry) starts `Teacher note`.
    static let quiz = Quiz(
        kind: .exit, misconceptions: [],
        items: [
            QuizItem(
                stem: #"Which is right: {a} = ~b # c \ d <i>e</i> & "f" 'g'?"#,
                options: [
                    QuizOption(letter: "A", text: "x = {1} :: y"),
                    QuizOption(
                        letter: "B", text: "~tilde #hash :colon", misconception: "Teacher note 1B: mixes braces and sets",
                        feedback: #"Think: {braces} = sets & <tags> # "quotes" matter?"#),
                    QuizOption(
                        letter: "C", text: #"<script>alert("&amp;")</script>"#, misconception: "Teacher note 1C: reads escapes as text",
                        feedback: #"Read \n as a line: break ~ and \\ as one"#),
                ],
                answerLetters: ["A"]),
            QuizItem(
                stem: "Line one\nLine two\twith a tab, and  two spaces",
                options: [
                    QuizOption(
                        letter: "A", text: "[plain] looks like a format tag", misconception: "Teacher note 2A: tags",
                        feedback: "[tags] are not text; look again"),
                    QuizOption(letter: "B", text: "%50% sure"),
                    QuizOption(
                        letter: "C", text: "// not a comment", misconception: "Teacher note 2C: comments",
                        feedback: "Does // really hide a line?"),
                    QuizOption(
                        letter: "D", text: "-> an arrow = a match?", misconception: "Teacher note 2D: arrows",
                        feedback: "%Compare -> and => once more"),
                ],
                answerLetters: ["B"]),
            QuizItem(
                stem: "Plain question about tides?",
                options: [
                    QuizOption(letter: "A", text: "The Moon's pull", misconception: "Teacher note 3A: no feedback written"),
                    QuizOption(
                        letter: "B", text: "The wind", misconception: "Teacher note 3B: wind makes tides",
                        feedback: "Wind makes waves; what makes tides?"),
                    QuizOption(letter: "C", text: "The Sun alone"),
                ],
                answerLetters: ["C"]),
        ])

    static func lmsQuiz(_ quiz: Quiz = quiz) throws -> LMSQuiz {
        try LMSQuiz(quiz, topic: "Tides & <Moons>", identifier: "lptestq1")
    }

    /// The items a student should see: what the quiz says, with feedback only where the format carries it and
    /// line breaks as spaces where it keeps one line.
    static func expected(feedback: Bool = true, oneLine: Bool = false, tabs: Bool = false) -> [(
        stem: String, options: [String], key: Int, feedback: [String]
    )] {
        quiz.items.map { item in
            let key = item.options.firstIndex { item.answerLetters.contains($0.letter) } ?? -1
            func text(_ value: String) -> String {
                let line = oneLine ? value.replacingOccurrences(of: "\n", with: " ") : value
                return tabs ? line.replacingOccurrences(of: "\t", with: " ") : line
            }
            return (
                text(item.stem), item.options.map { text($0.text) }, key,
                item.options.enumerated().map { feedback && $0.offset != key ? $0.element.feedback : "" }
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

    @Test func giftReadsBackExactlyWithEachStudentFeedback() async throws {
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

    /// The student feedback is in every file whose format has feedback, where the format puts it; the teacher's
    /// misconception is in none, whatever the format (issue #39).
    @Test func theStudentFeedbackGoesInAndTheTeachersNoteNeverDoes() async throws {
        let quiz = try Self.lmsQuiz()
        let gift = GIFTQuiz.render(quiz)
        let moodle = MoodleXMLQuiz.render(quiz)
        let qti = QTIAssessment.render(quiz, profile: .canvas)
        #expect(gift.contains("\t~The wind #Wind makes waves; what makes tides?\n"), "\(gift)")
        #expect(gift.contains("\t~The Moon's pull\n"), "no feedback written, no # at all")
        #expect(
            moodle.contains("<text>The wind</text>\n      <feedback format=\"html\"><text>Wind makes waves; what makes tides?</text></feedback>"),
            "\(moodle)")
        #expect(
            qti.contains(
                "<itemfeedback ident=\"lptestq1_q3_2_fb\">\n          <flow_mat><material><mattext texttype=\"text/html\">Wind makes waves; what makes tides?</mattext>"
            ), "\(qti)")
        #expect(qti.contains("linkrefid=\"lptestq1_q3_2_fb\"") && !qti.contains("lptestq1_q3_1_fb"), "no feedback, no itemfeedback")
        var files = [
            ("gift", gift), ("moodle", moodle), ("qti", qti), ("blackboard", BlackboardQuiz.render(quiz)), ("aiken", try AikenQuiz.render(quiz)),
            ("kahoot", KahootSheet.flatODS(quiz)),
        ]
        for file in CommonCartridge.files([quiz], lesson: "Tides", pages: []) {
            files.append((file.path, String(decoding: file.data, as: UTF8.self)))
        }
        for (name, text) in files {
            #expect(!text.contains("Teacher note"), "\(name) carries the teacher's misconception")
        }
        // Read back by the independent reader: each wrong answer's feedback is its student feedback.
        let read = try await LMSReader.read("moodle", try Self.write(Data(moodle.utf8), "quiz.xml"))
        #expect(read.items[2].feedback == ["", "Wind makes waves; what makes tides?", ""])
        #expect(!read.items.flatMap(\.feedback).contains { $0.contains("Teacher note") })
    }

    @Test func aikenKeepsOneLineAndSaysWhatItLeavesOut() async throws {
        let quiz = try Self.lmsQuiz()
        let file = try await LMSReader.read("aiken", try Self.write(Data(try AikenQuiz.render(quiz).utf8), "quiz.txt"))
        Self.check(file, feedback: false, oneLine: true, format: "aiken")
        #expect(
            AikenQuiz.losses(quiz) == [
                "Aiken has no feedback for an answer: the student feedback on the wrong answers of items 1, 2 and 3 is left out.",
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
        #expect(
            KahootSheet.losses(quiz).last == "Kahoot keeps a question and each answer on one line: the line breaks and tabs in item 2 become spaces.")
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
                    == "Kahoot takes questions of at most 120 characters, answers of at most 75 and 2 to 4 answers, and this quiz has item 1 (5 answers), item 2's question (121 characters) and item 3's answer 1 (76 characters); nothing written, nothing cut. Shorten them (/quiz makes a new quiz) or export another format."
            )
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
            #expect(
                (error as? ExportError)?.message.hasPrefix("Items 1 and 3 have no question, fewer than two answers or not exactly one answer marked")
                    == true, "\(error)")
        }
    }

    /// Characters XML 1.0 has no place for, each in a question, an answer and a feedback, and a title of dashes.
    static let unwritable = ["\u{FFFF}", "\u{FFFE}", "\u{1}", "\u{B}", "\u{1F}"]

    static func unwritableQuiz() -> Quiz {
        var quiz = Self.quiz
        for (index, character) in unwritable.enumerated() {
            let item = index % quiz.items.count
            quiz.items[item].stem += " end\(character)"
            quiz.items[item].options[1].text += character + "x"
            quiz.items[item].options[1].feedback += character + " feedback"
        }
        return quiz
    }

    /// `text` without the characters XML has no place for, as a reader of the file gets it back.
    static func writable(_ text: String) -> String {
        unwritable.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
    }

    /// Whether Python's expat reads `xml` as a well-formed document; its sentence when it does not.
    static func wellFormed(_ xml: String) async throws -> String? {
        let result = try await Python.run(
            "import sys, xml.parsers.expat as e\np = e.ParserCreate()\ntry:\n p.Parse(sys.stdin.buffer.read(), True)\nexcept e.ExpatError as x:\n print(x)",
            input: Data(xml.utf8))
        return result.output.isEmpty ? nil : result.output
    }

    @Test func everyXMLFileLeavesOutWhatXMLCannotHoldAndStaysWellFormed() async throws {
        let quiz = try LMSQuiz(Self.unwritableQuiz(), topic: "Tides --- and ---- more -", identifier: "lptestq1")
        let page = CommonCartridge.Page(identifier: "plan", title: "Plan \u{FFFF}--- of tides\u{FFFE}", html: "<p>plan</p>", teacherOnly: true)
        var documents: [(String, String)] = [
            ("moodle", MoodleXMLQuiz.render(quiz)), ("qti", QTIAssessment.render(quiz, profile: .canvas)), ("kahoot", KahootSheet.flatODS(quiz)),
        ]
        for file in CommonCartridge.files([quiz], lesson: "Tides\u{FFFF} ---", pages: [page]) where file.path.hasSuffix(".xml") {
            documents.append((file.path, String(decoding: file.data, as: UTF8.self)))
        }
        for (name, xml) in documents {
            #expect(try await Self.wellFormed(xml) == nil, "\(name)")
            #expect(
                !xml.unicodeScalars.contains { $0.value == 0xFFFF || $0.value == 0xFFFE || ($0.value < 0x20 && $0 != "\n" && $0 != "\t") }, "\(name)")
        }
        // A comment holds no "--", however many dashes the topic had.
        let comment = try #require(MoodleXMLQuiz.render(quiz).split(separator: "\n").dropFirst().first)
        #expect(comment.hasPrefix("<!-- ") && comment.hasSuffix(" -->") && !comment.dropFirst(4).dropLast(3).contains("--"), "\(comment)")
        // Read back by the independent reader: what the quiz says, less the characters left out.
        let moodle = try await LMSReader.read("moodle", try Self.write(Data(MoodleXMLQuiz.render(quiz).utf8), "quiz.xml"))
        let source = Self.unwritableQuiz()
        #expect(moodle.items.map(\.stem) == source.items.map { Self.writable($0.stem) })
        #expect(moodle.items.map { $0.options[1] } == source.items.map { Self.writable($0.options[1].text) })
        #expect(
            moodle.items.map { $0.feedback[1] } == source.items.map { $0.answerLetters.contains("B") ? "" : Self.writable($0.options[1].feedback) })
        let qti = try await LMSReader.read("qti", try Self.write(try await CanvasQTIPackage.render(quiz, tools: LMSTools()), "quiz.zip"))
        #expect(qti.items.map(\.stem) == moodle.items.map(\.stem))
        let cartridge = try await CommonCartridge.render([quiz], lesson: "Tides\u{FFFF}", pages: [page], tools: LMSTools())
        #expect(try await LMSReader.read("imscc", try Self.write(cartridge, "lesson.imscc")).items.count == 3)
    }

    @Test func kahootTakesAQuizWithCharactersXMLCannotHold() async throws {
        guard LMSReader.hasLibreOffice else {
            Issue.record("LibreOffice is not installed; run scripts/setup (it installs libreoffice-calc-nogui).")
            return
        }
        let quiz = try LMSQuiz(Self.unwritableQuiz(), topic: "Tides\u{FFFF}", identifier: "lptestq1")
        let data = try await KahootSheet.render(quiz, tools: LMSTools())
        let file = try await LMSReader.read("kahoot", try Self.write(data, "quiz.xlsx"))
        #expect(file.items.map(\.stem) == Self.unwritableQuiz().items.map { KahootSheet.cell(Self.writable($0.stem)) })
    }

    @Test func aikenRefusesAQuestionWithNoLetterAndAnEmptyAnswer() throws {
        var quiz = Self.quiz
        quiz.items[0].stem = "?"
        quiz.items[2].options[1].text = "  "
        do {
            _ = try AikenQuiz.render(try Self.lmsQuiz(quiz))
            Issue.record("Aiken wrote a question Moodle skips")
        } catch {
            #expect(
                (error as? ExportError)?.message.hasPrefix(
                    "Aiken cannot carry items 1 and 3: a question with no letters or digits (“?”), or an empty answer,") == true, "\(error)")
        }
        // Digits or letters of any script are a question.
        quiz = Self.quiz
        quiz.items[0].stem = "2 + 2 = ?"
        quiz.items[1].stem = "¿Qué?"
        #expect(throws: Never.self) { try AikenQuiz.render(try Self.lmsQuiz(quiz)) }
    }

    @Test func aPlatformsFileNeedsTheEndingItsImportTakes() throws {
        func entry(_ name: String) throws -> ExportEntry { try #require(ExportTable.entry(.quiz, name)) }
        #expect(
            try entry("qti").misnamed("quiz2.qti")
                == "A QTI 1.2 zip needs a name ending in .zip, which is what Canvas imports; “quiz2.qti” would not be offered for upload, so nothing was written: name it quiz2.zip, or leave the name out."
        )
        #expect(try entry("kahoot").misnamed("~/out/quiz.kahoot")?.contains("name it quiz.xlsx") == true)
        #expect(try entry("moodle").misnamed("quiz")?.contains("name it quiz.xml") == true)
        #expect(ExportTable.entries(.quiz).map(\.name) == LMSFormat.allCases.map(\.rawValue))
        for format in ExportTable.entries(.quiz) {
            #expect(format.misnamed("x" + format.suffix) == nil, "\(format.name)")
            #expect(format.misnamed("X" + format.suffix.uppercased()) == nil, "\(format.name)")
        }
        #expect(try entry("imscc").misnamed("unit.zip") == nil && entry("gift").misnamed("q.txt") == nil)
        // A document for people takes any name.
        #expect(ExportTable.entries(.plan).allSatisfy { $0.misnamed("plan.txt") == nil })
    }

    /// The zip and LibreOffice run in a folder only the owner can open, on files only the owner can read: a
    /// `zip` and an `soffice` on PATH that note their folder's and files' modes, then run the real ones.
    @Test func theToolsRunInAFolderOnlyTheOwnerCanRead() async throws {
        let bin = FileManager.default.temporaryDirectory.appending(path: "lms-tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let log = bin.appending(path: "modes.log")
        // zip runs in the scratch folder's content folder (both checked), LibreOffice in the scratch folder.
        for (name, real, folders) in [("zip", "/usr/bin/zip", ".. ."), ("soffice", "/usr/bin/soffice", ".")] {
            let script = bin.appending(path: name)
            try Data(
                """
                #!/bin/sh
                { stat -c '%a %n' \(folders) ; find . -type f -name '*.xml' -exec stat -c '%a %n' {} + ; find . -maxdepth 1 -name '*.fods' -exec stat -c '%a %n' {} + ; } >> '\(log.path)'
                exec \(real) "$@"

                """.utf8
            ).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        }
        let tools = LMSTools(environment: ["PATH": bin.path + ":/usr/bin:/bin"])
        _ = try await CanvasQTIPackage.render(try Self.lmsQuiz(), tools: tools)
        if LMSReader.hasLibreOffice { _ = try await KahootSheet.render(try Self.lmsQuiz(), tools: tools) }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 4, "\(lines)")
        for line in lines {
            let mode = line.prefix { $0 != " " }
            if line.hasSuffix(" ..") || line.hasSuffix(" .") {
                #expect(mode == "700", "\(line)")
            } else {
                #expect(mode == "600", "\(line)")
            }
        }
        #expect(lines.contains { $0.hasSuffix("quiz.fods") } == LMSReader.hasLibreOffice, "\(lines)")
    }
}
