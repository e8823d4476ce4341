import Foundation
import LessonPlanCore

/// Markdown: read in terminals and editors as it is, so headings, lists and the pacing table are plain text.
extension PlanExport {
    /// Reads the current text with `headings`, then renders it as ``renderMarkdown(_:plan:timeZone:)`` does.
    public static func renderMarkdown(
        _ document: ExportDocument, headings: [String] = defaultHeadings, timeZone: TimeZone = .current
    ) -> String {
        renderMarkdown(document, plan: PlanDocument(parsing: document.currentText, headings: headings), timeZone: timeZone)
    }

    /// A header block, the check's banner, the pacing, then the plan with headings and lists in Markdown.
    ///
    /// Numbered items carry their number in their own list, so a CommonMark renderer shows 1, 2, 3 after
    /// every heading.
    public static func renderMarkdown(_ document: ExportDocument, plan: PlanDocument, timeZone: TimeZone = .current)
        -> String
    {
        let handout = document.kind == .materials
        var out: [String] = ["# \(pageTitle(document, plan: plan))", ""]
        if handout {
            out.append("Name: ______________________   Date: ____________   Class: ____________")
            out.append("")
        } else {
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
            for note in document.teacherNotes { out.append("> **Note:** \(note)"); out.append("") }
            for (label, value) in inputRows(document, timeZone: timeZone) {
                out.append("- **\(label):** \(value)")
            }
            out.append("")
            out.append(contentsOf: markdownPacing(document))
            // After the pacing, which is what a teacher glances at first; never on a handout.
            if let check = document.check, !check.notes.isEmpty {
                out.append("> **\(ExportCheck.notesTitle)**")
                for note in check.notes { out.append("> - \(note)") }
                out.append("")
            }
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
                out.append(text)
            case .heading(let text, let level):
                appendBlank(&out)
                out.append("\(level == 2 ? "##" : "###") \(text)")
                out.append("")
            case .bullet(let text):
                if let previous, !previous.isBullet { appendBlank(&out) }
                out.append("- \(text)")
            case .numbered(let number, let text):
                if let previous, !previous.isNumbered || handout { appendBlank(&out) }
                out.append("\(number). \(text)")
                if handout {
                    out.append("")
                    out.append("   Answer: ______________________________________________")
                }
            case .paragraph(let text), .choice(let text):
                if let previous, previous.isBullet || previous.isNumbered || previous.isTitle { appendBlank(&out) }
                out.append(text)
            case .writeIn(let text):
                if let previous, previous.isBullet || previous.isNumbered { appendBlank(&out) }
                out.append(text)
            }
            previous = block
        }
        while out.last == "" { out.removeLast() }
        out.append(contentsOf: markdownAssessments(document, handout: handout))
        if !handout, let review = document.review { out.append(contentsOf: markdownReview(review)) }
        if handout {
            out.append(contentsOf: ["", "---", "", "*\(handoutFooter(document, timeZone: timeZone))*"])
        }
        return out.joined(separator: "\n") + "\n"
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
        text.replacingOccurrences(of: "|", with: "\\|")
    }

    /// The review as a pipe table, one row per criterion, with the check's summary and the criteria's source.
    private static func markdownReview(_ review: ExportReview) -> [String] {
        var out = ["", "---", "", "## \(review.title)", "", "*\(ExportReview.caveat)*", ""]
        out.append("| Criterion | Score | Evidence from the plan | Why |")
        out.append("| --- | --- | --- | --- |")
        for row in review.rows {
            let cells = [row.criterion, row.scoreText, ExportReview.evidence(row), row.why]
            out.append("| " + cells.map { markdownCell(oneLine($0)) }.joined(separator: " | ") + " |")
        }
        out += ["", review.summary]
        if let source = review.source { out += ["", "*\(source)*"] }
        return out
    }

    /// A cell's text on one line, so a line break in it cannot end a table row.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Each quiz under its heading, as numbered items with lettered options.
    private static func markdownQuizzes(_ quizzes: [Quiz]) -> [String] {
        var out: [String] = []
        for quiz in quizzes {
            out += ["", "## \(quiz.title)", ""]
            for (index, item) in quiz.items.enumerated() {
                out.append("\(index + 1). \(item.stem)")
                out += item.options.map { "    \($0.letter)) \($0.text)" }
                out.append("")
            }
        }
        return out
    }

    /// The same for Markdown: the quiz as numbered items with lettered options, the rubric as a pipe table.
    private static func markdownAssessments(_ document: ExportDocument, handout: Bool) -> [String] {
        var out: [String] = []
        out += markdownQuizzes(handout ? document.laterQuizzes : document.quizzes)
        if let rubric = document.rubric.map({ handout ? $0.forStudents : $0 }) {
            out += ["", "## " + (rubric.task.isEmpty ? "Rubric" : "Rubric: \(rubric.task)"), ""]
            out.append("| Criterion | " + rubric.levels.map { markdownCell($0.title) }.joined(separator: " | ") + " |")
            out.append("|" + String(repeating: " --- |", count: rubric.levels.count + 1))
            for criterion in rubric.criteria {
                out.append("| \(markdownCell(criterion.name)) | " + criterion.cells.map(markdownCell).joined(separator: " | ") + " |")
            }
        }
        for quiz in handout ? [] : document.quizzes {
            out += ["", "---", "", "## \(quiz.keyTitle)", ""]
            for (index, line) in AssessmentText.answerKey(quiz).enumerated() {
                out.append(line)
                out += quiz.items[index].distractors.filter { !$0.misconception.isEmpty }
                    .map { "    - \($0.letter): \($0.misconception)" }
            }
        }
        while out.last == "" { out.removeLast() }
        return out
    }
}
