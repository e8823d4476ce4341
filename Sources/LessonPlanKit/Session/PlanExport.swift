import Foundation

/// One saved version of the plan as exported: which command made it, when, and its text.
public struct ExportVersion: Codable, Equatable, Sendable {
    public var number: Int
    /// The command that produced this version, e.g. "generate" or "/shorten".
    public var command: String
    public var createdAt: Date
    public var text: String

    public init(number: Int, command: String, createdAt: Date, text: String) {
        self.number = number
        self.command = command
        self.createdAt = createdAt
        self.text = text
    }

    private enum CodingKeys: String, CodingKey {
        case number, command, createdAt = "created", text
    }
}

/// Everything an export needs, gathered by the session so the renderers stay pure.
public struct ExportDocument: Codable, Equatable, Sendable {
    /// The lesson topic, which also titles the document.
    public var topic: String
    /// The grade band as shown to teachers, e.g. "6–8".
    public var grade: String
    public var minutes: Int
    public var standards: String
    public var constraints: String
    /// The model that wrote the plan.
    public var model: String
    /// When the session started.
    public var created: Date
    public var versions: [ExportVersion]
    public var currentVersion: Int
    public var pacing: [PacingSegment]
    /// What is exported: `plan`, or `materials` for student handouts (titled so, without pacing).
    public var kind: TurnKind
    /// How the plan's structure is named, e.g. "the 5E model (…)"; empty leaves the row out.
    public var framework: String

    public init(
        topic: String, grade: String, minutes: Int, standards: String = "", constraints: String = "",
        model: String = "", created: Date, versions: [ExportVersion], currentVersion: Int,
        pacing: [PacingSegment] = [], kind: TurnKind = .plan, framework: String = ""
    ) {
        self.topic = topic
        self.grade = grade
        self.minutes = minutes
        self.standards = standards
        self.constraints = constraints
        self.model = model
        self.created = created
        self.versions = versions
        self.currentVersion = currentVersion
        self.pacing = pacing
        self.kind = kind
        self.framework = framework
    }

    /// The document's title: what it is and the topic.
    public var title: String { (kind == .materials ? "Student materials: " : "Lesson plan: ") + topic }

    /// The current version's text; the latest version's if the number is unknown, empty without versions.
    public var currentText: String {
        (versions.first { $0.number == currentVersion } ?? versions.last)?.text ?? ""
    }

    // The JSON groups the teacher's inputs and repeats the current text so a reader need not look it up.
    private enum CodingKeys: String, CodingKey {
        case inputs, versions, currentVersion, currentPlan, pacing, kind
    }

    private enum InputKeys: String, CodingKey {
        case topic, grade, minutes, standards, constraints, model, created, framework
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let inputs = try container.nestedContainer(keyedBy: InputKeys.self, forKey: .inputs)
        topic = try inputs.decode(String.self, forKey: .topic)
        grade = try inputs.decode(String.self, forKey: .grade)
        minutes = try inputs.decode(Int.self, forKey: .minutes)
        standards = try inputs.decodeIfPresent(String.self, forKey: .standards) ?? ""
        constraints = try inputs.decodeIfPresent(String.self, forKey: .constraints) ?? ""
        model = try inputs.decodeIfPresent(String.self, forKey: .model) ?? ""
        created = try inputs.decode(Date.self, forKey: .created)
        versions = try container.decode([ExportVersion].self, forKey: .versions)
        currentVersion = try container.decode(Int.self, forKey: .currentVersion)
        pacing = try container.decodeIfPresent([PacingSegment].self, forKey: .pacing) ?? []
        kind = try container.decodeIfPresent(TurnKind.self, forKey: .kind) ?? .plan
        framework = try inputs.decodeIfPresent(String.self, forKey: .framework) ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var inputs = container.nestedContainer(keyedBy: InputKeys.self, forKey: .inputs)
        try inputs.encode(topic, forKey: .topic)
        try inputs.encode(grade, forKey: .grade)
        try inputs.encode(minutes, forKey: .minutes)
        try inputs.encode(standards, forKey: .standards)
        try inputs.encode(constraints, forKey: .constraints)
        try inputs.encode(model, forKey: .model)
        try inputs.encode(created, forKey: .created)
        if !framework.isEmpty { try inputs.encode(framework, forKey: .framework) }
        try container.encode(versions, forKey: .versions)
        try container.encode(currentVersion, forKey: .currentVersion)
        try container.encode(currentText, forKey: .currentPlan)
        try container.encode(pacing, forKey: .pacing)
        try container.encode(kind, forKey: .kind)
    }
}

/// Pure renderers for `/export`: each returns the whole file's contents and the caller writes it.
public enum PlanExport {
    /// The plan's ten section headings, recognised as headings when no other list is given.
    public static var defaultHeadings: [String] { (try? PromptLibrary.builtIn.headings()) ?? [] }

    /// Lines longer than this are never taken for headings, however they start.
    static let headingLengthLimit = 80

    // MARK: Markdown

    /// The inputs as a header block, then the current plan with headings and lists in Markdown.
    ///
    /// Only headings, bullets and numbered items are rewritten; everything else is copied as is.
    public static func renderMarkdown(_ document: ExportDocument, headings: [String] = defaultHeadings) -> String {
        var out: [String] = [
            "# \(document.title)",
            "",
        ]
        for (label, value) in inputRows(document) {
            out.append("- **\(label):** \(value)")
        }
        out.append(contentsOf: ["", "---", ""])

        var previous: Block?
        for block in blocks(document.currentText, headings: headings) {
            switch block {
            case .blank:
                appendBlank(&out)
            case .heading(let text):
                appendBlank(&out)
                out.append("## \(text)")
                out.append("")
            case .bullet(let text):
                if let previous, !previous.isBullet { appendBlank(&out) }
                out.append("- \(text)")
            case .numbered(let number, let text):
                if let previous, !previous.isNumbered { appendBlank(&out) }
                out.append("\(number). \(text)")
            case .paragraph(let text):
                if let previous, previous.isBullet || previous.isNumbered { appendBlank(&out) }
                out.append(text)
            }
            previous = block
        }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    /// Adds one empty line unless the output already ends with one, so blocks are separated once.
    private static func appendBlank(_ out: inout [String]) {
        if out.last != "" { out.append("") }
    }

    // MARK: HTML

    /// One self-contained printable page: inputs, plan, pacing table and a CSS timeline, no scripts
    /// or outside assets, every piece of text escaped.
    public static func renderHTML(_ document: ExportDocument, headings: [String] = defaultHeadings) -> String {
        let title = htmlEscape(document.title)
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
            "<body>",
            "<main>",
            "<h1>\(title)</h1>",
            "<table class=\"inputs\">",
            "<tbody>",
        ]
        for (label, value) in inputRows(document) {
            out.append("<tr><th scope=\"row\">\(htmlEscape(label))</th><td>\(htmlEscape(value))</td></tr>")
        }
        out.append(contentsOf: ["</tbody>", "</table>", "<section class=\"plan\">"])
        appendPlan(blocks(document.currentText, headings: headings), to: &out)
        out.append("</section>")
        if document.kind == .plan { appendPacing(document, to: &out) }
        out.append(contentsOf: ["</main>", "</body>", "</html>"])
        return out.joined(separator: "\n") + "\n"
    }

    /// Escapes the five characters that can end text or an attribute value early: & < > " '.
    public static func htmlEscape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
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

    private static func appendPlan(_ blocks: [Block], to out: inout [String]) {
        // The open list, if any: "ul" or "ol".
        var openList: String?
        func closeList() {
            if let list = openList { out.append("</\(list)>") }
            openList = nil
        }
        for block in blocks {
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
                out.append("<li>\(htmlEscape(text))</li>")
            case .heading(let text):
                closeList()
                out.append("<h2>\(htmlEscape(text))</h2>")
            case .paragraph(let text):
                closeList()
                out.append("<p>\(htmlEscape(text))</p>")
            case .blank:
                closeList()
            }
        }
        closeList()
    }

    private static func appendPacing(_ document: ExportDocument, to out: inout [String]) {
        out.append(contentsOf: ["<section class=\"pacing\">", "<h2>Pacing</h2>"])
        guard !document.pacing.isEmpty else {
            out.append(contentsOf: ["<p>No pacing was given for this plan.</p>", "</section>"])
            return
        }
        out.append(contentsOf: [
            "<table class=\"pacing-table\">",
            "<thead><tr><th scope=\"col\">Section</th><th scope=\"col\">Minutes</th>"
                + "<th scope=\"col\">Length</th></tr></thead>",
            "<tbody>",
        ])
        for row in document.pacing {
            out.append(
                "<tr><td>\(htmlEscape(row.heading))</td><td>\(row.start)–\(row.end)</td>"
                    + "<td>\(row.minutes) min</td></tr>")
        }
        out.append(contentsOf: ["</tbody>", "</table>", "<div class=\"timeline\">"])
        // Bars are scaled to the lesson, or to the last section's end if the pacing runs over.
        let total = max(document.minutes, document.pacing.map(\.end).max() ?? 0, 1)
        for row in document.pacing {
            let left = percent(max(0, min(row.start, total)), of: total)
            let width = percent(min(row.minutes, total - max(0, min(row.start, total))), of: total)
            out.append(
                "<div class=\"timeline-row\"><span class=\"timeline-label\">\(htmlEscape(row.heading))</span>"
                    + "<div class=\"timeline-track\"><div class=\"timeline-bar\" "
                    + "style=\"left: \(left)%; width: \(width)%\"></div></div></div>")
        }
        out.append(contentsOf: ["</div>", "</section>"])
    }

    /// `part / total` as a percentage with two decimals, computed in integers so no locale can creep in.
    static func percent(_ part: Int, of total: Int) -> String {
        guard total > 0 else { return "0.00" }
        let hundredths = (part * 10_000 + total / 2) / total
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static let stylesheet = """
        :root { color-scheme: light; }
        body { font-family: Georgia, "Times New Roman", serif; line-height: 1.45; color: #111; background: #fff; }
        body { margin: 2rem auto; max-width: 48rem; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin-bottom: 0.75rem; }
        h2 { font-size: 1.2rem; margin: 1.4rem 0 0.4rem; border-bottom: 1px solid #ccc; padding-bottom: 0.15rem; }
        table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
        th, td { border: 1px solid #bbb; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
        table.inputs th { width: 11rem; background: #f3f3f3; }
        .timeline { margin: 0.5rem 0 1rem; }
        .timeline-row { display: flex; align-items: center; margin: 0.2rem 0; }
        .timeline-label { flex: 0 0 14rem; font-size: 0.9rem; padding-right: 0.5rem; }
        .timeline-track { position: relative; flex: 1 1 auto; height: 1rem; background: #eee; }
        .timeline-bar { position: absolute; top: 0; bottom: 0; background: #3a7d44; }
        @media print {
          body { margin: 0; max-width: none; font-size: 11pt; }
          h2 { break-after: avoid; page-break-after: avoid; }
          table, li, .timeline-row { break-inside: avoid; page-break-inside: avoid; }
          .timeline-track, .timeline-bar, table.inputs th {
            -webkit-print-color-adjust: exact; print-color-adjust: exact;
          }
        }
        """

    // MARK: JSON

    /// The inputs, every version, the current version number and its text, pretty-printed with sorted keys.
    ///
    /// Dates are ISO 8601 to the second.
    /// - Throws: `EncodingError`, which these plain values do not produce in practice.
    public static func renderJSON(_ document: ExportDocument) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(document)
    }

    /// Reads back what ``renderJSON(_:)`` wrote.
    /// - Throws: `DecodingError` when the data is not such an export.
    public static func decodeJSON(_ data: Data) throws -> ExportDocument {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ExportDocument.self, from: data)
    }

    // MARK: Shared

    /// The labelled inputs both the Markdown header and the HTML table show.
    private static func inputRows(_ document: ExportDocument) -> [(String, String)] {
        let count = document.versions.count
        // Handouts go to students: what the lesson is, not how the plan was made.
        if document.kind == .materials {
            return [("Topic", document.topic), ("Grade band", document.grade)]
        }
        var rows = [
            ("Grade band", document.grade),
            ("Lesson length", "\(document.minutes) minutes"),
            ("Topic", document.topic),
            ("Standards", document.standards.isEmpty ? "none given" : document.standards),
            ("Constraints", document.constraints.isEmpty ? "none given" : document.constraints),
            ("Version", count > 0 ? "\(document.currentVersion) of \(count)" : "none"),
            ("Model", document.model.isEmpty ? "unknown" : document.model),
            ("Created", document.created.formatted(.iso8601)),
        ]
        if !document.framework.isEmpty { rows.insert(("Framework", document.framework), at: 3) }
        return rows
    }
}

extension PlanExport {
    /// One line of a plan as the exporters see it.
    enum Block: Equatable, Sendable {
        case heading(String)
        case bullet(String)
        case numbered(Int, String)
        case paragraph(String)
        case blank

        var isBullet: Bool {
            if case .bullet = self { return true }
            return false
        }

        var isNumbered: Bool {
            if case .numbered = self { return true }
            return false
        }
    }
}

extension PlanExport {
    /// Classifies each line of a plan; a heading followed by ": text" yields a heading and a paragraph.
    static func blocks(_ text: String, headings: [String]) -> [Block] {
        let keys = headingKeys(headings)
        var result: [Block] = []
        for rawLine in LineDiff.splitLines(text) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                result.append(.blank)
            } else if let (heading, rest) = heading(in: line, keys: keys) {
                result.append(.heading(heading))
                if let rest { result.append(.paragraph(rest)) }
            } else if let item = bullet(in: line) {
                result.append(.bullet(item))
            } else if let (number, item) = numbered(in: line) {
                result.append(.numbered(number, item))
            } else {
                result.append(.paragraph(line))
            }
        }
        return result
    }

    /// Lower-cased forms a heading may be written in: in full, and without a trailing "(…)".
    static func headingKeys(_ headings: [String]) -> [String] {
        var keys: [String] = []
        for heading in headings {
            let full = heading.trimmingCharacters(in: .whitespaces).lowercased()
            guard !full.isEmpty else { continue }
            keys.append(full)
            if full.hasSuffix(")"), let open = full.lastIndex(of: "(") {
                let base = full[..<open].trimmingCharacters(in: .whitespaces)
                if !base.isEmpty { keys.append(base) }
            }
        }
        // Longest first, so "warm-up (5 min)" wins over "warm-up" and the split keeps the whole heading.
        return keys.sorted { $0.count > $1.count }
    }

    /// The heading a short line names, after dropping "#", "**", "1)"/"1." numbering and a trailing colon.
    static func heading(in line: String, keys: [String]) -> (String, String?)? {
        guard line.count <= headingLengthLimit else { return nil }
        var text = Substring(line)
        while text.hasPrefix("#") { text = text.dropFirst() }
        text = Substring(text.replacingOccurrences(of: "**", with: ""))
        text = Substring(text.trimmingCharacters(in: .whitespaces))
        if let (_, rest) = numberPrefix(text) { text = rest }
        while let last = text.last, last == ":" || last.isWhitespace { text = text.dropLast() }
        guard !text.isEmpty else { return nil }

        let lower = text.lowercased()
        for key in keys where lower.hasPrefix(key) {
            // Compare on the lower-cased text, then cut the original at the same character count;
            // fall back to the whole line when lower-casing changed the length.
            guard lower.count == text.count else { return lower == key ? (String(text), nil) : nil }
            let after = text.dropFirst(key.count)
            guard let next = after.first else { return (String(text), nil) }
            if next.isLetter || next.isNumber { continue }
            let trimmed = after.drop { $0.isWhitespace }
            if trimmed.first == ":" {
                let rest = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
                return (String(text.prefix(key.count)), rest.isEmpty ? nil : rest)
            }
            // "Differentiation is key." is a sentence about a section, not the section's heading.
            if let end = text.last, end == "." || end == "?" || end == "!" { return nil }
            return (String(text), nil)
        }
        return nil
    }

    /// The text of a "-", "*" or "•" item; "**bold**" and "---" are not items.
    static func bullet(in line: String) -> String? {
        guard let first = line.first, first == "-" || first == "*" || first == "•" else { return nil }
        let after = line.dropFirst()
        guard first == "•" || after.first?.isWhitespace == true else { return nil }
        let item = after.trimmingCharacters(in: .whitespaces)
        return item.isEmpty ? nil : item
    }

    /// The number and text of a "1." or "1)" item.
    static func numbered(in line: String) -> (Int, String)? {
        guard let (number, rest) = numberPrefix(Substring(line)), !rest.isEmpty else { return nil }
        return (number, String(rest))
    }

    /// Splits "12) text" or "12. text" into 12 and "text"; the marker must be followed by a space.
    private static func numberPrefix(_ text: Substring) -> (Int, Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard (1...3).contains(digits.count), let number = Int(digits) else { return nil }
        let afterDigits = text.dropFirst(digits.count)
        guard let marker = afterDigits.first, marker == "." || marker == ")" else { return nil }
        let afterMarker = afterDigits.dropFirst()
        guard let space = afterMarker.first, space.isWhitespace else { return nil }
        return (number, afterMarker.drop { $0.isWhitespace })
    }
}
