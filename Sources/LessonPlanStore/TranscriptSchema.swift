import Foundation

// The transcript format's names, in one place: each record type's `type` tag and the keys its
// lines have on disk (docs/transcript.md describes them). Which keys a line of each type has, and
// the property each fills, are its columns (`TranscriptColumns.swift`): the writer, the full
// decoder and the fast reader (`TranscriptLineScanner`) all go through them.

/// What a transcript line records: its `type` tag on disk.
package enum TranscriptRecordType: String, CaseIterable, Sendable {
    case session
    case turnStarted = "turn_started"
    case turnEnded = "turn_ended"
    case undo
    case name
    case handEdit = "hand_edit"
    case source
    case sourceRemoved = "source_removed"
    case unit
    case lesson
    case setting
    case results
    case forms

    /// The keys a line of this type may have, its tag and version included: its record type's columns.
    var fields: [TranscriptField] {
        switch self {
        case .session: SessionHeader.columns.fields
        case .turnStarted: TurnStarted.columns.fields
        case .turnEnded: TurnEnded.columns.fields
        case .undo: UndoRecord.columns.fields
        case .name: NameRecord.columns.fields
        case .handEdit: HandEditRecord.columns.fields
        case .source: SourceRecord.columns.fields
        case .sourceRemoved: SourceRemovedRecord.columns.fields
        case .unit: UnitRecord.columns.fields
        case .lesson: LessonRecord.columns.fields
        case .setting: SettingRecord.columns.fields
        case .results: ResultsRecord.columns.fields
        case .forms: FormsRecord.columns.fields
        }
    }
}

/// The keys a transcript line may have, across all record types.
enum TranscriptField: Int, CaseIterable, CodingKey {
    case type, v, id, created, inputs, model, baseURL, name, toolVersion, turn, at, command, template
    case baseVersion, instructions, input, maxOutputTokens, status, output, usage, responseID, error
    case version, durationMs, from, to, text, framework, follows, kind, check, readingLevel, kept, materials
    case retryOf, continues, streamed, quizKind, quizItems, quizFeedback, rubricLevels, quiz, rubric, review
    case path, bytes, sha256, pages, paged, number
    case lesson, lessons, goal, questions, outline, repair, className, counts, forms, seed, made

    /// The key as written on disk.
    var key: StaticString {
        switch self {
        case .type: "type"
        case .v: "v"
        case .id: "id"
        case .created: "created"
        case .inputs: "inputs"
        case .model: "model"
        case .baseURL: "base_url"
        case .name: "name"
        case .toolVersion: "tool_version"
        case .turn: "turn"
        case .at: "at"
        case .command: "command"
        case .template: "template"
        case .baseVersion: "base_version"
        case .instructions: "instructions"
        case .input: "input"
        case .maxOutputTokens: "max_output_tokens"
        case .status: "status"
        case .output: "output"
        case .usage: "usage"
        case .responseID: "response_id"
        case .error: "error"
        case .version: "version"
        case .durationMs: "duration_ms"
        case .from: "from"
        case .to: "to"
        case .text: "text"
        case .framework: "framework"
        case .follows: "follows"
        case .kind: "kind"
        case .check: "check"
        case .readingLevel: "reading_level"
        case .kept: "kept"
        case .materials: "materials"
        case .retryOf: "retry_of"
        case .continues: "continues"
        case .streamed: "streamed"
        case .quizKind: "quiz_kind"
        case .quizItems: "quiz_items"
        case .quizFeedback: "quiz_feedback"
        case .rubricLevels: "rubric_levels"
        case .quiz: "quiz"
        case .rubric: "rubric"
        case .review: "review"
        case .path: "path"
        case .bytes: "bytes"
        case .sha256: "sha256"
        case .pages: "pages"
        case .paged: "paged"
        case .number: "number"
        case .lesson: "lesson"
        case .lessons: "lessons"
        case .goal: "goal"
        case .questions: "questions"
        case .outline: "outline"
        case .repair: "repair"
        case .className: "class_name"
        case .counts: "counts"
        case .forms: "forms"
        case .seed: "seed"
        case .made: "made"
        }
    }

    /// The keys a `turn_ended` line had for what the turn made (`"quiz":2`) before `made` held it, each named after the
    /// kind and holding its number: read, never written. A kind added since has only `made`.
    static let madeBefore: [TranscriptField] = [.materials, .quiz, .rubric, .review]

    /// What a field holds, as the fast scanner reads it.
    enum Holds {
        case integer, boolean, other
    }

    var holds: Holds {
        switch self {
        case .v, .turn, .baseVersion, .maxOutputTokens, .version, .durationMs, .from, .to, .follows, .materials, .retryOf,
            .continues, .quizItems, .rubricLevels, .quiz, .rubric, .review, .lesson:
            .integer
        case .kept, .streamed, .quizFeedback: .boolean
        default: .other
        }
    }

    // The coding key is the key on disk as the coders' snake-case strategies see it (`base_url` is
    // `baseUrl`): the transcript's nested values (inputs, usage, the plan check) are read and written
    // through those strategies, and a line's own keys pass through them too. `TranscriptSchemaTests`
    // checks that converting each back gives the key on disk.
    var stringValue: String { Self.camelCase[rawValue] }
    var intValue: Int? { nil }

    init?(stringValue: String) {
        guard let index = Self.camelCase.firstIndex(of: stringValue) else { return nil }
        self = Self.allCases[index]
    }

    /// Each field's key in camel case (`max_output_tokens` → `maxOutputTokens`), by raw value.
    static let camelCase: [String] = allCases.map { field in
        let words = field.key.description.split(separator: "_")
        return words.prefix(1).joined() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    init?(intValue: Int) { nil }
}
