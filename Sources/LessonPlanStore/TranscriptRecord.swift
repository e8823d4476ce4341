import Foundation
import LessonPlanCore
import LessonPlanModel

/// What a turn produces: a plan version, or something made from one and kept beside it: student
/// handouts, a quiz, a rubric, a review of the plan.
package enum TurnKind: String, Codable, Sendable, CaseIterable {
    case plan, materials, quiz, rubric, review
    /// A unit's overview (``UnitPlan``): not a plan version; a `unit` line records the one taken.
    case overview
}

/// What a completed turn made and kept beside the plan versions: its kind and its number among that kind
/// (`{"kind":"quiz","number":2}` on a `turn_ended` line). A plan version is `version`, not this.
package struct Made: Codable, Equatable, Hashable, Sendable {
    package var kind: TurnKind
    package var number: Int

    package init(_ kind: TurnKind, _ number: Int) {
        self.kind = kind
        self.number = number
    }
}

/// The first line of every transcript: who, when, and what was asked for.
package struct SessionHeader: Codable, Equatable, Sendable {
    package var id: String
    package var created: Date
    package var inputs: LessonInputs
    package var model: String
    /// The base URL or endpoint, never with credentials in it.
    package var baseUrl: String
    package var name: String?
    package var toolVersion: String
    /// The framework chosen at the start (`--framework`); nil, as in older transcripts, is the default one.
    package var framework: String?
    /// The class the session was started for (`--class`): only its name; the names of its students stay in the class file.
    package var className: String?

    package init(
        id: String, created: Date, inputs: LessonInputs, model: String, baseUrl: String, name: String? = nil,
        toolVersion: String, framework: String? = nil, className: String? = nil
    ) {
        self.className = className
        self.id = id
        self.created = created
        self.inputs = inputs
        self.model = model
        self.baseUrl = baseUrl
        self.name = name
        self.toolVersion = toolVersion
        self.framework = framework
    }
}

/// Written when a request is about to go out: everything needed to send it again.
package struct TurnStarted: Codable, Equatable, Sendable {
    package var turn: Int
    package var at: Date
    /// The command exactly as the teacher typed it; for `/retry`, the command of the turn repeated.
    package var command: String
    /// The template that built the prompt.
    package var template: String
    /// The inputs of the plan this turn produces.
    package var inputs: LessonInputs
    /// The version the turn revises; nil for a first generation.
    package var baseVersion: Int?
    package var model: String
    package var instructions: String
    package var input: String
    package var maxOutputTokens: Int
    /// The framework of the plan this turn produces; nil, as in older transcripts, is the default one.
    package var framework: String?
    /// For an automatic turn (a repair or a reading-level retry): the draft version it tries to improve.
    /// A version it creates takes the draft's place, so `/undo` from it goes where `/undo` from the draft would.
    package var follows: Int?
    /// What the turn produces; nil, as in older transcripts, is a plan.
    package var kind: TurnKind?

    /// `/retry`: the turn whose request this one sends again.
    package var retryOf: Int?
    /// `/continue`: the turn whose draft this one finishes; its `output` starts with that draft.
    package var continues: Int?
    /// For a `quiz` turn: the kind of quiz asked for (`starter` or `exit`).
    package var quizKind: Quiz.Kind?
    /// For a `quiz` turn: how many items were asked for.
    package var quizItems: Int?
    /// For a `quiz` turn: whether its prompt asked for student feedback on each wrong answer (`Feedback B: …`), so
    /// the quiz must carry it; nil, as in older transcripts (and since a resume does not read prompts back), is no.
    package var quizFeedback: Bool?
    /// For a `rubric` turn: how many levels were asked for.
    package var rubricLevels: Int?
    /// In a unit: the lesson whose plan this turn writes or works from; nil outside a unit.
    package var lesson: Int?

    package init(
        turn: Int, at: Date, command: String, template: String, inputs: LessonInputs, baseVersion: Int?,
        model: String, instructions: String, input: String, maxOutputTokens: Int, framework: String? = nil,
        follows: Int? = nil, kind: TurnKind? = nil, retryOf: Int? = nil, continues: Int? = nil,
        quizKind: Quiz.Kind? = nil, quizItems: Int? = nil, quizFeedback: Bool? = nil, rubricLevels: Int? = nil,
        lesson: Int? = nil
    ) {
        self.turn = turn
        self.at = at
        self.command = command
        self.template = template
        self.inputs = inputs
        self.baseVersion = baseVersion
        self.model = model
        self.instructions = instructions
        self.input = input
        self.maxOutputTokens = maxOutputTokens
        self.framework = framework
        self.follows = follows
        self.kind = kind
        self.retryOf = retryOf
        self.continues = continues
        self.quizKind = quizKind
        self.quizItems = quizItems
        self.quizFeedback = quizFeedback
        self.rubricLevels = rubricLevels
        self.lesson = lesson
    }
}

/// Written when a turn ends, however it ends.
package struct TurnEnded: Codable, Equatable, Sendable {
    package var turn: Int
    package var at: Date
    package var status: TurnStatus
    /// All answer text received, partial for a failed or cancelled turn. A `/continue` turn's
    /// output is the draft it continues followed by the new text: the whole plan.
    package var output: String
    package var usage: Usage?
    package var responseId: String?
    /// The one-sentence reason, for anything but `completed`.
    package var error: String?
    /// The version this turn created; only completed turns create one.
    package var version: Int?
    package var durationMs: Int
    /// The plan check of `output`, for a completed plan turn.
    package var check: PlanCheckReport?
    /// The reading level of `output`'s student-facing text against its band, for a completed plan turn.
    package var readingLevel: ReadingMeasure?
    /// For a turn whose plan replaces the current one only when it is better (a repair, a reading-level
    /// retry): whether it did. When false the turn completed but created no version.
    package var kept: Bool?
    /// What a completed `materials`, `quiz`, `rubric` or `review` turn made (a repair only when `kept`; a review
    /// none when the answer held no criterion). Older transcripts say it as `materials`, `quiz`, `rubric` or
    /// `review` with the number, which are read as this.
    package var made: Made?
    /// `false` when the answer came whole rather than streamed (a proxy that does not stream);
    /// absent for a streamed answer.
    package var streamed: Bool?

    /// The number of what the turn made when it is of `kind`.
    package func made(_ kind: TurnKind) -> Int? { made?.kind == kind ? made?.number : nil }

    package init(
        turn: Int, at: Date, status: TurnStatus, output: String, usage: Usage?, responseId: String?,
        error: String?, version: Int?, durationMs: Int, check: PlanCheckReport? = nil,
        readingLevel: ReadingMeasure? = nil, kept: Bool? = nil, made: Made? = nil, streamed: Bool? = nil
    ) {
        self.turn = turn
        self.at = at
        self.status = status
        self.output = output
        self.usage = usage
        self.responseId = responseId
        self.error = error
        self.version = version
        self.durationMs = durationMs
        self.check = check
        self.readingLevel = readingLevel
        self.kept = kept
        self.made = made
        self.streamed = streamed
    }
}

/// `/undo`: the current version moved from one version to another.
package struct UndoRecord: Codable, Equatable, Sendable {
    package var at: Date
    package var from: Int
    package var to: Int
    /// In a unit: the lesson whose current version moved.
    package var lesson: Int?
    /// `/switch N` or `/fork N` as typed, when the move was one of those rather than `/undo`; nil for `/undo`.
    package var command: String?

    package init(at: Date, from: Int, to: Int, lesson: Int? = nil, command: String? = nil) {
        self.at = at
        self.from = from
        self.to = to
        self.lesson = lesson
        self.command = command
    }
}

/// `/save <name>`: the session got a name.
package struct NameRecord: Codable, Equatable, Sendable {
    package var at: Date
    package var name: String

    package init(at: Date, name: String) {
        self.at = at
        self.name = name
    }
}

/// `/repair on|off`: a session setting that `resume` and `replay --rerun` honour (`--no-repair` is a flag of its run only).
package struct SettingRecord: Codable, Equatable, Sendable {
    package var at: Date
    /// Whether a plan with problems is repaired once automatically; nil (a `/class` line) leaves it as it was.
    package var repair: Bool?
    /// The class the session is tied to from here on (`/class`); nil leaves it as it was.
    package var className: String?

    package init(at: Date, repair: Bool?, className: String? = nil) {
        self.at = at
        self.repair = repair
        self.className = className
    }
}

/// `/edit`: the teacher changed the plan by hand; the saved text is a new version.
package struct HandEditRecord: Codable, Equatable, Sendable {
    package var at: Date
    /// The command as typed (`/edit`).
    package var command: String
    /// The version that was edited.
    package var baseVersion: Int
    /// The version the edit created.
    package var version: Int
    package var text: String
    /// The plan check of the edited text.
    package var check: PlanCheckReport?
    /// In a unit: the lesson the edited plan belongs to.
    package var lesson: Int?

    package init(
        at: Date, command: String, baseVersion: Int, version: Int, text: String, check: PlanCheckReport? = nil, lesson: Int? = nil
    ) {
        self.at = at
        self.command = command
        self.baseVersion = baseVersion
        self.version = version
        self.text = text
        self.check = check
        self.lesson = lesson
    }
}

/// `/source FILE` or `--source FILE`: a source the plans are grounded in, kept whole with the session so
/// `resume`, `replay` and exports check quotations after the file has moved or changed.
package struct SourceRecord: Codable, Equatable, Sendable {
    package var at: Date
    package var source: SourceDocument

    package init(at: Date, source: SourceDocument) {
        self.at = at
        self.source = source
    }
}

/// `/source remove N`: source N of the list at that moment was taken away.
package struct SourceRemovedRecord: Codable, Equatable, Sendable {
    package var at: Date
    /// The source's number in the list when it was removed (1 is the first added and still there).
    package var number: Int
    /// Its name, for `replay`.
    package var name: String

    package init(at: Date, number: Int, name: String) {
        self.at = at
        self.number = number
        self.name = name
    }
}

/// `lessonplan results`: how many students chose each option of a quiz's items (counts only, never a name).
package struct ResultsRecord: Equatable, Sendable {
    package var at: Date
    /// The quiz the counts are for.
    package var quiz: Int
    /// For each item in order, the count for each option letter.
    package var counts: [[String: Int]]

    package init(at: Date, quiz: Int, counts: [[String: Int]]) {
        self.at = at
        self.quiz = quiz
        self.counts = counts
    }
}

/// `/quiz forms N`: parallel forms of a quiz, made again from its seed (no model call).
package struct FormsRecord: Equatable, Sendable {
    package var at: Date
    /// The quiz the forms are of.
    package var quiz: Int
    /// How many forms, A being the quiz as written.
    package var forms: Int
    /// What the shuffle starts from (``QuizForms/make(_:count:seed:)``).
    package var seed: UInt64

    package init(at: Date, quiz: Int, forms: Int, seed: UInt64) {
        self.at = at
        self.quiz = quiz
        self.forms = forms
        self.seed = seed
    }
}

/// One line of a transcript. On disk each is a JSON object with a `type` tag and a format version `v`.
package enum TranscriptRecord: Equatable, Sendable {
    case header(SessionHeader)
    case turnStarted(TurnStarted)
    case turnEnded(TurnEnded)
    case undo(UndoRecord)
    case named(NameRecord)
    case handEdit(HandEditRecord)
    case sourceAdded(SourceRecord)
    case sourceRemoved(SourceRemovedRecord)
    case unit(UnitRecord)
    case lesson(LessonRecord)
    case setting(SettingRecord)
    case results(ResultsRecord)
    case forms(FormsRecord)

    /// The format this build writes; a file with a larger version is refused.
    package static let formatVersion = 1

    /// What the line records; its `type` tag on disk.
    package var recordType: TranscriptRecordType {
        switch self {
        case .header: .session
        case .turnStarted: .turnStarted
        case .turnEnded: .turnEnded
        case .undo: .undo
        case .named: .name
        case .handEdit: .handEdit
        case .sourceAdded: .source
        case .sourceRemoved: .sourceRemoved
        case .unit: .unit
        case .lesson: .lesson
        case .setting: .setting
        case .results: .results
        case .forms: .forms
        }
    }

    /// The `type` tag on disk.
    package var type: String { recordType.rawValue }
}
