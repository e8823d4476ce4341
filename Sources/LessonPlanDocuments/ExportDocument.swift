import Foundation
import LessonPlanCore
import LessonPlanStore

/// One saved version of the plan as exported: which command made it, when, and its text.
package struct ExportVersion: Codable, Equatable, Sendable {
    package var number: Int
    /// The command that produced this version, e.g. "generate" or "/shorten".
    package var command: String
    package var createdAt: Date
    package var text: String

    package init(number: Int, command: String, createdAt: Date, text: String) {
        self.number = number
        self.command = command
        self.createdAt = createdAt
        self.text = text
    }

    private enum CodingKeys: String, CodingKey {
        case number, command
        case createdAt = "created"
        case text
    }
}

/// Everything an export needs, gathered by the session so the renderers stay pure.
package struct ExportDocument: Codable, Equatable, Sendable {
    /// The lesson topic, which also titles the document.
    package var topic: String
    /// The grade band as shown to teachers, e.g. "6–8".
    package var grade: String
    package var minutes: Int
    package var standards: String
    package var constraints: String
    /// The model that wrote the plan.
    package var model: String
    /// When the session started.
    package var created: Date
    package var versions: [ExportVersion]
    package var currentVersion: Int
    package var pacing: [PacingSegment]
    /// What is exported: `plan`, or `materials` for student handouts (titled so, without pacing).
    package var kind: TurnKind
    /// How the plan's structure is named, e.g. "the 5E model (…)"; empty leaves the row out.
    package var framework: String
    /// The plan check of the exported version; nil when it was not checked (handouts).
    package var check: ExportCheck?
    /// For handouts: the plan version they were made from.
    package var planVersion: Int?
    /// For handouts: the session's current plan version, to mark handouts made from an older one.
    package var latestPlanVersion: Int?
    /// Whether the teacher's header names the model; a page option, not part of the data.
    package var showModel = false
    /// Sentences for the teacher alone (handouts made from an older plan, say): on the teacher's copy under
    /// the version line, never on a handout; a page option, not part of the data.
    package var teacherNotes: [String] = []
    /// The quizzes of this lesson (`/quiz`), the starter quiz first: without their keys on handouts, with the keys
    /// on a page of their own for the teacher.
    package var quizzes: [Quiz]
    /// The lesson's only (or last) quiz.
    package var quiz: Quiz? {
        get { quizzes.last }
        set { quizzes = newValue.map { [$0] } ?? [] }
    }
    /// The starter quiz, which comes before the lesson on slides and first in the handouts.
    package var starterQuizzes: [Quiz] { quizzes.filter { $0.kind == .starter } }
    /// The quizzes that come after the lesson.
    package var laterQuizzes: [Quiz] { quizzes.filter { $0.kind != .starter } }
    /// A rubric made from this version (`/rubric`): the students' version on handouts.
    package var rubric: Rubric?
    /// Tables for the teacher alone that kinds kept beside the plan add (a second opinion on it, say), each on a
    /// page of its own after the assessments: on the teacher's copy of a plan only.
    package var teacherTables: [TeacherTable] = []
    /// For a rubric that did not pass its check, printed only because the teacher asked for it by name: the line
    /// the teacher's copy prints over it (`Rubric 2 did not pass its check: …`); never on a handout.
    package var rubricWarning: String?
    /// The same for each quiz, by kind.
    package var quizWarnings: [Quiz.Kind: String] = [:]

    package init(
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
    package var isStale: Bool {
        guard kind == .materials, let planVersion, let latestPlanVersion else { return false }
        return planVersion != latestPlanVersion
    }

    /// The exported version, if the document has it.
    package var currentVersionRecord: ExportVersion? {
        versions.first { $0.number == currentVersion } ?? versions.last
    }

    /// The document's title: what it is and the topic.
    package var title: String { (kind == .materials ? "Student materials: " : "Lesson plan: ") + topic }

    /// The current version's text; the latest version's if the number is unknown, empty without versions.
    package var currentText: String {
        (versions.first { $0.number == currentVersion } ?? versions.last)?.text ?? ""
    }

    // The JSON groups the teacher's inputs and repeats the current text so a reader need not look it up.
    private enum CodingKeys: String, CodingKey {
        case inputs, versions, currentVersion, currentPlan, pacing, kind, check, planVersion, latestPlanVersion, quiz, quizzes, rubric
    }

    private enum InputKeys: String, CodingKey {
        case topic, grade, minutes, standards, constraints, model, created, framework
    }

    /// Reads back what `encode(to:)` wrote, but for the teacher tables: their data is for programs, not a page.
    package init(from decoder: any Decoder) throws {
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
    }

    package func encode(to encoder: any Encoder) throws {
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
        guard kind != .materials else { return }
        var tables = encoder.container(keyedBy: TeacherTable.Key.self)
        for table in teacherTables { try tables.encode(table.data, forKey: TeacherTable.Key(table.key)) }
    }
}

/// A table for the teacher alone that a kind kept beside the plan adds to the teacher's copy, on a page of its
/// own: what it is, a sentence on how far to trust it, a row per thing it looks at (a row that needs the teacher's
/// eye marked), what the rows add up to and where its criteria come from. The JSON export carries its data under
/// its key instead.
package struct TeacherTable: Equatable, Sendable {
    /// Its name in the JSON export and its class on the page.
    package var key: String
    package var title: String
    /// The sentence under the title.
    package var caveat: String
    package var header: [String]
    /// Each column's share of a document's width.
    package var widths: [Double]
    /// The cells of each row, the first naming what the row is about.
    package var rows: [[String]]
    /// The rows (by index) to mark.
    package var marked: Set<Int>
    package var summary: String
    package var source: String?
    /// What the JSON export holds under ``key``.
    package var data: JSONValue

    package init(
        key: String, title: String, caveat: String, header: [String], widths: [Double], rows: [[String]], marked: Set<Int>,
        summary: String, source: String?, data: JSONValue
    ) {
        self.key = key
        self.title = title
        self.caveat = caveat
        self.header = header
        self.widths = widths
        self.rows = rows
        self.marked = marked
        self.summary = summary
        self.source = source
        self.data = data
    }

    /// A JSON key made from a table's ``key``.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// The plan check as an export shows it: passed or not, and each problem in the framework's words.
package struct ExportCheck: Codable, Equatable, Sendable {
    /// Whether the structure passes (content notes are apart).
    package var passed: Bool
    /// One sentence per problem, worst first.
    package var problems: [String]
    /// One sentence per content note, for the teacher's copy only.
    package var notes: [String]
    /// One sentence per quotation not verified against the session's sources (wrong page, not in the
    /// source); a banner before the plan on the teacher's copy.
    package var quotations: [String]

    package init(passed: Bool, problems: [String], notes: [String] = [], quotations: [String] = []) {
        self.passed = passed
        self.problems = problems
        self.notes = notes
        self.quotations = quotations
    }

    /// The check of a report, worded by `framework` and ranked worst first, as `/check` ranks them.
    package init(_ report: PlanCheckReport, framework: Framework) {
        passed = report.passed
        problems = report.problems.enumerated()
            .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
            .map { framework.describe($0.element) }
        notes = (report.notes ?? []).map(framework.describe)
        quotations = []
    }

    private enum CodingKeys: String, CodingKey { case passed, problems, notes, quotations }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        passed = try container.decode(Bool.self, forKey: .passed)
        problems = try container.decode([String].self, forKey: .problems)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
        quotations = try container.decodeIfPresent([String].self, forKey: .quotations) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passed, forKey: .passed)
        try container.encode(problems, forKey: .problems)
        try container.encode(notes, forKey: .notes)
        if !quotations.isEmpty { try container.encode(quotations, forKey: .quotations) }
    }

    /// The heading of the banner naming quotations that are not verified against the sources.
    package static func quotationsTitle(_ count: Int) -> String {
        count == 1
            ? "1 quotation is not verified against the sources: check it before reading it aloud"
            : "\(count) quotations are not verified against the sources: check them before reading them aloud"
    }

    /// The heading of the notes block on a teacher's copy.
    package static let notesTitle = "Content notes (for the teacher; /check lists them, /repair can address them)"
}
