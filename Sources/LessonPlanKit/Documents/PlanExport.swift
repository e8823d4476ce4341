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
    /// The plan check of the exported version; nil when it was not checked (handouts).
    public var check: ExportCheck?
    /// For handouts: the plan version they were made from.
    public var planVersion: Int?
    /// For handouts: the session's current plan version, to mark handouts made from an older one.
    public var latestPlanVersion: Int?
    /// Whether the teacher's header names the model; a page option, not part of the data.
    public var showModel = false
    /// Sentences for the teacher alone (handouts made from an older plan, say): on the teacher's copy under
    /// the version line, never on a handout; a page option, not part of the data.
    public var teacherNotes: [String] = []
    /// The quizzes of this lesson (`/quiz`), the starter quiz first: without their keys on handouts, with the keys
    /// on a page of their own for the teacher.
    public var quizzes: [Quiz]
    /// The lesson's only (or last) quiz.
    public var quiz: Quiz? {
        get { quizzes.last }
        set { quizzes = newValue.map { [$0] } ?? [] }
    }
    /// The starter quiz, which comes before the lesson on slides and first in the handouts.
    public var starterQuizzes: [Quiz] { quizzes.filter { $0.kind == .starter } }
    /// The quizzes that come after the lesson.
    public var laterQuizzes: [Quiz] { quizzes.filter { $0.kind != .starter } }
    /// A rubric made from this version (`/rubric`): the students' version on handouts.
    public var rubric: Rubric?
    /// The model's review of this version (`/review`), each quotation checked: on the teacher's copy only.
    public var review: ExportReview?

    public init(
        topic: String, grade: String, minutes: Int, standards: String = "", constraints: String = "",
        model: String = "", created: Date, versions: [ExportVersion], currentVersion: Int,
        pacing: [PacingSegment] = [], kind: TurnKind = .plan, framework: String = "", check: ExportCheck? = nil,
        planVersion: Int? = nil, latestPlanVersion: Int? = nil, showModel: Bool = false, quiz: Quiz? = nil,
        rubric: Rubric? = nil, quizzes: [Quiz] = []
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
        self.check = check
        self.planVersion = planVersion
        self.latestPlanVersion = latestPlanVersion
        self.showModel = showModel
        self.quizzes = (quizzes + (quiz.map { [$0] } ?? [])).sorted { ($0.kind == .starter ? 0 : 1) < ($1.kind == .starter ? 0 : 1) }
        self.rubric = rubric
    }

    /// Whether these are handouts made from an older plan version than the session's current one.
    public var isStale: Bool {
        guard kind == .materials, let planVersion, let latestPlanVersion else { return false }
        return planVersion != latestPlanVersion
    }

    /// The exported version, if the document has it.
    public var currentVersionRecord: ExportVersion? {
        versions.first { $0.number == currentVersion } ?? versions.last
    }

    /// The document's title: what it is and the topic.
    public var title: String { (kind == .materials ? "Student materials: " : "Lesson plan: ") + topic }

    /// The current version's text; the latest version's if the number is unknown, empty without versions.
    public var currentText: String {
        (versions.first { $0.number == currentVersion } ?? versions.last)?.text ?? ""
    }

    // The JSON groups the teacher's inputs and repeats the current text so a reader need not look it up.
    private enum CodingKeys: String, CodingKey {
        case inputs, versions, currentVersion, currentPlan, pacing, kind, check, planVersion, latestPlanVersion, quiz, quizzes, rubric
        case review
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
        check = try container.decodeIfPresent(ExportCheck.self, forKey: .check)
        planVersion = try container.decodeIfPresent(Int.self, forKey: .planVersion)
        latestPlanVersion = try container.decodeIfPresent(Int.self, forKey: .latestPlanVersion)
        let quizzes = try container.decodeIfPresent([Quiz].self, forKey: .quizzes)
        let single = try container.decodeIfPresent(Quiz.self, forKey: .quiz)
        self.quizzes = quizzes ?? single.map { [$0] } ?? []
        rubric = try container.decodeIfPresent(Rubric.self, forKey: .rubric)
        review = try container.decodeIfPresent(ExportReview.self, forKey: .review)
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
        try container.encodeIfPresent(check, forKey: .check)
        try container.encodeIfPresent(planVersion, forKey: .planVersion)
        try container.encodeIfPresent(latestPlanVersion, forKey: .latestPlanVersion)
        try container.encodeIfPresent(quiz, forKey: .quiz)
        if !quizzes.isEmpty { try container.encode(quizzes, forKey: .quizzes) }
        try container.encodeIfPresent(rubric, forKey: .rubric)
        if kind != .materials { try container.encodeIfPresent(review, forKey: .review) }
    }
}

/// A review as an export carries it: its rows, each quotation checked against the exported version, the line
/// that sums the check up, and where the criteria come from.
public struct ExportReview: Codable, Equatable, Sendable {
    public var number: Int
    /// The plan version it reviewed (the exported one).
    public var planVersion: Int
    public var rows: [ReviewRow]
    public var summary: String
    /// Where the criteria come from and their licence; nil for a prompts folder's own criteria.
    public var source: String?

    public init(number: Int, planVersion: Int, rows: [ReviewRow], summary: String, source: String?) {
        self.number = number
        self.planVersion = planVersion
        self.rows = rows
        self.summary = summary
        self.source = source
    }

    /// The heading over it on the teacher's copy.
    public var title: String { "Second opinion: review \(number) of v\(planVersion)" }

    /// The sentence under the heading: what it is, and that it is the model's, checked only for its quotations.
    public static let caveat =
        "A model's review of this plan against published criteria, for the teacher only. Each quotation was checked by code against the plan; the scores and reasons were not."

    /// The evidence cell: the quotation in quotation marks, and the mark when the plan does not hold it.
    public static func evidence(_ row: ReviewRow) -> String {
        let quoted = row.evidence.isEmpty ? "none" : "“\(row.evidence)”"
        return row.status == .found || row.status == .none ? quoted : "\(quoted) ⚠ \(row.status.mark)"
    }
}

/// The plan check as an export shows it: passed or not, and each problem in the framework's words.
public struct ExportCheck: Codable, Equatable, Sendable {
    /// Whether the structure passes (content notes are apart).
    public var passed: Bool
    /// One sentence per problem, worst first.
    public var problems: [String]
    /// One sentence per content note, for the teacher's copy only.
    public var notes: [String]
    /// One sentence per quotation not verified against the session's sources (wrong page, not in the
    /// source); a banner before the plan on the teacher's copy.
    public var quotations: [String]

    public init(passed: Bool, problems: [String], notes: [String] = [], quotations: [String] = []) {
        self.passed = passed
        self.problems = problems
        self.notes = notes
        self.quotations = quotations
    }

    /// The check of a report, worded by `framework` and ranked worst first, as `/check` ranks them.
    public init(_ report: PlanCheckReport, framework: Framework) {
        passed = report.passed
        problems = report.problems.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map { framework.describe($0.element) }
        notes = (report.notes ?? []).map(framework.describe)
        quotations = []
    }

    private enum CodingKeys: String, CodingKey { case passed, problems, notes, quotations }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        passed = try container.decode(Bool.self, forKey: .passed)
        problems = try container.decode([String].self, forKey: .problems)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
        quotations = try container.decodeIfPresent([String].self, forKey: .quotations) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passed, forKey: .passed)
        try container.encode(problems, forKey: .problems)
        try container.encode(notes, forKey: .notes)
        if !quotations.isEmpty { try container.encode(quotations, forKey: .quotations) }
    }

    /// The heading of the banner naming quotations that are not verified against the sources.
    public static func quotationsTitle(_ count: Int) -> String {
        count == 1
            ? "1 quotation is not verified against the sources: check it before reading it aloud"
            : "\(count) quotations are not verified against the sources: check them before reading them aloud"
    }

    /// The heading of the notes block on a teacher's copy.
    public static let notesTitle = "Content notes (for the teacher; /check lists them, /repair can address them)"
}

/// Pure renderers for `/export`: each returns the whole file's contents and the caller writes it.
///
/// Every renderer reads the plan through one ``PlanDocument``: the headings, lists and numbering on the
/// page are the ones the check and pacing saw. A teacher's page carries the check's banner when the
/// version fails, the version and its local date, and the pacing near the top; a handout page carries
/// Name / Date / Class lines and room to write, and leaves out everything for the teacher alone.
public enum PlanExport {
    /// The plan's ten section headings, recognised as headings when no other list is given.
    public static var defaultHeadings: [String] { (try? PromptLibrary.builtIn.headings()) ?? [] }

    // MARK: Markdown

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

    // MARK: HTML

    /// Reads the current text with `headings`, then renders it as ``renderHTML(_:plan:timeZone:)`` does.
    public static func renderHTML(
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
    public static func renderHTML(_ document: ExportDocument, plan: PlanDocument, timeZone: TimeZone = .current)
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
            let inputs = inputRows(document, timeZone: timeZone).filter { $0.0 != "Version" }.map { label, value in
                "<span><strong>\(htmlEscape(label)):</strong> \(htmlEscape(value))</span>"
            }
            out.append("<p class=\"inputs\">\(inputs.joined(separator: " · "))</p>")
        }
        if handout { appendQuizzes(document.starterQuizzes, to: &out) }
        out.append("<section class=\"plan\">")
        appendPlan(pageBlocks(plan, handout: handout), handout: handout, to: &out)
        out.append("</section>")
        if !handout { appendTimeline(document, to: &out) }
        appendAssessments(document, handout: handout, to: &out)
        if !handout, let review = document.review { appendReview(review, to: &out) }
        if handout {
            out.append("<footer>\(htmlEscape(handoutFooter(document, timeZone: timeZone)))</footer>")
        }
        out.append(contentsOf: ["</main>", "</body>", "</html>"])
        return out.joined(separator: "\n") + "\n"
    }

    /// Escapes the five characters that can end text or an attribute value early: & < > " ', and drops
    /// C0 and C1 controls but tab and line feed (ESC, BEL, BS, CR, DEL, U+0080–U+009F), which a page has no
    /// use for and `cat plan.html` would obey.
    public static func htmlEscape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": continue
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
                if handout, level == 2 {
                    // Each handout part is a section; the exit ticket is one slip, kept whole to cut out.
                    if inPart { out.append("</section>") }
                    out.append(isExitTicket(text) ? "<section class=\"part slip\">" : "<section class=\"part\">")
                    inPart = true
                }
                out.append("<h\(level)>\(htmlEscape(text))</h\(level)>")
            case .paragraph(let text):
                closeList()
                out.append("<p>\(htmlEscape(text))</p>")
            case .choice(let text):
                closeList()
                out.append("<p class=\"choice\">\(htmlEscape(text))</p>")
            case .writeIn(let text):
                if handout, text.allSatisfy({ $0 == "_" || $0.isWhitespace }) {
                    closeList()
                    out.append("<div class=\"write\"><i></i></div>")
                } else {
                    closeList()
                    out.append("<p class=\"write-line\">\(htmlEscape(text))</p>")
                }
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
        if inPart { out.append("</section>") }
    }

    /// Whether a heading names the exit ticket, the slip students hand in at the door.
    static func isExitTicket(_ heading: String) -> Bool {
        let words = heading.lowercased()
        return words.contains("exit ticket") || words.contains("exit slip")
    }

    /// Each quiz without its key, on a page of its own, every item kept with its options.
    private static func appendQuizzes(_ quizzes: [Quiz], to out: inout [String]) {
        for quiz in quizzes {
            out.append(contentsOf: ["<section class=\"quiz quiz-\(quiz.kind.rawValue)\">", "<h2>\(htmlEscape(quiz.title))</h2>", "<ol>"])
            for item in quiz.items {
                let options = item.options.map { "<li>\(htmlEscape($0.text))</li>" }.joined()
                out.append("<li class=\"quiz-item\">\(htmlEscape(item.stem))<ol type=\"A\">\(options)</ol></li>")
            }
            out.append(contentsOf: ["</ol>", "</section>"])
        }
    }

    /// The review as a table, a row per criterion, a quotation the plan does not hold marked; teacher's page only.
    private static func appendReview(_ review: ExportReview, to out: inout [String]) {
        out.append("<section class=\"review\">")
        out.append("<h2>\(htmlEscape(review.title))</h2>")
        out.append("<p class=\"review-caveat\">\(htmlEscape(ExportReview.caveat))</p>")
        out.append(
            "<table class=\"review-table\"><thead><tr><th scope=\"col\">Criterion</th><th scope=\"col\">Score</th>"
                + "<th scope=\"col\">Evidence from the plan</th><th scope=\"col\">Why</th></tr></thead><tbody>")
        for row in review.rows {
            let marked = row.status == .notFound || row.status == .unchecked
            out.append(
                "<tr\(marked ? " class=\"evidence-not-found\"" : "")><th scope=\"row\">\(htmlEscape(row.criterion))</th>"
                    + "<td>\(htmlEscape(row.scoreText))</td><td>\(htmlEscape(ExportReview.evidence(row)))</td>"
                    + "<td>\(htmlEscape(row.why))</td></tr>")
        }
        out.append("</tbody></table>")
        out.append("<p class=\"review-summary\">\(htmlEscape(review.summary))</p>")
        if let source = review.source { out.append("<p class=\"review-source\">\(htmlEscape(source))</p>") }
        out.append("</section>")
    }

    /// The quiz without its key, the rubric (the students' on a handout), and for the teacher the key on a new page.
    private static func appendAssessments(_ document: ExportDocument, handout: Bool, to out: inout [String]) {
        appendQuizzes(handout ? document.laterQuizzes : document.quizzes, to: &out)
        if let rubric = document.rubric.map({ handout ? $0.forStudents : $0 }) {
            out.append("<section class=\"rubric\">")
            out.append("<h2>\(htmlEscape(rubric.task.isEmpty ? "Rubric" : "Rubric: \(rubric.task)"))</h2>")
            out.append("<table class=\"rubric-table\"><thead><tr><th scope=\"col\">Criterion</th>")
            out.append(rubric.levels.map { "<th scope=\"col\">\(htmlEscape($0.title))</th>" }.joined() + "</tr></thead><tbody>")
            for criterion in rubric.criteria {
                out.append(
                    "<tr><th scope=\"row\">\(htmlEscape(criterion.name))</th>"
                        + criterion.cells.map { "<td>\(htmlEscape($0))</td>" }.joined() + "</tr>")
            }
            out.append(contentsOf: ["</tbody></table>", "</section>"])
        }
        for quiz in handout ? [] : document.quizzes {
            out.append(contentsOf: ["<section class=\"answer-key\">", "<h2>\(quiz.keyTitle)</h2>", "<ol>"])
            for item in quiz.items {
                let reasons = item.distractors.filter { !$0.misconception.isEmpty }
                    .map { "<li>\(htmlEscape("\($0.letter)) \($0.text): \($0.misconception)"))</li>" }.joined()
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
                bars += "<div class=\"timeline-bar\" style=\"left: \(percent(start, of: total))%; "
                    + "width: \(percent(inside, of: total))%\"></div>"
            }
            if past > 0 {
                bars += "<div class=\"timeline-bar timeline-over\" style=\"left: \(percent(max(start, lesson), of: total))%; "
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

    private static let stylesheet = """
        :root { color-scheme: light; }
        body { font-family: Georgia, "Times New Roman", serif; line-height: 1.45; color: #111; background: #fff; }
        body { margin: 2rem auto; max-width: 48rem; padding: 0 1rem; }
        h1 { font-size: 1.6rem; margin-bottom: 0.4rem; }
        h2 { font-size: 1.2rem; margin: 1.4rem 0 0.4rem; border-bottom: 1px solid #ccc; padding-bottom: 0.15rem; }
        h3 { font-size: 1.05rem; margin: 1rem 0 0.3rem; }
        table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
        th, td { border: 1px solid #bbb; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
        .pacing-table { font-size: 0.85rem; margin: 0.3rem 0 0.6rem; }
        .pacing-table th, .pacing-table td { padding: 0.1rem 0.4rem; }
        .inputs { font-size: 0.9rem; color: #333; }
        .inputs span { white-space: nowrap; }
        .version { margin: 0 0 0.8rem; color: #333; }
        .teacher-note { border-left: 4px solid #b07a00; padding: 0.2rem 0.6rem; background: #fff7e0; }
        .banner { border: 2px solid #b00020; background: #fdecee; padding: 0.4rem 0.9rem; margin: 0.6rem 0 1rem; }
        .banner p { margin: 0.2rem 0; color: #7a0015; }
        .banner ul { margin: 0.2rem 0 0.3rem; }
        .plan-title { font-weight: bold; }
        .choice { margin: 0.1rem 0 0.1rem 2.2rem; }
        .pacing-table tr.lesson-end td { border-top: 3px solid #b00020; font-weight: bold; color: #7a0015; }
        .pacing-table tr.over td { background: #fbe3e3; }
        .pacing-notes { margin: 0.3rem 0 1rem; }
        .timeline { margin: 0.5rem 0 0.5rem; }
        .timeline-row { display: flex; align-items: center; margin: 0.2rem 0; }
        .timeline-label { flex: 0 0 14rem; font-size: 0.9rem; padding-right: 0.5rem; }
        .timeline-track { position: relative; flex: 1 1 auto; height: 1rem; background: #eee; }
        .timeline-bar { position: absolute; top: 0; bottom: 0; background: #3a7d44; }
        .timeline-over { background: repeating-linear-gradient(45deg, #b00020 0 4px, #f2b8c0 4px 8px); }
        .timeline-end { position: absolute; top: -0.25rem; bottom: -0.25rem; width: 0; border-left: 2px solid #b00020; }
        .timeline-scale { position: relative; flex: 1 1 auto; height: 1.2rem; font-size: 0.8rem; }
        .axis-start { position: absolute; left: 0; }
        .axis-end { position: absolute; margin-left: -0.35rem; white-space: nowrap; color: #7a0015; }
        .axis-end-left { margin-left: 0; margin-right: -0.35rem; }
        .write-in { display: flex; gap: 1.5rem; margin: 0.6rem 0 1rem; }
        .write-in span { flex: 1 1 auto; display: flex; align-items: flex-end; }
        .write-in span:first-child { flex-grow: 2; }
        .write-in i { flex: 1 1 auto; border-bottom: 1px solid #333; margin-left: 0.4rem; height: 1.2rem; }
        .write { margin: 0.2rem 0 0.6rem; }
        .write i { display: block; height: 1.9rem; border-bottom: 1px solid #999; }
        footer { margin-top: 1.5rem; font-size: 0.8rem; color: #555; border-top: 1px solid #ccc; padding-top: 0.3rem; }
        body.handout li { margin-bottom: 0.4rem; }
        .quiz ol[type="A"] { margin: 0.2rem 0 0.6rem; }
        .rubric-table th[scope="row"] { width: 20%; background: #f3f3f3; }
        .review-table th[scope="row"] { width: 22%; background: #f3f3f3; }
        .review-table tr.evidence-not-found td { background: #fff4e5; }
        .review-caveat, .review-source { font-size: 0.9rem; color: #444; }
        .answer-key, .quiz { break-before: page; page-break-before: always; }
        body.handout .quiz-starter { break-before: auto; page-break-before: auto; break-after: page; page-break-after: always; }
        .slip { border: 2px dashed #555; padding: 0.2rem 0.8rem 0.6rem; margin-top: 1.2rem; }
        @media print {
          body { margin: 0; max-width: none; font-size: 11pt; }
          h2, h3 { break-after: avoid; page-break-after: avoid; }
          table, li, .timeline-row, .timeline-section, .banner, .slip, .quiz-item { break-inside: avoid; page-break-inside: avoid; }
          .timeline-track, .timeline-bar, .timeline-end, .banner, .pacing-table tr.over td {
            -webkit-print-color-adjust: exact; print-color-adjust: exact;
          }
        }
        """

    // MARK: JSON

    /// The inputs, every version, the current version number and its text, its pacing and its check,
    /// pretty-printed with sorted keys.
    ///
    /// Dates are ISO 8601 to the second: this is data for programs, not a page.
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

    // MARK: Any text format

    /// The bytes of `document` in one of the formats written here (Markdown, HTML, JSON).
    /// - Throws: ``ExportError`` for a format made through pandoc, `EncodingError` from ``renderJSON(_:)``.
    public static func render(_ document: ExportDocument, plan: PlanDocument, format: ExportFormat) throws -> Data {
        switch format {
        // Markdown is read in terminals and editors as it is, so it gets the terminal's sanitiser too.
        case .md: return Data(TerminalSanitizer.clean(renderMarkdown(document, plan: plan)).utf8)
        case .html: return Data(renderHTML(document, plan: plan).utf8)
        case .json: return try renderJSON(document)
        case .docx, .odt, .pptx:
            // Editable documents are made through pandoc (`ExportCommand.document`), not here.
            throw ExportError("A .\(format.rawValue) is made through pandoc; use /export \(format.rawValue) FILE or lessonplan export --format \(format.rawValue).")
        }
    }

    // MARK: Shared

    /// The page's title: what it is and the topic; the plan's own title lines follow it.
    private static func pageTitle(_ document: ExportDocument, plan: PlanDocument) -> String {
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
    public static func localDate(_ date: Date, timeZone: TimeZone = .current) -> String {
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
