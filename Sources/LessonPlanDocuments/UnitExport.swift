import Foundation
import LessonPlanCore
import LessonPlanStore

/// A whole unit as one document: a title, the overview, a contents list, then each lesson as its own part
/// ("Lesson 1: …", its pacing, its plan with the exit ticket), each lesson rendered by the same per-plan code as a
/// single lesson's export (``PlanExport``, ``DocumentExport``), so a lesson reads the same alone or in its unit.
package enum UnitExport {
    /// The formats a unit exports to: one document for a person to read or edit.
    package static let formats: [ExportFormat] = [.md, .html, .docx, .odt]

    /// What a unit exports as, for a sentence: its document formats and a Common Cartridge.
    static let formatNames = formats.map(\.rawValue).joined(separator: ", ") + " or imscc"

    /// The unit's document in `format`, from its overview and its written lessons (``UnitExport/lessons(of:prompts:showModel:)``
    /// gathers them from a session).
    /// - Parameter pandoc: for docx and odt.
    /// - Throws: ``ExportError`` with no lesson written or for json/pptx; ``DocumentError`` from pandoc.
    package static func render(
        _ unit: UnitRecord, lessons: [Lesson], format: ExportFormat, prompts: PromptLibrary, pandoc: Pandoc?,
        timeZone: TimeZone = .current
    ) async throws -> Data {
        guard formats.contains(format) else {
            throw ExportError(
                "A unit exports as \(formatNames); /export unit docx, say, writes the whole unit as one document, /export unit imscc as a Common Cartridge."
            )
        }
        guard !lessons.isEmpty else { throw ExportError("No lesson of the unit is written yet; /unit continue writes them.") }
        switch format {
        case .md: return Data(markdown(unit, lessons: lessons, timeZone: timeZone).utf8)
        case .html: return Data(html(unit, lessons: lessons, timeZone: timeZone).utf8)
        default:
            guard let document = format.document else { throw ExportError("A unit exports as \(formatNames).") }
            guard let pandoc else { throw DocumentError.pandocMissing(document) }
            var built = pandocDocument(unit, lessons: lessons, format: document, timeZone: timeZone)
            built.blocks = DocumentExport.forWriter(built.blocks, format: document)
            return try await pandoc.convert(built, to: document, reference: prompts.referenceDocument(for: document.rawValue))
        }
    }

    /// One written lesson as its own export reads it.
    package struct Lesson: Sendable {
        var number: Int
        var title: String
        var objective: String
        var export: ExportDocument
        var plan: PlanDocument

        package init(number: Int, title: String, objective: String, export: ExportDocument, plan: PlanDocument) {
            self.number = number
            self.title = title
            self.objective = objective
            self.export = export
            self.plan = plan
        }
    }

    /// The lines of the overview and contents every format shares.
    static func overviewLines(_ unit: UnitRecord) -> (subtitle: String, questions: [String]) {
        let lessons = unit.lessons == 1 ? "1 lesson" : "\(unit.lessons) lessons"
        return ("\(unit.inputs.gradeText.capitalizedFirst) · \(lessons) of \(unit.inputs.minutes) minutes", unit.questions)
    }

    static func heading(_ lesson: Lesson) -> String { "Lesson \(lesson.number): \(lesson.title)" }

    // MARK: Markdown

    static func markdown(_ unit: UnitRecord, lessons: [Lesson], timeZone: TimeZone) -> String {
        let (subtitle, questions) = overviewLines(unit)
        var out = ["# Unit: \(plain(unit.inputs.topic))", "", subtitle, "", "## Overview", ""]
        if !unit.goal.isEmpty { out += ["**Goal:** \(plain(unit.goal))", ""] }
        if !questions.isEmpty { out += ["**Essential questions:**", ""] + questions.map { "- \(plain($0))" } + [""] }
        out += ["## Contents", ""]
        for (index, outline) in unit.outline.enumerated() {
            let written = lessons.contains { $0.number == index + 1 } ? "" : " (not written yet)"
            out.append("\(index + 1). Lesson \(index + 1): \(plain(outline.title)) — \(plain(outline.objective))\(written)")
        }
        for lesson in lessons {
            out += ["", "---", "", "# \(plain(heading(lesson)))", ""]
            // The lesson's own page one level down, so the unit's outline keeps lessons at the top.
            let page = PlanExport.renderMarkdown(lesson.export, plan: lesson.plan, timeZone: timeZone)
            out += page.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("#") && line.prefix { $0 == "#" }.count < 6 ? "#" + line : String(line)
            }
        }
        return out.joined(separator: "\n") + (out.last == "" ? "" : "\n")
    }

    /// Model text in Markdown without being read as markup: the characters that start emphasis, links or HTML escaped.
    static func plain(_ text: String) -> String {
        var out = ""
        for character in TerminalSanitizer.cleanLine(text, limit: 2000) {
            if "\\`*_[]<>#|".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    // MARK: HTML

    static func html(_ unit: UnitRecord, lessons: [Lesson], timeZone: TimeZone) -> String {
        let escape = PlanExport.htmlEscape
        let pages = lessons.map { PlanExport.renderHTML($0.export, plan: $0.plan, timeZone: timeZone) }
        let style = pages.first.flatMap { between($0, "<style>\n", "\n</style>") } ?? ""
        var out = overviewHTML(unit, lessons: lessons, style: [style, "section.lesson { break-before: page; }"], linked: true)
        for (lesson, page) in zip(lessons, pages) {
            // The lesson's own page one level down, so each lesson is a part of the unit.
            var body = between(page, "<main>\n", "\n</main>") ?? ""
            for level in (1...5).reversed() {
                body = body.replacingOccurrences(of: "<h\(level)", with: "<h\(level + 1)")
                    .replacingOccurrences(of: "</h\(level)>", with: "</h\(level + 1)>")
            }
            out += [
                "<section class=\"lesson\" id=\"lesson-\(lesson.number)\">", "<h1>\(escape(heading(lesson)))</h1>", body,
                "</section>",
            ]
        }
        out += ["</main>", "</body>", "</html>"]
        return out.joined(separator: "\n") + "\n"
    }

    /// The start of the unit's page, open at its `<main>`: the title, the overview and the contents list.
    /// - Parameters:
    ///   - style: The lines of its style sheet.
    ///   - linked: Each written lesson's name in the contents links to its part of the page (`#lesson-N`).
    static func overviewHTML(_ unit: UnitRecord, lessons: [Lesson], style: [String], linked: Bool) -> [String] {
        let escape = PlanExport.htmlEscape
        let (subtitle, questions) = overviewLines(unit)
        let title = escape("Unit: " + unit.inputs.topic)
        var out = [
            "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">", "<title>\(title)</title>",
            "<style>",
        ]
        out +=
            style + [
                "</style>", "</head>", "<body class=\"teacher\">", "<main>", "<h1>\(title)</h1>", "<p>\(escape(subtitle))</p>",
                "<h2>Overview</h2>",
            ]
        if !unit.goal.isEmpty { out.append("<p><strong>Goal:</strong> \(escape(unit.goal))</p>") }
        if !questions.isEmpty {
            out.append("<p><strong>Essential questions:</strong></p>")
            out.append("<ul>" + questions.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
        }
        out.append("<h2>Contents</h2>")
        out.append("<ol>")
        for (index, outline) in unit.outline.enumerated() {
            let number = index + 1
            let name = escape("Lesson \(number): \(outline.title)")
            let written = lessons.contains { $0.number == number }
            let link = !written ? "\(name) (not written yet)" : linked ? "<a href=\"#lesson-\(number)\">\(name)</a>" : name
            out.append("<li>\(link) — \(escape(outline.objective))</li>")
        }
        out.append("</ol>")
        return out
    }

    /// The text between two markers, or nil when they are not both there.
    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let open = text.range(of: start), let close = text.range(of: end, range: open.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[open.upperBound..<close.lowerBound])
    }

    // MARK: Word-processor documents

    static func pandocDocument(_ unit: UnitRecord, lessons: [Lesson], format: DocumentFormat, timeZone: TimeZone)
        -> PandocDocument
    {
        let (subtitle, questions) = overviewLines(unit)
        var blocks: [PandocBlock] = [.para([.text(subtitle)]), .header(1, [.text("Overview")])]
        if !unit.goal.isEmpty { blocks.append(.para([.strong([.text("Goal:")]), .text(" " + unit.goal)])) }
        if !questions.isEmpty {
            blocks.append(.para([.strong([.text("Essential questions:")])]))
            blocks.append(.bulletList(questions.map { [.plain([.text($0)])] }))
        }
        blocks.append(.header(1, [.text("Contents")]))
        blocks.append(
            .orderedList(
                start: 1, numbering: .decimal,
                unit.outline.enumerated().map { index, outline in
                    let written = lessons.contains { $0.number == index + 1 } ? "" : " (not written yet)"
                    return [.plain([.text("Lesson \(index + 1): \(outline.title) — \(outline.objective)\(written)")])]
                }))
        for lesson in lessons {
            blocks.append(.newPage(.header(1, [.text(heading(lesson))])))
            let page = DocumentExport.page(lesson.export, plan: lesson.plan, format: format, timeZone: timeZone)
            blocks += page.blocks.map(demoted)
        }
        return PandocDocument(title: "Unit: \(unit.inputs.topic)", subtitle: nil, blocks: blocks)
    }

    /// A lesson's block one heading level down, so each lesson is a part (Heading 1) of the unit.
    static func demoted(_ block: PandocBlock) -> PandocBlock {
        switch block {
        case .header(let level, let inlines): .header(min(level + 1, 6), inlines)
        case .div(let classes, let blocks): .div(classes: classes, blocks.map(demoted))
        case .styled(let style, let blocks): .styled(style, blocks.map(demoted))
        case .newPage(let block): .newPage(demoted(block))
        default: block
        }
    }
}
