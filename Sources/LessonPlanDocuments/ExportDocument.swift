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
    /// The model's review of this version (`/review`), each quotation checked: on the teacher's copy only.
    package var review: ExportReview?
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
        case review
    }

    private enum InputKeys: String, CodingKey {
        case topic, grade, minutes, standards, constraints, model, created, framework
    }

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
        review = try container.decodeIfPresent(ExportReview.self, forKey: .review)
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
        if kind != .materials { try container.encodeIfPresent(review, forKey: .review) }
    }
}

/// A review as an export carries it: its rows, each quotation checked against the exported version, the line
/// that sums the check up, and where the criteria come from.
package struct ExportReview: Codable, Equatable, Sendable {
    package var number: Int
    /// The plan version it reviewed (the exported one).
    package var planVersion: Int
    package var rows: [ReviewRow]
    package var summary: String
    /// Where the criteria come from and their licence; nil for a prompts folder's own criteria.
    package var source: String?

    package init(number: Int, planVersion: Int, rows: [ReviewRow], summary: String, source: String?) {
        self.number = number
        self.planVersion = planVersion
        self.rows = rows
        self.summary = summary
        self.source = source
    }

    /// The heading over it on the teacher's copy.
    package var title: String { "Second opinion: review \(number) of v\(planVersion)" }

    /// The sentence under the heading: what it is, and that it is the model's, checked only for its quotations.
    package static let caveat =
        "A model's review of this plan against published criteria, for the teacher only. Each quotation was checked by code against the plan; the scores and reasons were not."

    /// The evidence cell: the quotation in quotation marks, and the mark when the plan does not hold it.
    package static func evidence(_ row: ReviewRow) -> String {
        let quoted = row.evidence.isEmpty ? "none" : "“\(row.evidence)”"
        return row.status == .found || row.status == .none ? quoted : "\(quoted) ⚠ \(row.status.mark)"
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
