import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanStore
import TestSupport
import Testing

/// The docx, odt and pptx exports made by the real pandoc, opened as packages and printed by LibreOffice
/// headless: what is asserted is what a teacher's word processor shows. `scripts/render-docs` runs this suite
/// with `LESSONPLAN_DOCS_DIR` set to keep the first page of each as a PNG.
@Suite(.serialized) struct EditableDocumentTests {
    static let quiz = """
        Quiz: exit
        Misconceptions:
        - Heavy things always sink.

        1. Why does a steel ship float?
        A) Steel is lighter than water
        B) Its shape pushes aside a lot of water
        C) Ships are hollow so they weigh nothing
        Answer: B
        Misconception A: Materials float or sink whatever their shape.
        Feedback A: A lump of steel sinks; think about what the ship's shape does to the water.
        Misconception C: Air has no weight, so hollow things weigh nothing.
        Feedback C: A hollow ship still weighs a lot; what holds it up?

        2. Which will float?
        A) A grape
        B) A cork
        C) A coin
        Answer: B
        Misconception A: Small things always float.
        Feedback A: A grape is small but sinks; size is not what decides.
        Misconception C: Flat things always float.
        Feedback C: Shape matters, but a coin is heavy for its size.
        """

    static let rubric = """
        Rubric: Float or sink investigation
        | Criterion | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |
        | --- | --- | --- | --- | --- |
        | Predictions | No prediction. | A guess. | A prediction with a reason. | A prediction tied to density. |
        | Records | Few results. | Some results. | Every result. | Every result in a clear table. |

        Student version:
        | I can … | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |
        | --- | --- | --- | --- | --- |
        | I can predict. | I did not. | I guessed. | I gave a reason. | I used density. |
        | I can record. | A few. | Some. | All of them. | All, in a table. |
        """

    /// The printed-PDF plan of the default framework, with its exit ticket written `10. 11. 12.`, a quiz and a rubric.
    static func document(kind: TurnKind = .plan) throws -> (ExportDocument, PlanDocument) {
        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        var (document, plan) = PrintedPDFTests.export(PrintedPDFTests.plan(for: framework, minutes: 45), framework: framework)
        document.quiz = QuizReader.read(quiz, kind: .exit)
        document.rubric = RubricReader.read(rubric)
        document.kind = kind
        return (document, plan)
    }

    static func written(_ format: DocumentFormat, kind: TurnKind = .plan) async throws -> URL {
        let (document, plan) = try document(kind: kind)
        let data = try await DocumentExport.render(
            document, plan: plan, format: format, pandoc: Pandoc.find(),
            reference: PromptLibrary.builtIn.referenceDocument(for: format.rawValue))
        let folder = FileManager.default.temporaryDirectory.appending(path: "lessonplan-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "plan.\(format.rawValue)")
        try data.write(to: file)
        return file
    }

    /// Whether `wanted` appear in `texts` in this order (not necessarily next to each other).
    static func inOrder(_ wanted: [String], in texts: [String]) -> Bool {
        var position = texts.startIndex
        for item in wanted {
            guard let found = texts[position...].firstIndex(where: { $0.contains(item) }) else { return false }
            position = found + 1
        }
        return true
    }

    /// The PDF page (from pdftotext's form feeds) that holds `text`, trimmed.
    static func page(holding text: String, in pdfText: String) -> String? {
        pdfText.split(separator: "\u{0C}").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first { $0.contains(text) }
    }

    @Test(arguments: [DocumentFormat.docx, .odt])
    func aTeachersDocumentHasRealHeadingsRestartingListsAndTheKeyOnItsOwnPage(format: DocumentFormat) async throws {
        let file = try await Self.written(format)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let parts = try await OfficeDocument.parts(of: file)
        #expect(parts.contains(format == .docx ? "word/document.xml" : "content.xml"), "\(parts)")
        let paragraphs = try await OfficeDocument.paragraphs(of: file)
        let heading1 = format == .docx ? "Heading1" : "1"
        let headings = paragraphs.filter { $0.style == heading1 }.map(\.text)
        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        // Every section is a real Heading 1, in the plan's order, after the pacing; then quiz, rubric, key.
        let expected =
            ["Pacing"] + framework.headings.map(plainHeading)
            + ["Exit quiz", "Rubric: Float or sink investigation", "Answer key: exit quiz"]
        #expect(headings.count == expected.count, "\(headings)")
        for (heading, wanted) in zip(headings, expected) { #expect(heading.hasPrefix(wanted), "\(headings)") }
        let texts = paragraphs.map(\.text)
        #expect(
            Self.inOrder(
                [
                    "Predict: will a grape float?", "Explain why a steel ship floats.", "Draw an object that sinks.",
                    "Why does a steel ship float?", "Its shape pushes aside", "Predictions", "A prediction tied to density.",
                    "B) Its shape pushes aside a lot of water", "Materials float or sink whatever their shape.",
                ], in: texts), "\(texts)")

        let pdf = try await OfficeDocument.pdf(of: file)
        let text = try await PrintedPage.text(of: pdf)
        #expect(PrintedPDFTests.numbered(1, "Predict: will a grape float?", in: text), "\(text)")
        #expect(PrintedPDFTests.numbered(2, "Explain why a steel ship floats.", in: text))
        #expect(PrintedPDFTests.numbered(3, "Draw an object that sinks.", in: text))
        #expect(!PrintedPDFTests.numbered(10, "Predict", in: text) && !PrintedPDFTests.numbered(12, "Draw", in: text))
        // The CFU questions and the quiz items are lists of their own, each from 1.
        #expect(PrintedPDFTests.numbered(1, "Which objects floated?", in: text))
        #expect(PrintedPDFTests.numbered(1, "Why does a steel ship float?", in: text))
        #expect(PrintedPDFTests.numbered(2, "Which will float?", in: text))
        #expect(text.contains("A) Steel is lighter than water") || text.contains("A)  Steel is lighter than water"))
        #expect(text.contains("Lesson ends"))
        // The answer key opens a page of its own; the student-facing quiz before it carries no answer.
        let keyPage = try #require(Self.page(holding: "Answer key", in: text))
        #expect(keyPage.hasPrefix("Answer key: exit quiz"), "\(keyPage.prefix(200))")
        let beforeKey = try #require(text.components(separatedBy: "Answer key").first)
        #expect(!beforeKey.contains("Materials float or sink whatever"))
        // The key shows each wrong answer's student feedback under its misconception; the quiz before it, neither.
        #expect(texts.contains { $0.contains("Student feedback: A lump of steel sinks") }, "\(texts)")
        #expect(keyPage.contains("Student feedback") && !beforeKey.contains("Student feedback"), "\(keyPage.prefix(600))")
        try await PrintedPDFTests.keep(pdf, as: "document-\(format.rawValue)")
    }

    @Test func handoutsCarryTheQuizWithoutItsKeyAndTheStudentsRubric() async throws {
        let file = try await Self.written(.docx, kind: .materials)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let texts = try await OfficeDocument.paragraphs(of: file).map(\.text)
        #expect(texts.contains { $0.hasPrefix("Name: ___") })
        #expect(Self.inOrder(["Why does a steel ship float?", "I can predict.", "I used density."], in: texts), "\(texts)")
        for hidden in [
            "Answer key", "Misconception", "Materials float or sink", "A prediction tied to density.", "Pacing", "Student feedback",
            "A lump of steel",
        ] {
            #expect(!texts.contains { $0.contains(hidden) }, "the handout shows \(hidden)")
        }
        let text = try await PrintedPage.text(of: try await OfficeDocument.pdf(of: file))
        #expect(PrintedPDFTests.numbered(1, "Predict: will a grape float?", in: text))
    }

    @Test func slidesHaveOneSlidePerSectionAndQuizItemWithTheTeachersLinesInTheNotes() async throws {
        let file = try await Self.written(.pptx)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let parts = try await OfficeDocument.parts(of: file)
        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        let slides = parts.filter { $0.hasPrefix("ppt/slides/slide") && $0.hasSuffix(".xml") }
        // A title slide, one per section with lines for the room (a section all for the teacher, here Materials and
        // Differentiation, gets none: its lines go to the notes of the slide before), one per quiz item, one per
        // rubric criterion.
        let (_, plan) = try Self.document()
        let teacherOnly = Set(
            plan.blocks.compactMap { block -> String? in
                if case .heading(let heading) = block, heading.opensSection, heading.teacher == .heading { return plainHeading(heading.plainText) }
                return nil
            })
        #expect(teacherOnly == ["Materials", "Differentiation"], "\(teacherOnly)")
        let shown = framework.headings.map(plainHeading).filter { !teacherOnly.contains($0) }
        #expect(slides.count == 1 + shown.count + 2 + 2, "\(slides)")
        let paragraphs = try await OfficeDocument.paragraphs(of: file)
        let titles = Dictionary(grouping: paragraphs.filter { $0.style.hasPrefix("slide") }, by: \.style)
        for (index, heading) in shown.enumerated() {
            let slide = titles["slide\(index + 2)"]?.map(\.text) ?? []
            #expect(slide.first == heading, "\(slide)")
            #expect(slide.count >= 2, "the slide \(heading) has no body text")
            // Students see no minute stamps; the teacher's notes hold the stamped heading.
            #expect(!slide.contains { $0.contains(" min)") })
        }
        let exitSlide = titles["slide\(1 + shown.count - 1)"]?.map(\.text) ?? []
        #expect(exitSlide.contains("Predict: will a grape float?"), "\(exitSlide)")
        let quizSlide = 2 + shown.count
        #expect(titles["slide\(quizSlide)"]?.map(\.text).contains("Why does a steel ship float?") == true)
        let notes = paragraphs.filter { $0.style == "notes\(quizSlide)" }.map(\.text)
        #expect(notes.contains("Answer: B) Its shape pushes aside a lot of water"), "\(notes)")
        let pdf = try await OfficeDocument.pdf(of: file)
        let text = try await PrintedPage.text(of: pdf)
        #expect(text.contains("Exit Ticket") && text.contains("Why does a steel ship float?"))
        #expect(!text.contains("Answer: B"))
        try await PrintedPDFTests.keep(pdf, as: "document-pptx")
    }
}

/// `lessonplan export --format docx|odt|pptx` through the built binary.
@Suite struct DocumentExportCommandTests {
    @Test func theCommandLineWritesDocumentsOnlyToFilesAndNamesPandocWhenItIsMissing() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(["generate", "--topic", "Tides", "--grade", "4", "--minutes", "40", "--name", "tides"])
        #expect(made.status == 0, "\(made.stderr)")

        // Without -o, the same file name /export picks: <topic>-v<N>.<format> in the current folder.
        let named = try await binary.run(["export", "tides", "--format", "docx"])
        let picked = binary.home.appending(path: "work/tides-v1.docx")
        #expect(named.status == 0 && named.stdout.isEmpty, "\(named.stderr)")
        #expect(named.stderr.contains("to \(picked.path)") || named.stderr.contains("tides-v1.docx"), "\(named.stderr)")
        #expect(try await OfficeDocument.parts(of: picked).contains("word/document.xml"))
        let twice = try await binary.run(["export", "tides", "--format", "docx"])
        #expect(twice.status == 1 && twice.stderr.contains("tides-v1.docx"), "an existing file is not replaced: \(twice.stderr)")

        let file = binary.home.appending(path: "tides.odt")
        let written = try await binary.run(["export", "tides", "--format", "odt", "-o", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("Wrote OpenDocument text of v1 to \(file.path)."))
        #expect(try await OfficeDocument.parts(of: file).contains("content.xml"))
        let paragraphs = try await OfficeDocument.paragraphs(of: file)
        #expect(paragraphs.contains { $0.style == "1" && $0.text.hasPrefix("Exit Ticket") }, "\(paragraphs)")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try await binary.run(["export", "tides", "--format", "odt", "-o", file.path])
        #expect(again.status == 1 && again.stderr.contains("already exists"))

        let handouts = try await binary.run(["export", "tides", "--format", "docx", "--materials", "-o", file.path + ".docx"])
        #expect(handouts.status == 1 && handouts.stderr.contains("There are no student handouts yet"))

        binary.environment["PATH"] = "/nonexistent"
        let slides = binary.home.appending(path: "tides.pptx")
        let missing = try await binary.run(["export", "tides", "--format", "pptx", "-o", slides.path])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "Making a .pptx needs pandoc, which is not installed; install it (on Debian or Ubuntu: sudo apt-get install pandoc) and try again."))
        #expect(!FileManager.default.fileExists(atPath: slides.path))
    }
}

/// A framework heading without the time it states, as a page for students shows it.
func plainHeading(_ heading: String) -> String {
    PlanDocument(parsing: "Title\n\n" + heading + "\nx\n", headings: [heading]).blocks.compactMap {
        if case .heading(let h) = $0 { h.plainText } else { nil }
    }.first ?? heading
}
