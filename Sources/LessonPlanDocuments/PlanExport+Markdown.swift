import Foundation
import LessonPlanCore

/// Markdown: read in terminals and editors as it is, so headings, lists and the pacing table are plain text.
extension PlanExport {
    /// Reads the current text with `headings`, then renders it as ``renderMarkdown(_:plan:timeZone:)`` does.
    package static func renderMarkdown(
        _ document: ExportDocument, headings: [String] = defaultHeadings, timeZone: TimeZone = .current
    ) -> String {
        renderMarkdown(document, plan: PlanDocument(parsing: document.currentText, headings: headings), timeZone: timeZone)
    }

    /// A header block, the check's banner, the pacing, then the plan with headings and lists in Markdown.
    ///
    /// Numbered items carry their number in their own list, so a CommonMark renderer shows 1, 2, 3 after
    /// every heading.
    package static func renderMarkdown(_ document: ExportDocument, plan: PlanDocument, timeZone: TimeZone = .current)
        -> String
    {
        let handout = document.kind == .materials
        var out: [String] = ["# \(markdownText(pageTitle(document, plan: plan)))", ""]
        if handout {
            out.append("Name: ______________________   Date: ____________   Class: ____________")
            out.append("")
        } else {
            out.append(contentsOf: markdownTeacherHeader(document, timeZone: timeZone))
        }
        out.append(contentsOf: ["---", ""])

        if handout, !document.starterQuizzes.isEmpty {
            out.append(contentsOf: markdownQuizzes(document.starterQuizzes))
            out.append(contentsOf: ["", "---", ""])
        }
        var previous: PageBlock?
        for block in pageBlocks(plan, handout: handout) {
            switch block {
            case .blank:
                appendBlank(&out)
            case .title(let text):
                if previous != nil, previous?.isTitle == false { appendBlank(&out) }
                out.append(markdownLine(text))
            case .heading(let text, let level):
                appendBlank(&out)
                out.append("\(level == 2 ? "##" : "###") \(markdownText(text))")
                out.append("")
            case .bullet(let text):
                if let previous, !previous.isBullet { appendBlank(&out) }
                out.append("- \(markdownText(text))")
            case .numbered(let number, let text):
                if let previous, !previous.isNumbered || handout { appendBlank(&out) }
                out.append("\(number). \(markdownText(text))")
                if handout {
                    out.append("")
                    out.append("   Answer: ______________________________________________")
                }
            case .paragraph(let text), .choice(let text):
                if let previous, previous.isBullet || previous.isNumbered || previous.isTitle { appendBlank(&out) }
                out.append(markdownLine(text))
            case .writeIn(let text):
                if let previous, previous.isBullet || previous.isNumbered { appendBlank(&out) }
                out.append(markdownLine(text))
            case .table(let header, let rows):
                appendBlank(&out)
                out.append(contentsOf: markdownTable(header: header, rows: rows) + [""])
            }
            previous = block
        }
        while out.last == "" { out.removeLast() }
        out.append(contentsOf: markdownAssessments(document, handout: handout))
        for table in handout ? [] : document.teacherTables { out.append(contentsOf: markdownTeacherTable(table)) }
        if handout {
            out.append(contentsOf: ["", "---", "", "*\(handoutFooter(document, timeZone: timeZone))*"])
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The teacher's copy's header: the check's banners, notes, the lesson's details, the pacing and the content notes.
    private static func markdownTeacherHeader(_ document: ExportDocument, timeZone: TimeZone) -> [String] {
        var out: [String] = []
        if let check = document.check, !check.passed {
            out.append("> **⚠ \(bannerTitle(check))**")
            for problem in check.problems { out.append("> - \(problem)") }
            out.append("")
        }
        if let check = document.check, !check.quotations.isEmpty {
            out.append("> **⚠ \(ExportCheck.quotationsTitle(check.quotations.count))**")
            for quotation in check.quotations { out.append("> - \(quotation)") }
            out.append("")
        }
        for note in document.teacherNotes {
            out.append("> **Note:** \(note)")
            out.append("")
        }
        for (label, value) in inputRows(document, timeZone: timeZone) {
            out.append("- **\(label):** \(markdownText(value))")
        }
        out.append("")
        out.append(contentsOf: markdownPacing(document))
        // After the pacing, which is what a teacher glances at first; never on a handout.
        if let check = document.check, !check.notes.isEmpty {
            out.append("> **\(ExportCheck.notesTitle)**")
            for note in check.notes { out.append("> - \(note)") }
            out.append("")
        }
        return out
    }

    /// Adds one empty line unless the output already ends with one, so blocks are separated once.
    private static func appendBlank(_ out: inout [String]) {
        if out.last != "" { out.append("") }
    }

    private static func markdownPacing(_ document: ExportDocument) -> [String] {
        var out = ["## Pacing", ""]
        guard !document.pacing.isEmpty else {
            return out + ["No section says how many minutes it takes, so there is no pacing to show.", ""]
        }
        out.append("| Section | Minutes | Length |")
        out.append("| --- | --- | --- |")
        for row in pacingRows(document) {
            switch row {
            case .segment(let segment, let over):
                let name = markdownCell(segment.heading) + (over ? " (past the end)" : "")
                let mark = Pacing.isStarred(segment, in: document.pacing) ? "\\*" : ""
                out.append("| \(name) | \(segment.start)–\(segment.end)\(mark) | \(segment.minutes) min |")
            case .lessonEnd(let minutes):
                out.append("| **Lesson ends** | **\(minutes)** | |")
            }
        }
        out.append("")
        for note in Pacing.notes(document.pacing, lessonMinutes: document.minutes) {
            out.append("- \(note)")
        }
        if let footnote = Pacing.placementNote(document.pacing) {
            out.append(footnote.hasPrefix("*") ? "\\" + footnote : footnote)
        }
        if out.last != "" { out.append("") }
        return out
    }

    private static func markdownCell(_ text: String) -> String {
        markdownText(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text the model wrote as Markdown that shows it as written in CommonMark and GFM: what would be read as
    /// markup (`<b>`, `*`, `[`, `` ` ``, an entity, a lone `_`) is backslash-escaped; runs of three or more
    /// underscores, the blanks to write on, stay as they are.
    static func markdownText(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\", "`", "*", "<", "[", "]":
                out += "\\" + String(character)
            case "&"
            where characters[(index + 1)...].prefix(32).contains(";")
                && characters.dropFirst(index + 1).first.map { $0.isLetter || $0 == "#" } == true:
                out += "\\&"
            case "_":
                var run = 1
                while index + run < characters.count, characters[index + run] == "_" { run += 1 }
                out += run >= 3 ? String(repeating: "_", count: run) : String(repeating: "\\_", count: run)
                index += run
                continue
            default:
                out.append(character)
            }
            index += 1
        }
        return out
    }

    /// A line of text as its own paragraph: escaped, and not read as a heading, quote, list item or rule.
    static func markdownLine(_ text: String) -> String {
        let escaped = markdownText(text)
        let leading = escaped.prefix { $0 == " " }
        let body = escaped.dropFirst(leading.count)
        guard let first = body.first else { return escaped }
        if "#>+-=".contains(first) { return leading + "\\" + body }
        // `1. ` or `1) ` at the start would begin a numbered list.
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count < 10, let mark = body.dropFirst(digits.count).first, mark == "." || mark == ")" {
            return leading + digits + "\\" + body.dropFirst(digits.count)
        }
        return escaped
    }

    /// A table for the teacher alone as a pipe table, after a rule, with its summary and where its criteria come from.
    private static func markdownTeacherTable(_ table: TeacherTable) -> [String] {
        var out = ["", "---", "", "## \(table.title)", "", "*\(table.caveat)*", ""]
        out += markdownTable(header: table.header, rows: table.rows)
        out += ["", table.summary]
        if let source = table.source { out += ["", "*\(source)*"] }
        return out
    }

    /// A pipe table: the header, its rule, and each row, every cell on one line and escaped.
    private static func markdownTable(header: [String], rows: [[String]]) -> [String] {
        func line(_ cells: [String]) -> String { "| " + cells.map { markdownCell(oneLine($0)) }.joined(separator: " | ") + " |" }
        return [line(header), "| " + header.map { _ in "---" }.joined(separator: " | ") + " |"] + rows.map(line)
    }

    /// A cell's text on one line, so a line break in it cannot end a table row.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Each quiz under its heading, as numbered items whose lettered options are a list nested in the item: each
    /// indented to the item's text (three spaces under `1. `, four under `10. `), never four past it (a code block).
    ///
    /// - Parameter warnings: the line over a quiz that did not pass its check, by kind (the teacher's copy only).
    private static func markdownQuizzes(_ quizzes: [Quiz], warnings: [Quiz.Kind: String] = [:]) -> [String] {
        var out: [String] = []
        for quiz in quizzes where !quiz.items.isEmpty {
            out += ["", "## \(quiz.title)", ""]
            if let warning = warnings[quiz.kind] { out += ["> **⚠ \(markdownText(warning))**", ""] }
            for (index, item) in quiz.items.enumerated() {
                let marker = "\(index + 1). "
                out.append(marker + markdownText(item.stem))
                let indent = String(repeating: " ", count: marker.count)
                out += item.options.map { indent + "- \($0.letter)) " + markdownText($0.text) }
                out.append("")
            }
        }
        return out
    }

    /// The same for Markdown: the quiz as numbered items with lettered options, the rubric as a pipe table.
    private static func markdownAssessments(_ document: ExportDocument, handout: Bool) -> [String] {
        var out: [String] = []
        out += markdownQuizzes(handout ? document.laterQuizzes : document.quizzes, warnings: handout ? [:] : document.quizWarnings)
        // A rubric without rows is never printed as an empty table.
        if let rubric = document.rubric.map({ handout ? $0.forStudents : $0 }), !rubric.levels.isEmpty, !rubric.criteria.isEmpty {
            out += ["", "## " + markdownText(rubric.task.isEmpty ? "Rubric" : "Rubric: \(rubric.task)"), ""]
            if !handout, let warning = document.rubricWarning { out += ["> **⚠ \(markdownText(warning))**", ""] }
            out.append("| Criterion | " + rubric.levels.map { markdownCell($0.title) }.joined(separator: " | ") + " |")
            out.append("|" + String(repeating: " --- |", count: rubric.levels.count + 1))
            for criterion in rubric.criteria {
                out.append("| \(markdownCell(criterion.name)) | " + criterion.cells.map(markdownCell).joined(separator: " | ") + " |")
            }
        }
        for quiz in handout ? [] : document.quizzes where !quiz.items.isEmpty {
            out += ["", "---", "", "## \(quiz.keyTitle)", ""]
            for (index, item) in quiz.items.enumerated() {
                let marker = "\(index + 1). "
                out.append(marker + markdownText(item.keyText))
                let indent = String(repeating: " ", count: marker.count)
                for option in item.explainedDistractors {
                    out.append(indent + "- \(option.letter): " + markdownText(option.misconceptionShown))
                    if !option.feedback.isEmpty { out.append(indent + "  - " + markdownText(QuizOption.feedbackLabel + option.feedback)) }
                }
            }
        }
        while out.last == "" { out.removeLast() }
        return out
    }
}
