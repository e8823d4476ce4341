import Foundation
import LessonPlanCore

/// Pure renderers for `/export`: each returns the whole file's contents and the caller writes it.
///
/// Every renderer reads the plan through one ``PlanDocument``: the headings, lists and numbering on the
/// page are the ones the check and pacing saw. A teacher's page carries the check's banner when the
/// version fails, the version and its local date, and the pacing near the top; a handout page carries
/// Name / Date / Class lines and room to write, and leaves out everything for the teacher alone.
package enum PlanExport {
    /// The plan's ten section headings, recognised as headings when no other list is given.
    package static var defaultHeadings: [String] { (try? PromptLibrary.builtIn.headings()) ?? [] }

    // MARK: JSON

    /// The inputs, every version, the current version number and its text, its pacing and its check,
    /// pretty-printed with sorted keys.
    ///
    /// Dates are ISO 8601 to the second: this is data for programs, not a page.
    /// - Throws: `EncodingError`, which these plain values do not produce in practice.
    package static func renderJSON(_ document: ExportDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(document)
    }

    /// Reads back what ``renderJSON(_:)`` wrote.
    /// - Throws: `DecodingError` when the data is not such an export.
    package static func decodeJSON(_ data: Data) throws -> ExportDocument {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ExportDocument.self, from: data)
    }

    // MARK: Any text format

    /// The bytes of `document` in one of the formats written here (Markdown, HTML, JSON).
    /// - Throws: ``ExportError`` for a format made through pandoc, `EncodingError` from ``renderJSON(_:)``.
    package static func render(_ document: ExportDocument, plan: PlanDocument, format: ExportFormat) throws -> Data {
        switch format {
        // Markdown is read in terminals and editors as it is, so it gets the terminal's sanitiser too.
        case .md: return Data(TerminalSanitizer.clean(renderMarkdown(document, plan: plan)).utf8)
        case .html: return Data(renderHTML(document, plan: plan).utf8)
        case .json: return try renderJSON(document)
        case .docx, .odt, .pptx:
            // Editable documents are made through pandoc (`ExportCommand.document`), not here.
            throw ExportError(
                "A .\(format.rawValue) is made through pandoc; use /export \(format.rawValue) FILE or lessonplan export --format \(format.rawValue).")
        }
    }

    // MARK: Shared

    /// The page's title: what it is and the topic; the plan's own title lines follow it.
    static func pageTitle(_ document: ExportDocument, plan: PlanDocument) -> String {
        document.title
    }

    static func bannerTitle(_ check: ExportCheck) -> String {
        let count = check.problems.count == 1 ? "1 problem" : "\(check.problems.count) problems"
        return "This version does not pass the plan check (\(count)); /repair can fix it before you print."
    }

    /// The version, when it was written in local time, and the command that made it.
    static func versionLine(_ document: ExportDocument, timeZone: TimeZone) -> String {
        "Version " + versionText(document, timeZone: timeZone)
    }

    /// `2 of 3 · 15 June 2025, 17:06 · /shorten`.
    private static func versionText(_ document: ExportDocument, timeZone: TimeZone) -> String {
        let count = document.versions.count
        guard count > 0, let version = document.currentVersionRecord else { return "none yet" }
        return "\(version.number) of \(count) · \(localDate(version.createdAt, timeZone: timeZone)) · \(version.command)"
    }

    /// A date as a teacher reads it, in the teacher's own time zone: `15 June 2025, 17:06`.
    package static func localDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    /// For handouts made from an older plan version: what to tell the teacher on the page.
    static func staleMark(_ document: ExportDocument) -> String? {
        guard document.isStale, let made = document.planVersion, let latest = document.latestPlanVersion else {
            return nil
        }
        return "Made from plan v\(made); the plan is now v\(latest). Type /materials to make handouts that match it."
    }

    static func handoutFooter(_ document: ExportDocument, timeZone: TimeZone) -> String {
        let made = document.planVersion.map { " from plan v\($0)" } ?? ""
        let date = document.currentVersionRecord.map { " · \(localDate($0.createdAt, timeZone: timeZone))" } ?? ""
        return "Handouts \(document.currentVersion)\(made)\(date)"
    }

    /// The labelled inputs the Markdown header and the HTML table show.
    static func inputRows(_ document: ExportDocument, timeZone: TimeZone) -> [(String, String)] {
        var rows = [
            ("Version", versionText(document, timeZone: timeZone)),
            ("Grade band", document.grade),
            ("Lesson length", "\(document.minutes) minutes"),
            ("Topic", document.topic),
            ("Standards", document.standards.isEmpty ? "none given" : document.standards),
            ("Constraints", document.constraints.isEmpty ? "none given" : document.constraints),
        ]
        if !document.framework.isEmpty { rows.insert(("Framework", document.framework), at: 4) }
        if document.showModel { rows.append(("Model", document.model.isEmpty ? "unknown" : document.model)) }
        return rows
    }

    /// The pacing table's rows in time order, with the lesson's end among them and what lies past it marked.
    static func pacingRows(_ document: ExportDocument) -> [PacingRow] {
        var rows: [PacingRow] = []
        var placedEnd = false
        for segment in document.pacing {
            if !placedEnd, segment.start >= document.minutes {
                rows.append(.lessonEnd(document.minutes))
                placedEnd = true
            }
            rows.append(.segment(segment, over: segment.end > document.minutes))
        }
        if !placedEnd { rows.append(.lessonEnd(document.minutes)) }
        return rows
    }

    enum PacingRow {
        case segment(PacingSegment, over: Bool)
        case lessonEnd(Int)
    }
}

extension PlanExport {
    /// One line of a plan as a page shows it.
    enum PageBlock: Equatable, Sendable {
        case title(String)
        /// A heading, level 2 for one that opens a section and 3 for a sub-heading.
        case heading(String, level: Int)
        case bullet(String)
        case numbered(Int, String)
        /// A lettered option (`a) 1/2`), shown with its letter.
        case choice(String)
        case paragraph(String)
        /// Blanks to write on, such as `Name: ______`.
        case writeIn(String)
        /// A table the plan writes with pipes (`/accommodate`'s supports): its header and rows. Teacher's copy only.
        case table(header: [String], rows: [[String]])
        case blank

        var isBullet: Bool {
            if case .bullet = self { return true }
            return false
        }

        var isNumbered: Bool {
            if case .numbered = self { return true }
            return false
        }

        var isTitle: Bool {
            if case .title = self { return true }
            return false
        }

        var isChoice: Bool {
            if case .choice = self { return true }
            return false
        }

        var isWriteIn: Bool {
            if case .writeIn = self { return true }
            return false
        }
    }

    /// The document's blocks as a page shows them; a handout leaves out teacher-only parts and minute stamps.
    static func pageBlocks(_ plan: PlanDocument, handout: Bool) -> [PageBlock] {
        var result: [PageBlock] = []
        for block in plan.blocks {
            if handout, let reason = block.teacher, reason != .minuteStamp { continue }
            switch block {
            case .blank:
                result.append(.blank)
            case .title(let text):
                // A handout page prints its own Name / Date / Class lines.
                if handout && PlanText(text: text, teacher: nil).isWriteIn { continue }
                result.append(.title(text))
            case .heading(let heading):
                // A handout's parts are all one level: Practice is as much a part as the exit ticket.
                result.append(.heading(handout ? heading.plainText : heading.text, level: heading.opensSection || handout ? 2 : 3))
            case .item(let item):
                let text = handout ? MinuteText.withoutStamps(item.text) : item.text
                switch item.kind {
                case .numbered: result.append(.numbered(item.number ?? 1, text))
                case .bulleted: result.append(.bullet(text))
                case .lettered: result.append(.choice("\(item.marker) \(text)"))
                }
            case .text(let line) where AccommodationTable.isTableLine(line.text):
                // A row about a student is the teacher's: never on a handout.
                if handout { continue }
                let cells = AccommodationTable.cells(line.text)
                if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }
                if case .table(let header, var rows)? = result.last {
                    rows.append(cells)
                    result[result.count - 1] = .table(header: header, rows: rows)
                } else {
                    result.append(.table(header: cells, rows: []))
                }
            case .text(let line):
                if line.isWriteIn {
                    if handout, line.text.lowercased().hasPrefix("name") { continue }
                    result.append(.writeIn(line.text))
                } else {
                    result.append(.paragraph(handout ? MinuteText.withoutStamps(line.text) : line.text))
                }
            }
        }
        return result
    }
}
