import Foundation
import LessonPlanCore

/// HTML: one self-contained printable page (the stylesheet is in PlanExport+Stylesheet.swift).
extension PlanExport {
    /// Reads the current text with `headings`, then renders it as ``renderHTML(_:plan:timeZone:)`` does.
    package static func renderHTML(
        _ document: ExportDocument, headings: [String] = defaultHeadings, timeZone: TimeZone = .current
    ) -> String {
        renderHTML(document, plan: PlanDocument(parsing: document.currentText, headings: headings), timeZone: timeZone)
    }

    /// One self-contained printable page, no scripts or outside assets, every piece of text escaped.
    ///
    /// A teacher's page: title, the check's banner if the version fails, the version and its local date, the
    /// pacing as a compact table, the inputs on one line, then the plan; the timeline (the lesson's end marked,
    /// any overrun shaded) after the plan, so page 1 shows the pacing once and the plan's start.
    /// A handout page: title, Name / Date / Class, the student parts with room to write, and its version.
    package static func renderHTML(_ document: ExportDocument, plan: PlanDocument, timeZone: TimeZone = .current)
        -> String
    {
        let handout = document.kind == .materials
        let title = htmlEscape(pageTitle(document, plan: plan))
        var out: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>\(title)</title>",
            "<style>",
            stylesheet,
            "</style>",
            "</head>",
            "<body class=\"\(handout ? "handout" : "teacher")\">",
            "<main>",
            "<h1>\(title)</h1>",
        ]
        if handout {
            out.append(
                "<div class=\"write-in\"><span>Name <i></i></span><span>Date <i></i></span><span>Class <i></i></span></div>")
        } else {
            if let check = document.check, !check.passed {
                out.append("<div class=\"banner\" role=\"alert\">")
                out.append("<p><strong>\(htmlEscape(bannerTitle(check)))</strong></p>")
                out.append("<ul>")
                for problem in check.problems { out.append("<li>\(htmlEscape(problem))</li>") }
                out.append("</ul>")
                out.append("</div>")
            }
            if let check = document.check, !check.quotations.isEmpty {
                out.append("<div class=\"banner quotations\" role=\"alert\">")
                out.append("<p><strong>\(htmlEscape(ExportCheck.quotationsTitle(check.quotations.count)))</strong></p>")
                out.append("<ul>")
                for quotation in check.quotations { out.append("<li>\(htmlEscape(quotation))</li>") }
                out.append("</ul>")
                out.append("</div>")
            }
            out.append("<p class=\"version\">\(htmlEscape(versionLine(document, timeZone: timeZone)))</p>")
            for note in document.teacherNotes { out.append("<p class=\"teacher-note\"><strong>Note:</strong> \(htmlEscape(note))</p>") }
            appendPacing(document, to: &out)
            if let check = document.check, !check.notes.isEmpty {
                out.append("<div class=\"content-notes\">")
                out.append("<p><strong>\(htmlEscape(ExportCheck.notesTitle))</strong></p>")
                out.append("<ul>")
                for note in check.notes { out.append("<li>\(htmlEscape(note))</li>") }
                out.append("</ul>")
                out.append("</div>")
            }
            // The inputs on one line: page 1 is for the plan's start, not for furniture.
            // Short values stay whole on their line; a long one (standards with their published text) wraps.
            let inputs = inputRows(document, timeZone: timeZone).filter { $0.0 != "Version" }.map { label, value in
                "<span\(value.count > 60 ? " class=\"long\"" : "")><strong>\(htmlEscape(label)):</strong> \(htmlEscape(value))</span>"
            }
            out.append("<p class=\"inputs\">\(inputs.joined(separator: " · "))</p>")
        }
        if handout { appendQuizzes(document.starterQuizzes, warnings: [:], to: &out) }
        out.append("<section class=\"plan\">")
        appendPlan(pageBlocks(plan, handout: handout), handout: handout, to: &out)
        out.append("</section>")
        if !handout { appendTimeline(document, to: &out) }
        appendAssessments(document, handout: handout, to: &out)
        for table in handout ? [] : document.teacherTables { appendTeacherTable(table, to: &out) }
        if handout {
            out.append("<footer>\(htmlEscape(handoutFooter(document, timeZone: timeZone)))</footer>")
        }
        out.append(contentsOf: ["</main>", "</body>", "</html>"])
        return out.joined(separator: "\n") + "\n"
    }

    /// Escapes the five characters that can end text or an attribute value early: & < > " ', and drops
    /// C0 and C1 controls but tab and line feed (ESC, BEL, BS, CR, DEL, U+0080–U+009F), which a page has no
    /// use for and `cat plan.html` would obey, and the bidi controls (U+061C, U+200E/F, U+202A–E, U+2066–9),
    /// which would let model text reorder what the page shows.
    package static func htmlEscape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": continue
            // Bidi controls (as the terminal's sanitiser names them): model text must not reorder the page's text.
            case "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}": continue
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func appendPlan(_ blocks: [PageBlock], handout: Bool, to out: inout [String]) {
        // The open list, if any: "ul" or "ol".
        var openList: String?
        func closeList() {
            if let list = openList { out.append("</\(list)>") }
            openList = nil
        }
        var titles: [String] = []
        var inPart = false
        // The teacher's exit ticket, held in one box so it prints whole as the students' slip does.
        var inSlip = false
        func flushTitles() {
            guard !titles.isEmpty else { return }
            out.append("<p class=\"plan-title\">\(titles.map(htmlEscape).joined(separator: "<br>"))</p>")
            titles = []
        }
        for (index, block) in blocks.enumerated() {
            if case .title(let text) = block {
                titles.append(text)
                continue
            }
            flushTitles()
            switch block {
            case .bullet(let text):
                if openList != "ul" {
                    closeList()
                    out.append("<ul>")
                    openList = "ul"
                }
                out.append("<li>\(htmlEscape(text))</li>")
            case .numbered(let number, let text):
                if openList != "ol" {
                    closeList()
                    out.append(number == 1 ? "<ol>" : "<ol start=\"\(number)\">")
                    openList = "ol"
                }
                let followedByWriteIn = blocks.dropFirst(index + 1).first { $0 != .blank }?.isWriteIn ?? false
                let space = handout && !followedByWriteIn ? "<div class=\"write\"><i></i><i></i><i></i></div>" : ""
                out.append("<li>\(htmlEscape(text))\(space)</li>")
            case .heading(let text, let level):
                closeList()
                if inSlip { out.append("</div>") }
                inSlip = false
                if !handout, isExitTicket(text) {
                    out.append("<div class=\"kept exit-ticket\">")
                    inSlip = true
                }
                if handout, level == 2 {
                    // Each handout part is a section; the exit ticket is one slip, kept whole to cut out.
                    if inPart { out.append("</section>") }
                    out.append(isExitTicket(text) ? "<section class=\"part slip\">" : "<section class=\"part\">")
                    inPart = true
                }
                out.append("<h\(level)>\(htmlEscape(text))</h\(level)>")
            case .paragraph(let text), .choice(let text):
                closeList()
                out.append("<p\(block.isChoice ? " class=\"choice\"" : "")>\(htmlEscape(text))</p>")
            case .table(let header, let rows):
                closeList()
                out.append(htmlTable(header: header, rows: rows))
            case .writeIn(let text):
                closeList()
                let blanks = handout && text.allSatisfy({ $0 == "_" || $0.isWhitespace })
                out.append(blanks ? "<div class=\"write\"><i></i></div>" : "<p class=\"write-line\">\(htmlEscape(text))</p>")
            case .blank:
                // A blank line inside a numbered list (between prompts) keeps the list open.
                if openList == "ol", case .numbered = blocks.dropFirst(index + 1).first(where: { $0 != .blank }) {
                    continue
                }
                closeList()
            case .title:
                break
            }
        }
        flushTitles()
        closeList()
        if inSlip { out.append("</div>") }
        if inPart { out.append("</section>") }
    }

    /// A table the plan writes with pipes, a header row and a row per line.
    static func htmlTable(header: [String], rows: [[String]]) -> String {
        "<table class=\"plan-table\"><thead><tr>" + header.map { "<th scope=\"col\">\(htmlEscape($0))</th>" }.joined()
            + "</tr></thead><tbody>" + rows.map { "<tr>" + $0.map { "<td>\(htmlEscape($0))</td>" }.joined() + "</tr>" }.joined()
            + "</tbody></table>"
    }

    /// Whether a heading names the exit ticket, the slip students hand in at the door.
    static func isExitTicket(_ heading: String) -> Bool {
        let words = heading.lowercased()
        return words.contains("exit ticket") || words.contains("exit slip")
    }

    /// Each quiz without its key, on a page of its own, every item kept with its options.
    /// - Parameter warnings: the line over a quiz that did not pass its check, by kind (the teacher's copy only).
    private static func appendQuizzes(_ quizzes: [Quiz], warnings: [Quiz.Kind: String], to out: inout [String]) {
        for quiz in quizzes where !quiz.items.isEmpty {
            out.append(contentsOf: ["<section class=\"quiz quiz-\(quiz.kind.rawValue)\">", "<h2>\(htmlEscape(quiz.title))</h2>"])
            if let warning = warnings[quiz.kind] { out.append("<p class=\"failed-check\">⚠ \(htmlEscape(warning))</p>") }
            out.append("<ol>")
            for item in quiz.items {
                let options = item.options.map { "<li>\(htmlEscape($0.text))</li>" }.joined()
                out.append("<li class=\"quiz-item\">\(htmlEscape(item.stem))<ol type=\"A\">\(options)</ol></li>")
            }
            out.append(contentsOf: ["</ol>", "</section>"])
        }
    }

    /// A table for the teacher alone, the first cell of each row its heading, a row that needs the teacher's eye
    /// marked; teacher's page only.
    private static func appendTeacherTable(_ table: TeacherTable, to out: inout [String]) {
        out.append("<section class=\"teacher-table \(htmlEscape(table.key))\">")
        out.append("<h2>\(htmlEscape(table.title))</h2>")
        out.append("<p class=\"caveat\">\(htmlEscape(table.caveat))</p>")
        let header = table.header.map { "<th scope=\"col\">\(htmlEscape($0))</th>" }.joined()
        out.append("<table><thead><tr>\(header)</tr></thead><tbody>")
        for (index, row) in table.rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column == 0 ? "<th scope=\"row\">\(htmlEscape(cell))</th>" : "<td>\(htmlEscape(cell))</td>"
            }
            out.append("<tr\(table.marked.contains(index) ? " class=\"marked\"" : "")>\(cells.joined())</tr>")
        }
        out.append("</tbody></table>")
        out.append("<p class=\"summary\">\(htmlEscape(table.summary))</p>")
        if let source = table.source { out.append("<p class=\"source\">\(htmlEscape(source))</p>") }
        out.append("</section>")
    }

    /// The quiz without its key, the rubric (the students' on a handout), and for the teacher the key on a new page.
    private static func appendAssessments(_ document: ExportDocument, handout: Bool, to out: inout [String]) {
        appendQuizzes(handout ? document.laterQuizzes : document.quizzes, warnings: handout ? [:] : document.quizWarnings, to: &out)
        // A rubric without rows is never printed as an empty table.
        if let rubric = document.rubric.map({ handout ? $0.forStudents : $0 }), !rubric.levels.isEmpty, !rubric.criteria.isEmpty {
            out.append("<section class=\"rubric\">")
            out.append("<h2>\(htmlEscape(rubric.task.isEmpty ? "Rubric" : "Rubric: \(rubric.task)"))</h2>")
            if !handout, let warning = document.rubricWarning { out.append("<p class=\"failed-check\">⚠ \(htmlEscape(warning))</p>") }
            out.append("<table class=\"rubric-table\"><thead><tr><th scope=\"col\">Criterion</th>")
            out.append(rubric.levels.map { "<th scope=\"col\">\(htmlEscape($0.title))</th>" }.joined() + "</tr></thead><tbody>")
            for criterion in rubric.criteria {
                out.append(
                    "<tr><th scope=\"row\">\(htmlEscape(criterion.name))</th>"
                        + criterion.cells.map { "<td>\(htmlEscape($0))</td>" }.joined() + "</tr>")
            }
            out.append(contentsOf: ["</tbody></table>", "</section>"])
        }
        for quiz in handout ? [] : document.quizzes where !quiz.items.isEmpty {
            out.append(contentsOf: ["<section class=\"answer-key\">", "<h2>\(quiz.keyTitle)</h2>", "<ol>"])
            for item in quiz.items {
                let reasons = item.explainedDistractors.map { option in
                    let feedback =
                        option.feedback.isEmpty
                        ? "" : "<br><span class=\"student-feedback\">\(htmlEscape(QuizOption.feedbackLabel + option.feedback))</span>"
                    return "<li>\(htmlEscape("\(option.letter)) \(option.text): \(option.misconceptionShown)"))\(feedback)</li>"
                }.joined()
                out.append(
                    "<li><strong>\(htmlEscape(item.keyText))</strong>"
                        + (reasons.isEmpty ? "" : "<ul>\(reasons)</ul>") + "</li>")
            }
            out.append("</ol>")
            if !quiz.misconceptions.isEmpty {
                out.append("<p><strong>Misconceptions it probes</strong></p><ul>")
                out.append(contentsOf: quiz.misconceptions.map { "<li>\(htmlEscape($0))</li>" })
                out.append("</ul>")
            }
            out.append("</section>")
        }
    }

    private static func appendPacing(_ document: ExportDocument, to out: inout [String]) {
        out.append(contentsOf: ["<section class=\"pacing\">", "<h2>Pacing</h2>"])
        guard !document.pacing.isEmpty else {
            out.append(contentsOf: [
                "<p>No section says how many minutes it takes, so there is no pacing to show.</p>", "</section>",
            ])
            return
        }
        out.append(contentsOf: [
            "<table class=\"pacing-table\">",
            "<thead><tr><th scope=\"col\">Section</th><th scope=\"col\">Minutes</th>"
                + "<th scope=\"col\">Length</th></tr></thead>",
            "<tbody>",
        ])
        for row in pacingRows(document) {
            switch row {
            case .segment(let segment, let over):
                let mark = Pacing.isStarred(segment, in: document.pacing) ? "<sup>*</sup>" : ""
                out.append(
                    "<tr\(over ? " class=\"over\"" : "")><td>\(htmlEscape(segment.heading))</td>"
                        + "<td>\(segment.start)–\(segment.end)\(mark)</td><td>\(segment.minutes) min</td></tr>")
            case .lessonEnd(let minutes):
                out.append(
                    "<tr class=\"lesson-end\"><td>Lesson ends</td><td>\(minutes)</td><td></td></tr>")
            }
        }
        out.append(contentsOf: ["</tbody>", "</table>"])
        var notes = Pacing.notes(document.pacing, lessonMinutes: document.minutes).map(\.description)
        if let footnote = Pacing.placementNote(document.pacing) { notes.append(footnote) }
        if !notes.isEmpty {
            out.append("<ul class=\"pacing-notes\">")
            for note in notes { out.append("<li>\(htmlEscape(note))</li>") }
            out.append("</ul>")
        }
        out.append("</section>")
    }

    /// The pacing as a timeline (the lesson's end marked, any overrun shaded): after the plan, so that page 1
    /// shows the pacing once, as a table, and the plan's start.
    private static func appendTimeline(_ document: ExportDocument, to out: inout [String]) {
        guard !document.pacing.isEmpty else { return }
        out.append(contentsOf: ["<section class=\"timeline-section\">", "<h2>Timeline</h2>", "<div class=\"timeline\">"])
        // Bars are scaled to the lesson, or to the last section's end if the pacing runs over.
        let lesson = max(document.minutes, 1)
        let total = max(lesson, document.pacing.map(\.end).max() ?? 0)
        let endAt = percent(lesson, of: total)
        for row in document.pacing {
            let start = max(0, min(row.start, total))
            let end = max(start, min(row.end, total))
            let inside = max(0, min(end, lesson) - start)
            let past = max(0, end - max(start, lesson))
            var bars = ""
            if inside > 0 {
                bars +=
                    "<div class=\"timeline-bar\" style=\"left: \(percent(start, of: total))%; "
                    + "width: \(percent(inside, of: total))%\"></div>"
            }
            if past > 0 {
                bars +=
                    "<div class=\"timeline-bar timeline-over\" style=\"left: \(percent(max(start, lesson), of: total))%; "
                    + "width: \(percent(past, of: total))%\"></div>"
            }
            out.append(
                "<div class=\"timeline-row\"><span class=\"timeline-label\">\(htmlEscape(row.heading))</span>"
                    + "<div class=\"timeline-track\">\(bars)<div class=\"timeline-end\" style=\"left: \(endAt)%\"></div>"
                    + "</div></div>")
        }
        // The label reads away from the page's edge: after the mark early in the track, before it late.
        let early = lesson * 10 < total * 6
        let endLabel =
            early
            ? "<span class=\"axis-end\" style=\"left: \(endAt)%\">▲ Lesson ends at \(document.minutes) min</span>"
            : "<span class=\"axis-end axis-end-left\" style=\"right: \(percent(total - lesson, of: total))%\">"
                + "Lesson ends at \(document.minutes) min ▲</span>"
        out.append(
            "<div class=\"timeline-row timeline-axis\"><span class=\"timeline-label\"></span>"
                + "<div class=\"timeline-scale\"><span class=\"axis-start\">0</span>\(endLabel)</div></div>")
        out.append(contentsOf: ["</div>", "</section>"])
    }

    /// `part / total` as a percentage with two decimals, computed in integers so no locale can creep in.
    static func percent(_ part: Int, of total: Int) -> String {
        guard total > 0 else { return "0.00" }
        let hundredths = (part * 10_000 + total / 2) / total
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
