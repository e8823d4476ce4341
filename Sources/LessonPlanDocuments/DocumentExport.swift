import Foundation
import LessonPlanCore

/// Word-processor documents and slides a teacher can edit, made by pandoc from the one reading of a plan.
///
/// The plan is handed to pandoc as its JSON document model, not as Markdown: every list carries its own
/// start number (exit-ticket prompts written `10. 11. 12.` after their heading are a list starting at 1),
/// every text is literal (nothing the model wrote is read as markup), and headings are real Heading 1
/// (sections) and Heading 2 (sub-headings), so a word processor's navigation pane lists them.
///
/// - A teacher's document: the check's banner if the version fails, the version line, the pacing as a
///   table, the inputs, the plan, then the quiz (without its key) and the rubric, and the quiz's answer key
///   on a page of its own.
/// - Handouts: Name / Date / Class, the student parts with a line to answer on under each numbered prompt,
///   the quiz without its key and the students' rubric.
/// - Slides: one per section (its title and the lines students read; the teacher's lines in the speaker
///   notes), one per quiz item (the answer and misconceptions in the notes), and the students' rubric.
package enum DocumentExport {
    /// The document's bytes in `format`, written by `pandoc` with `reference` for its styles.
    /// - Throws: ``DocumentError`` when pandoc is missing or fails.
    package static func render(
        _ document: ExportDocument, plan: PlanDocument, format: DocumentFormat, pandoc: Pandoc?, reference: Data?,
        timeZone: TimeZone = .current
    ) async throws -> Data {
        guard let pandoc else { throw DocumentError.pandocMissing(format) }
        var built = format == .pptx ? slides(document, plan: plan) : page(document, plan: plan, format: format, timeZone: timeZone)
        built.blocks = forWriter(built.blocks, format: format)
        return try await pandoc.convert(built, to: format, reference: reference)
    }

    /// Tables as the writer must have them to print whole: raw odt (ruled, rows kept together) or raw docx (rows
    /// that never split).
    static func forWriter(_ blocks: [PandocBlock], format: DocumentFormat) -> [PandocBlock] {
        blocks.flatMap { block -> [PandocBlock] in
            switch block {
            case .newPage(let inner): return newPage(inner, format: format)
            case .div(let classes, let inner): return [.div(classes: classes, forWriter(inner, format: format))]
            case .styled(let style, let inner): return [.styled(style, forWriter(inner, format: format))]
            default:
                switch format {
                case .odt: return [ruledForODT(block)]
                case .docx: return [keptRowsForDOCX(block)]
                case .pptx: return [block]
                }
            }
        }
    }

    /// An odt table as raw odt whose cells take the ruled style `Pandoc` adds (pandoc's own are unruled); the
    /// header row is bold and repeats on each page.
    static func ruledForODT(_ block: PandocBlock) -> PandocBlock {
        switch block {
        case .table(let header, let rows, _):
            func cell(_ text: String, bold: Bool) -> String {
                let escaped = PlanExport.htmlEscape(text)
                return "<table:table-cell table:style-name=\"\(Pandoc.ruledCellName)\" office:value-type=\"string\">"
                    + "<text:p text:style-name=\"Table_20_Contents\">"
                    + (bold ? "<text:span text:style-name=\"Strong_20_Emphasis\">\(escaped)</text:span>" : escaped)
                    + "</text:p></table:table-cell>"
            }
            // No row splits between pages.
            func row(_ cells: [String], bold: Bool) -> String {
                "<table:table-row table:style-name=\"\(Pandoc.keptRowName)\">" + cells.map { cell($0, bold: bold) }.joined() + "</table:table-row>"
            }
            let columns = max(header.count, rows.map(\.count).max() ?? 0)
            var xml = "<table:table><table:table-column table:number-columns-repeated=\"\(max(columns, 1))\"/>"
            if !header.isEmpty { xml += "<table:table-header-rows>" + row(header, bold: true) + "</table:table-header-rows>" }
            xml += rows.map { row($0, bold: false) }.joined() + "</table:table>"
            return .raw(format: "opendocument", xml)
        case .div(let classes, let blocks): return .div(classes: classes, blocks.map(ruledForODT))
        case .styled(let style, let blocks): return .styled(style, blocks.map(ruledForODT))
        default: return block
        }
    }

    // MARK: Word-processor page

    static func page(_ document: ExportDocument, plan: PlanDocument, format: DocumentFormat, timeZone: TimeZone)
        -> PandocDocument
    {
        let handout = document.kind == .materials
        var blocks: [PandocBlock] = []
        if handout {
            blocks.append(.para([.text("Name: ______________________   Date: ____________   Class: ____________")]))
            for quiz in document.starterQuizzes where !quiz.items.isEmpty { blocks += quizPage(quiz) }
        } else {
            if let check = document.check, !check.passed {
                blocks.append(.para([.strong([.text("⚠ " + PlanExport.bannerTitle(check))])]))
                blocks.append(.bulletList(check.problems.map { [.plain([.text($0)])] }))
            }
            if let check = document.check, !check.quotations.isEmpty {
                blocks.append(.para([.strong([.text("⚠ " + ExportCheck.quotationsTitle(check.quotations.count))])]))
                blocks.append(.bulletList(check.quotations.map { [.plain([.text($0)])] }))
            }
            blocks.append(.para([.text(PlanExport.versionLine(document, timeZone: timeZone))]))
            for note in document.teacherNotes { blocks.append(.para([.strong([.text("Note:")]), .text(" " + note)])) }
            blocks += pacing(document)
            if let check = document.check, !check.notes.isEmpty {
                blocks.append(.para([.strong([.text(ExportCheck.notesTitle)])]))
                blocks.append(.bulletList(check.notes.map { [.plain([.text($0)])] }))
            }
            blocks.append(inputsLine(document, timeZone: timeZone))
        }
        var planned = keepingEnd(
            keepingExitTicket(planBlocks(PlanExport.pageBlocks(plan, handout: handout), handout: handout), listsAsParagraphs: format == .odt),
            listsAsParagraphs: format == .odt)
        // The starter quiz is done first, on a page of its own; the handouts start on the next.
        if handout, !document.starterQuizzes.isEmpty { planned = startingNewPage(planned) }
        blocks += planned
        for quiz in (handout ? document.laterQuizzes : document.quizzes) where !quiz.items.isEmpty {
            blocks += startingNewPage(quizPage(quiz, warning: handout ? nil : document.quizWarnings[quiz.kind]))
        }
        // A rubric without rows is never printed as an empty table.
        if let rubric = document.rubric, !rubric.levels.isEmpty, !rubric.criteria.isEmpty {
            let shown = handout ? rubric.forStudents : rubric
            blocks.append(.header(1, [.text(rubric.task.isEmpty ? "Rubric" : "Rubric: \(rubric.task)")]))
            if !handout, let warning = document.rubricWarning { blocks.append(.para([.strong([.text("⚠ " + warning)])])) }
            blocks.append(rubricTable(shown))
        }
        for quiz in handout ? [] : document.quizzes where !quiz.items.isEmpty {
            blocks.append(.newPage(.header(1, [.text(quiz.keyTitle)])))
            // The short list first: after a long key (each wrong answer's note and feedback) it would print alone.
            if !quiz.misconceptions.isEmpty {
                blocks.append(.para([.strong([.text("Misconceptions it probes")])]))
                blocks.append(.bulletList(quiz.misconceptions.map { [.plain([.text($0)])] }))
            }
            blocks.append(answerKey(quiz))
        }
        for table in handout ? [] : document.teacherTables { blocks += startingNewPage(teacherTableBlocks(table)) }
        if handout {
            blocks.append(.para([.emph([.text(PlanExport.handoutFooter(document, timeZone: timeZone))])]))
        }
        return PandocDocument(title: document.title, subtitle: nil, blocks: blocks)
    }

    /// The exit ticket's heading and everything under it in a style that keeps each paragraph with the next, so the
    /// slip students cut out and hand in prints whole on one page.
    ///
    /// pandoc's odt writer does not carry a paragraph style onto list items, so for odt (`listsAsParagraphs`) the
    /// slip's lists are written as paragraphs that carry their own number or bullet, and the style holds them.
    static func keepingExitTicket(_ blocks: [PandocBlock], listsAsParagraphs: Bool = false) -> [PandocBlock] {
        var out: [PandocBlock] = []
        var slip: [PandocBlock]?
        func kept(_ blocks: [PandocBlock]) -> [PandocBlock] { keptTogether(blocks, listsAsParagraphs: listsAsParagraphs) }
        for block in blocks {
            if case .header(_, let inlines) = block {
                if let held = slip { out += kept(held) }
                slip = nil
                if case .text(let text)? = inlines.first, PlanExport.isExitTicket(text) {
                    out.append(block)
                    slip = []
                    continue
                }
            }
            if slip != nil { slip?.append(block) } else { out.append(block) }
        }
        if let held = slip { out += kept(held) }
        return out
    }

    /// Blocks in the style that keeps each paragraph with the next, the last paragraph (with `endingRun`) in the one
    /// that only keeps itself whole, so the run does not chain on into what follows it. docx gives a tight list's
    /// items its own `Compact` style whatever the style around them, so their items become paragraphs, which take it.
    static func keptTogether(_ blocks: [PandocBlock], listsAsParagraphs: Bool, endingRun: Bool = true) -> [PandocBlock] {
        func loose(_ block: PandocBlock) -> PandocBlock {
            func items(_ items: [[PandocBlock]]) -> [[PandocBlock]] {
                items.map { $0.map { if case .plain(let inlines) = $0 { .para(inlines) } else { loose($0) } } }
            }
            switch block {
            case .bulletList(let list): return .bulletList(items(list))
            case .orderedList(let start, let numbering, let list): return .orderedList(start: start, numbering: numbering, items(list))
            default: return block
            }
        }
        var kept = listsAsParagraphs ? blocks.flatMap(paragraphs) : blocks.map(loose)
        guard endingRun, let last = kept.popLast() else { return [.styled(keepStyle, kept)] }
        // The last list item goes into a list of its own that carries on the numbering, in the closing style.
        var closing = last
        switch last {
        case .orderedList(let start, let numbering, let items) where items.count > 1:
            kept.append(.orderedList(start: start, numbering: numbering, Array(items.dropLast())))
            closing = .orderedList(start: start + items.count - 1, numbering: numbering, [items[items.count - 1]])
        case .bulletList(let items) where items.count > 1:
            kept.append(.bulletList(Array(items.dropLast())))
            closing = .bulletList([items[items.count - 1]])
        default: break
        }
        return (kept.isEmpty ? [] : [.styled(keepStyle, kept)]) + [.styled(lastOptionStyle, [closing])]
    }

    /// The plan with its last block kept with the one before it, so the plan's closing line never prints alone on a
    /// page (the heading before them keeps with them too).
    static func keepingEnd(_ blocks: [PandocBlock], listsAsParagraphs: Bool) -> [PandocBlock] {
        guard blocks.count >= 2 else { return blocks }
        let before = blocks[blocks.count - 2]
        if case .styled = before { return blocks }
        if case .header = before { return blocks }
        return Array(blocks.dropLast(2)) + keptTogether([before], listsAsParagraphs: listsAsParagraphs, endingRun: false) + [blocks[blocks.count - 1]]
    }

    /// A list as paragraphs that carry their own markers (`1. `, `• `); other blocks as they are.
    private static func paragraphs(_ block: PandocBlock) -> [PandocBlock] {
        func inlines(of item: [PandocBlock]) -> [PandocInline] {
            item.flatMap { block -> [PandocInline] in
                switch block {
                case .para(let inlines), .plain(let inlines): inlines
                default: []
                }
            }
        }
        switch block {
        case .orderedList(let start, let numbering, let items):
            return items.enumerated().map { offset, item in
                let number = start + offset
                let marker = numbering == .upperAlpha ? String(UnicodeScalar(UInt8(64 + min(max(number, 1), 26)))) + ")" : "\(number)."
                return .para([.text(marker + " ")] + inlines(of: item))
            }
        case .bulletList(let items):
            return items.map { .para([.text("• ")] + inlines(of: $0)) }
        default:
            return [block]
        }
    }

    /// A page break, as each writer spells one; the odt one needs the `Pagebreak` style of the reference document.
    static func pageBreak(_ format: DocumentFormat) -> PandocBlock {
        switch format {
        case .docx: .raw(format: "openxml", "<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>")
        case .odt: .raw(format: "opendocument", "<text:p text:style-name=\"Pagebreak\"/>")
        case .pptx: .para([])
        }
    }

    /// The lesson's details (grade band, length, topic, standards …) as one paragraph, apart from any list: beside
    /// the content notes' list, a list of them ran into it.
    static func inputsLine(_ document: ExportDocument, timeZone: TimeZone) -> PandocBlock {
        var inlines: [PandocInline] = []
        for (index, (label, value)) in PlanExport.inputRows(document, timeZone: timeZone).filter({ $0.0 != "Version" }).enumerated() {
            if index > 0 { inlines.append(.text(" · ")) }
            inlines += [.strong([.text(label + ":")]), .text(" " + value)]
        }
        return .para(inlines)
    }

    private static func pacing(_ document: ExportDocument) -> [PandocBlock] {
        var blocks: [PandocBlock] = [.header(1, [.text("Pacing")])]
        guard !document.pacing.isEmpty else {
            return blocks + [.para([.text("No section says how many minutes it takes, so there is no pacing to show.")])]
        }
        let rows: [[String]] = PlanExport.pacingRows(document).map { row in
            switch row {
            case .segment(let segment, let over):
                let mark = Pacing.isStarred(segment, in: document.pacing) ? "*" : ""
                return [segment.heading + (over ? " (past the end)" : ""), "\(segment.start)–\(segment.end)\(mark)", "\(segment.minutes) min"]
            case .lessonEnd(let minutes):
                return ["Lesson ends", "\(minutes)", ""]
            }
        }
        blocks.append(.table(header: ["Section", "Minutes", "Length"], rows: rows, widths: [0.5, 0.25, 0.25]))
        var notes = Pacing.notes(document.pacing, lessonMinutes: document.minutes).map(\.description)
        if let footnote = Pacing.placementNote(document.pacing) { notes.append(footnote) }
        if !notes.isEmpty { blocks.append(.bulletList(notes.map { [.plain([.text($0)])] })) }
        return blocks
    }

    /// The plan's page blocks as pandoc blocks: runs of numbered items become one list with its own start.
    static func planBlocks(_ page: [PlanExport.PageBlock], handout: Bool) -> [PandocBlock] {
        var blocks: [PandocBlock] = []
        var titles: [String] = []
        var numbered: (start: Int, items: [[PandocBlock]])?
        var bullets: [[PandocBlock]] = []
        func closeLists() {
            if let list = numbered { blocks.append(.orderedList(start: list.start, numbering: .decimal, list.items)) }
            numbered = nil
            if !bullets.isEmpty { blocks.append(.bulletList(bullets)) }
            bullets = []
        }
        func flushTitles() {
            guard !titles.isEmpty else { return }
            var inlines: [PandocInline] = []
            for (index, title) in titles.enumerated() {
                if index > 0 { inlines.append(.lineBreak) }
                inlines.append(.strong([.text(title)]))
            }
            blocks.append(.para(inlines))
            titles = []
        }
        for (index, block) in page.enumerated() {
            if case .title(let text) = block {
                titles.append(text)
                continue
            }
            flushTitles()
            switch block {
            case .numbered(let number, let text):
                if !bullets.isEmpty || (numbered != nil && number == 1) { closeLists() }
                var item: [PandocBlock] = [.para([.text(text)])]
                let nextIsWriteIn = page.dropFirst(index + 1).first { $0 != .blank }?.isWriteIn ?? false
                // Three lines to write on, as the printable page gives.
                if handout && !nextIsWriteIn {
                    item += Array(repeating: .para([.text("_______________________________________________")]), count: 3)
                }
                if numbered == nil { numbered = (number, []) }
                numbered?.items.append(item)
            case .bullet(let text):
                if numbered != nil { closeLists() }
                bullets.append([.plain([.text(text)])])
            case .blank:
                // A blank line between numbered prompts keeps their list open, as on the printed page.
                if numbered != nil, case .numbered = page.dropFirst(index + 1).first(where: { $0 != .blank }) { continue }
                closeLists()
            case .heading(let text, let level):
                closeLists()
                blocks.append(.header(level == 2 ? 1 : 2, [.text(text)]))
            case .paragraph(let text), .choice(let text), .writeIn(let text):
                closeLists()
                blocks.append(.para([.text(text)]))
            case .table(let header, let rows):
                closeLists()
                blocks.append(.table(header: header, rows: rows, widths: header.count == 4 ? [0.12, 0.2, 0.25, 0.43] : nil))
            case .title:
                break
            }
        }
        flushTitles()
        closeLists()
        return blocks
    }

    /// The paragraph styles of the reference documents that keep a quiz item on one page: the stem and every
    /// option but the last keep with the next paragraph (`scripts/make-reference-docs` defines them).
    static let keepStyle = "QuizStem"
    static let lastOptionStyle = "QuizOption"

    /// A quiz under its heading: each item numbered, its options lettered `A) ` on lines of their own, the stem
    /// and options kept together on one page.
    /// - Parameter warning: the line over a quiz that did not pass its check (the teacher's copy only).
    static func quizPage(_ quiz: Quiz, warning: String? = nil) -> [PandocBlock] {
        var blocks: [PandocBlock] = [.header(1, [.text(quiz.title)])]
        if let warning { blocks.append(.para([.strong([.text("⚠ " + warning)])])) }
        for (index, item) in quiz.items.enumerated() {
            let options = item.options.map { "\($0.letter)) \($0.text)" }
            let kept = ["\(index + 1). \(item.stem)"] + options.dropLast()
            blocks.append(.styled(keepStyle, kept.map { .para([.text($0)]) }))
            if let last = options.last { blocks.append(.styled(lastOptionStyle, [.para([.text(last)])])) }
        }
        return blocks
    }

    /// Each item's key, and under it what each wrong answer's choice says about the student and the feedback they read.
    private static func answerKey(_ quiz: Quiz) -> PandocBlock {
        .orderedList(
            start: 1, numbering: .decimal,
            quiz.items.map { item in
                var blocks: [PandocBlock] = [.para([.strong([.text(item.keyText)])])]
                let reasons = item.explainedDistractors
                if !reasons.isEmpty {
                    blocks.append(
                        .bulletList(
                            reasons.map { option in
                                var line: [PandocInline] = [.text("\(option.letter)) \(option.text): \(option.misconceptionShown)")]
                                if !option.feedback.isEmpty { line += [.lineBreak, .text(QuizOption.feedbackLabel + option.feedback)] }
                                return [.plain(line)]
                            }))
                }
                return blocks
            })
    }

    /// A table for the teacher alone on a page of its own, with its summary and where its criteria come from.
    private static func teacherTableBlocks(_ table: TeacherTable) -> [PandocBlock] {
        var blocks: [PandocBlock] = [
            .header(1, [.text(table.title)]),
            .para([.emph([.text(table.caveat)])]),
            .table(header: table.header, rows: table.rows, widths: table.widths),
            .para([.text(table.summary)]),
        ]
        if let source = table.source { blocks.append(.para([.emph([.text(source)])])) }
        return blocks
    }

    private static func rubricTable(_ rubric: Rubric) -> PandocBlock {
        let count = rubric.levels.count
        let first = count > 0 ? 0.22 : 1
        return .table(
            header: ["Criterion"] + rubric.levels.map(\.title),
            rows: rubric.criteria.map { [$0.name] + $0.cells },
            widths: [first] + Array(repeating: (1 - first) / Double(max(count, 1)), count: count))
    }

    // MARK: Slides

    /// A heading without any time it states, even one the framework's own name carries (`Warm-Up (5 min)`).
    private static func untimed(_ heading: String) -> String {
        var text = heading
        while case let shorter = HeadingShape.withoutTime(text), shorter != text, !shorter.isEmpty { text = shorter }
        return text
    }

    /// One slide: its title, what the room reads, and what only the teacher sees (the speaker notes).
    struct Slide {
        var title: String
        var body: [PandocBlock]
        var notes: [String]
    }

    /// The deck: the starter quiz before the lesson, a slide per section (per part, for handouts), the exit quiz
    /// after it, then the students' rubric a criterion a slide, so every line is large enough to read projected.
    ///
    /// A section whose every line is for the teacher gets no slide: nothing would be on it for the room. Its
    /// lines go into the speaker notes of the slide before it (or after it, when it comes first).
    static func slides(_ document: ExportDocument, plan: PlanDocument) -> PandocDocument {
        let handout = document.kind == .materials
        var slides: [Slide] = document.starterQuizzes.flatMap(quizSlides)
        var sections: [Slide] = []
        var orphanNotes: [String] = []
        var title: String?
        var body: [PlanBlock] = []
        var notes: [String] = []
        func flush() {
            guard let heading = title else { return }
            let page = body.isEmpty ? [] : PlanExport.pageBlocks(document: body)
            let shown = planBlocks(page, handout: false)
            if shown.isEmpty {
                if sections.isEmpty {
                    orphanNotes += ["\(heading):"] + notes
                } else {
                    sections[sections.count - 1].notes += ["\(heading):"] + notes
                }
            } else {
                sections.append(Slide(title: heading, body: shown, notes: orphanNotes + notes))
                orphanNotes = []
            }
            title = nil
            body = []
            notes = []
        }
        for (index, block) in plan.blocks.enumerated() {
            switch block {
            case .title: continue
            case .heading(let heading) where heading.opensSection || (handout && heading.teacher == nil):
                flush()
                title = untimed(heading.plainText)
                if heading.teacher == .heading { notes.append("This section is for the teacher.") }
                continue
            default: break
            }
            guard title != nil else { continue }
            if let reason = block.teacher, reason != .minuteStamp {
                if case .blank = block { continue }
                notes.append(ListMarker.plain(plan.lines[index]))
            } else if case .heading(let heading) = block, heading.teacher == .minuteStamp {
                // A sub-heading stamped with a time: students see the words, the teacher the time.
                body.append(
                    .heading(
                        PlanHeading(
                            text: heading.plainText, plainText: heading.plainText, framework: nil, opensSection: false,
                            minutes: nil, teacher: nil)))
                notes.append(heading.text)
            } else {
                if block.teacher == .minuteStamp { notes.append(ListMarker.plain(plan.lines[index])) }
                body.append(block)
            }
        }
        flush()
        if sections.isEmpty, !orphanNotes.isEmpty {
            sections.append(
                Slide(title: document.topic, body: [.para([.text("Grades \(document.grade) · \(document.minutes) minutes")])], notes: orphanNotes))
        }
        // Quotations not verified against the sources: for the teacher, in the first section's speaker notes.
        if let check = document.check, !check.quotations.isEmpty, !sections.isEmpty {
            sections[0].notes = ["⚠ " + ExportCheck.quotationsTitle(check.quotations.count) + ":"] + check.quotations + sections[0].notes
        }
        slides += sections
        slides += document.laterQuizzes.flatMap(quizSlides)
        if let rubric = document.rubric?.forStudents { slides += rubricSlides(rubric) }
        var blocks: [PandocBlock] = []
        for slide in slides {
            blocks.append(.header(1, [.text(slide.title)]))
            blocks += slide.body
            if !slide.notes.isEmpty { blocks.append(.div(classes: ["notes"], slide.notes.map { .para([.text($0)]) })) }
        }
        let subtitle = "Grades \(document.grade) · \(document.minutes) minutes"
        return PandocDocument(title: document.topic, subtitle: subtitle, blocks: blocks)
    }

    /// A slide per rubric criterion, its levels as a list, for the students' copy of the rubric.
    static func rubricSlides(_ rubric: Rubric) -> [Slide] {
        let heading = rubric.task.isEmpty ? "How your work is marked" : rubric.task
        return rubric.criteria.enumerated().map { index, criterion in
            let levels = zip(rubric.levels, criterion.cells).map { level, cell in
                [PandocBlock.plain([.strong([.text(level.title + ": ")]), .text(cell)])]
            }
            return Slide(
                title: "\(heading) · \(criterion.name) (\(index + 1) of \(rubric.criteria.count))", body: [.bulletList(levels)], notes: [])
        }
    }

    /// A slide per quiz item: the stem, its options lettered `A) ` as plain text (so the space after the letter is
    /// in the text, not left to the viewer's numbering), the answer, misconceptions and student feedback in the notes.
    static func quizSlides(_ quiz: Quiz) -> [Slide] {
        quiz.items.enumerated().map { index, item in
            var said = ["Answer: " + item.keyText]
            for option in item.explainedDistractors {
                said.append("\(option.letter): \(option.misconceptionShown)")
                if !option.feedback.isEmpty { said.append("\(option.letter), \(QuizOption.feedbackLabel.lowercased())\(option.feedback)") }
            }
            return Slide(
                title: "\(quiz.title) · question \(index + 1) of \(quiz.items.count)",
                body: [.para([.text(item.stem)])] + item.options.map { .para([.text("\($0.letter)) \($0.text)")]) },
                notes: said)
        }
    }
}

extension PlanExport {
    /// Blocks already chosen for students (a slide's body) as page blocks, minute stamps dropped.
    static func pageBlocks(document blocks: [PlanBlock]) -> [PageBlock] {
        var page = PlanDocument(parsing: "", headings: [])
        page.blocks = blocks.map { block in
            // Nothing here is teacher-only any more; the stamps go, as on a handout.
            switch block {
            case .item(var item):
                item.teacher = nil
                return .item(item)
            case .text(var text):
                text.teacher = nil
                return .text(text)
            default: return block
            }
        }
        return pageBlocks(page, handout: true).filter { if case .title = $0 { false } else { true } }
    }
}
