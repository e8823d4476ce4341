import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanDocuments
@testable import LessonPlanKit
@testable import LessonPlanStore

/// The document handed to pandoc, checked as data: no pandoc needed (EditableDocumentTests runs the real one).
@Suite struct DocumentExportTests {
    static let plan = """
        Tides

        Exit Ticket (0–5 min)
        Answer these, then hand in the slip:
        10. What pulls the ocean?
        11. How many tides a day? What is a *spring* tide?
        Answer: the moon; two
        """

    static func document(kind: TurnKind = .plan) -> (ExportDocument, PlanDocument) {
        let quiz = Quiz(
            kind: .exit, misconceptions: ["The sun causes tides."],
            items: [
                QuizItem(
                    stem: "What mostly causes tides?",
                    options: [
                        QuizOption(letter: "A", text: "The sun", misconception: "The sun causes tides.", feedback: "Check which body is closer."),
                        QuizOption(letter: "B", text: "The moon"),
                        QuizOption(letter: "C", text: "Wind", misconception: "Waves and tides are the same.", feedback: "Waves ride on top."),
                    ], answerLetters: ["B"])
            ])
        let document = ExportDocument(
            topic: "Tides", grade: "4", minutes: 5, created: Date(timeIntervalSince1970: 0),
            versions: [ExportVersion(number: 1, command: "/generate", createdAt: Date(timeIntervalSince1970: 0), text: plan)],
            currentVersion: 1, kind: kind, quiz: quiz)
        return (document, PlanDocument(parsing: plan, headings: ["Exit Ticket"]))
    }

    /// Every string of the JSON, in order, with the type tag of the object that holds it.
    static func strings(_ json: Any, into out: inout [String]) {
        if let object = json as? [String: Any] {
            if object["t"] as? String == "Str", let text = object["c"] as? String { out.append(text) }
            if let tag = object["t"] as? String, tag != "Str", tag != "Space" { out.append("<\(tag)>") }
            if object["t"] != nil {
                if let content = object["c"] { strings(content, into: &out) }
            } else {
                for key in object.keys.sorted() { strings(object[key] as Any, into: &out) }
            }
        } else if let array = json as? [Any] {
            for element in array { strings(element, into: &out) }
        }
    }

    @Test func listsCarryTheirOwnStartAndTextStaysLiteral() throws {
        let (document, plan) = Self.document()
        let page = DocumentExport.page(document, plan: plan, format: .docx, timeZone: .gmt)
        func lists(_ blocks: [PandocBlock]) -> [(Int, Int)] {
            blocks.flatMap { block -> [(Int, Int)] in
                switch block {
                case .orderedList(let start, .decimal, let items): [(start, items.count)]
                case .styled(_, let inner), .div(_, let inner): lists(inner)
                default: []
                }
            }
        }
        // The exit ticket (written 10, 11) is a list from 1, kept together with the line under it, the key another;
        // the quiz's items are numbered paragraphs kept with their options (QuizStem), so an item never leaves its
        // options on another page.
        #expect(lists(page.blocks).map(\.0) == [1, 1] && lists(page.blocks).map(\.1) == [2, 1], "\(lists(page.blocks))")
        #expect(page.blocks.contains { if case .styled(DocumentExport.keepStyle, _) = $0 { true } else { false } })
        let json = try JSONSerialization.jsonObject(with: page.json(apiVersion: [1, 22, 2, 1]))
        var texts: [String] = []
        Self.strings(json, into: &texts)
        // Markdown the model wrote is not read as markup; the teacher's answer stays on the teacher's page.
        #expect(texts.contains("*spring*") && !texts.contains("<Emph>"))
        #expect(texts.contains("moon;"))
        let key = try #require(texts.firstIndex(of: "key:"))
        #expect(page.blocks.contains(.newPage(.header(1, [.text("Answer key: exit quiz")]))), "the key opens a new page")
        #expect(texts[key...].contains("sun") && texts[key...].contains("Waves"))
        // Under each wrong answer's misconception, the feedback its student reads.
        #expect(texts[key...].contains("feedback:") && texts[key...].contains("closer.") && texts[key...].contains("<LineBreak>"))
    }

    @Test func handoutsLeaveOutTheKeyAndTheTeachersLines() throws {
        let (document, plan) = Self.document(kind: .materials)
        let page = DocumentExport.page(document, plan: plan, format: .odt, timeZone: .gmt)
        var texts: [String] = []
        Self.strings(try JSONSerialization.jsonObject(with: page.json(apiVersion: [1, 22, 2, 1])), into: &texts)
        for hidden in ["key:", "Waves", "moon;", "(0–5", "feedback:", "closer."] { #expect(!texts.contains(hidden), "\(hidden)") }
        #expect(texts.contains("Name:") && texts.contains("Wind"))
    }

    /// A teacher's table (a review, say) is on the teacher's document, with its mark, and on neither the handouts nor
    /// the slides.
    @Test func aTeachersTableIsOnTheTeachersDocumentOnly() throws {
        let table = TeacherTable(
            key: "review", title: "Second opinion: review 1 of v1", caveat: "For the teacher only.",
            header: ["Criterion", "Score", "Evidence from the plan", "Why"], widths: [0.2, 0.1, 0.35, 0.35],
            rows: [
                ["Quality of Assessment", "2 of 3", "“What pulls the ocean?”", "It asks."],
                ["Opportunities for Deeper Learning", "1 of 3", "“Build a tide machine.” ⚠ evidence not found in the plan", "Invented."],
            ],
            marked: [1], summary: "✗ 1 of 2 quoted sentences is not in the plan (marked); do not rely on those scores.",
            source: "Criteria from somewhere.", data: ["rows": 2])
        func texts(_ kind: TurnKind, slides: Bool = false) throws -> String {
            var (document, plan) = Self.document(kind: kind)
            document.teacherTables = [table]
            let built =
                slides ? DocumentExport.slides(document, plan: plan) : DocumentExport.page(document, plan: plan, format: .docx, timeZone: .gmt)
            var texts: [String] = []
            Self.strings(try JSONSerialization.jsonObject(with: built.json(apiVersion: [1, 22, 2, 1])), into: &texts)
            return texts.joined(separator: " ")
        }
        let teacher = try texts(.plan)
        #expect(teacher.contains("Second opinion: review 1 of v1"))
        #expect(teacher.contains("“Build a tide machine.” ⚠ evidence not found in the plan"))
        #expect(teacher.contains("Criteria from somewhere."))
        for hidden in [try texts(.materials), try texts(.plan, slides: true)] {
            #expect(!hidden.contains("Second opinion") && !hidden.contains("tide machine") && !hidden.contains("Deeper"))
        }
    }

    @Test func slidesPutTheTeachersLinesInTheNotes() throws {
        let (document, plan) = Self.document()
        let slides = DocumentExport.slides(document, plan: plan)
        guard case .header(1, let title) = slides.blocks.first else {
            Issue.record("no slide title")
            return
        }
        #expect(title == [.text("Exit Ticket")])
        let notes = slides.blocks.compactMap { block -> [PandocBlock]? in
            if case .div(["notes"], let inside) = block { return inside }
            return nil
        }
        #expect(notes.count == 2)
        #expect(notes[0].contains(.para([.text("Answer: the moon; two")])))
        #expect(notes[1].first == .para([.text("Answer: B) The moon")]))
        #expect(
            notes[1].contains(.para([.text("A: The sun causes tides.")]))
                && notes[1].contains(.para([.text("A, student feedback: Check which body is closer.")])))
    }

    /// What keeps a printout whole, as the writers get it: every table row unsplittable, a new page begun by its own
    /// heading (never an empty paragraph that breaks the page), the lesson's details apart from any list.
    @Test func rowsNeverSplitAndNewPagesStartWithTheirHeading() throws {
        var (document, plan) = Self.document()
        document.rubric = Rubric(
            task: "Tide diagram", levels: [RubricLevel(name: "Beginning", points: 1), RubricLevel(name: "Secure", points: 2)],
            criteria: (1...6).map { RubricCriterion(name: "Criterion \($0) <&>", cells: ["Few", "All"]) })
        document.check = ExportCheck(passed: true, problems: [], notes: ["Two sections say the same thing."])
        let page = DocumentExport.page(document, plan: plan, format: .docx, timeZone: .gmt)
        // The details are one paragraph; the content notes' list is the only list there.
        let details = try #require(
            page.blocks.firstIndex { if case .para(let inlines) = $0 { inlines.first == .strong([.text("Grade band:")]) } else { false } })
        if case .bulletList = page.blocks[details - 1] {} else { Issue.record("the content notes' list is not just before the details") }
        #expect(
            !page.blocks.contains {
                if case .bulletList(let items) = $0 {
                    items.contains { $0 == [.plain([.strong([.text("Topic:")]), .text(" Tides")])] }
                } else {
                    false
                }
            })

        let docx = DocumentExport.forWriter(page.blocks, format: .docx)
        let xml = docx.compactMap { if case .raw("openxml", let text) = $0 { text } else { nil } }
        let rubric = try #require(xml.first { $0.contains("Criterion 6 &lt;&amp;&gt;") })
        #expect(rubric.components(separatedBy: "<w:tr>").count - 1 == 7)
        #expect(rubric.components(separatedBy: "<w:trPr><w:cantSplit/>").count - 1 == 7)
        #expect(rubric.components(separatedBy: "<w:tblHeader/>").count - 1 == 1)
        #expect(!docx.contains { if case .table = $0 { true } else { false } }, "a table left to pandoc, whose rows split")
        #expect(
            xml.contains(
                "<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/><w:pageBreakBefore/></w:pPr><w:r><w:t xml:space=\"preserve\">Answer key: exit quiz</w:t></w:r></w:p>"
            ))
        #expect(!xml.contains { $0.contains("w:type=\"page\"") }, "an empty paragraph that breaks the page")

        let odt = DocumentExport.forWriter(DocumentExport.page(document, plan: plan, format: .odt, timeZone: .gmt).blocks, format: .odt)
        let odf = odt.compactMap { if case .raw("opendocument", let text) = $0 { text } else { nil } }
        let table = try #require(odf.first { $0.contains("Criterion 6") })
        #expect(table.components(separatedBy: "<table:table-row table:style-name=\"LessonplanKeptRow\">").count - 1 == 7)
        #expect(odf.contains("<text:h text:style-name=\"LessonplanPageHeading1\" text:outline-level=\"1\">Answer key: exit quiz</text:h>"))
        #expect(!odf.contains { $0.contains("Pagebreak") })
        // Slides have no pages: the heading as it is.
        #expect(DocumentExport.forWriter([.newPage(.header(1, [.text("Exit quiz")]))], format: .pptx) == [.header(1, [.text("Exit quiz")])])
    }

    /// A teacher's handouts begin on the page after the starter quiz, the break the first line's own.
    @Test func theHandoutsStartOnTheirOwnPageAfterTheStarterQuiz() throws {
        var (document, plan) = Self.document(kind: .materials)
        document.quizzes.insert(Quiz(kind: .starter, items: document.quizzes[0].items), at: 0)
        let page = DocumentExport.page(document, plan: plan, format: .docx, timeZone: .gmt)
        let quiz = try #require(page.blocks.firstIndex(of: .header(1, [.text("Starter quiz")])))
        let next = try #require(page.blocks[quiz...].firstIndex { if case .newPage = $0 { true } else { false } })
        #expect(page.blocks[next] == .newPage(.para([.strong([.text("Tides")])])), "\(page.blocks[next])")
        let written = DocumentExport.forWriter([page.blocks[next]], format: .docx)
        #expect(
            written == [
                .raw(
                    format: "openxml",
                    "<w:p><w:pPr><w:pStyle w:val=\"BodyText\"/><w:pageBreakBefore/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">Tides</w:t></w:r></w:p>"
                )
            ])
    }

    @Test func controlCharactersNeverReachTheXML() {
        #expect(PandocDocument.clean("a\u{1B}[31mb\u{0}c\u{202E}d") == "a [31mb cd")
    }

    @Test func theReferenceDocumentsAreBuiltIn() throws {
        for format in [DocumentFormat.docx, .odt] {
            let data = try #require(PromptLibrary.builtIn.referenceDocument(for: format.rawValue))
            #expect(data.prefix(2) == Data("PK".utf8))
        }
        #expect(PromptLibrary.builtIn.referenceDocument(for: "pptx") == nil)
        #expect(ExportTable.entry(.plan, "Word")?.format == .docx && ExportTable.entry(.plan, "slides")?.format == .pptx)
        #expect(ExportTable.entry(.plan, "pdf") == nil)
    }
}
