import Foundation

// The transcript format's names, in one place: each record type's `type` tag and the keys its
// lines have on disk (docs/transcript.md describes them). The writer encodes with these keys and
// the fast reader (`TranscriptLineScanner`) matches them, so the two cannot drift apart; the full
// decoder reads the record types' property names through snake-case conversion, and
// `TranscriptFastPathTests` checks those against the keys here.

/// What a transcript line records: its `type` tag on disk.
public enum TranscriptRecordType: String, CaseIterable, Sendable {
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

    /// The keys a line of this type may have, its tag and version included.
    var fields: [TranscriptField] {
        switch self {
        case .session:
            [.type, .v, .id, .created, .inputs, .model, .baseURL, .name, .toolVersion, .framework]
        case .turnStarted:
            [
                .type, .v, .turn, .at, .command, .template, .inputs, .baseVersion, .model, .instructions, .input,
                .maxOutputTokens, .framework, .follows, .kind, .retryOf, .continues, .quizKind, .quizItems,
                .rubricLevels, .lesson,
            ]
        case .turnEnded:
            [
                .type, .v, .turn, .at, .status, .output, .usage, .responseID, .error, .version, .durationMs, .check,
                .readingLevel, .kept, .materials, .streamed, .quiz, .rubric, .review,
            ]
        case .undo: [.type, .v, .at, .from, .to, .lesson]
        case .name: [.type, .v, .at, .name]
        case .handEdit: [.type, .v, .at, .command, .baseVersion, .version, .text, .check, .lesson]
        case .source: [.type, .v, .at, .name, .path, .bytes, .sha256, .pages, .paged]
        case .sourceRemoved: [.type, .v, .at, .number, .name]
        case .unit: [.type, .v, .at, .turn, .lessons, .inputs, .framework, .goal, .questions, .outline]
        case .lesson: [.type, .v, .at, .number]
        }
    }
}

/// The keys a transcript line may have, across all record types.
enum TranscriptField: Int, CaseIterable, CodingKey {
    case type, v, id, created, inputs, model, baseURL, name, toolVersion, turn, at, command, template
    case baseVersion, instructions, input, maxOutputTokens, status, output, usage, responseID, error
    case version, durationMs, from, to, text, framework, follows, kind, check, readingLevel, kept, materials
    case retryOf, continues, streamed, quizKind, quizItems, rubricLevels, quiz, rubric, review
    case path, bytes, sha256, pages, paged, number
    case lesson, lessons, goal, questions, outline

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
        }
    }

    // The writer's coding key is the key on disk (snake case, which the encoder's snake-case
    // strategy leaves as it is).
    var stringValue: String { key.description }
    var intValue: Int? { nil }

    init?(stringValue: String) {
        guard let field = Self.allCases.first(where: { $0.key.description == stringValue }) else { return nil }
        self = field
    }

    init?(intValue: Int) { nil }
}

// MARK: - Writing with the schema's keys

extension SessionHeader {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(id, forKey: .id)
        try out.encode(created, forKey: .created)
        try out.encode(inputs, forKey: .inputs)
        try out.encode(model, forKey: .model)
        try out.encode(baseUrl, forKey: .baseURL)
        try out.encodeIfPresent(name, forKey: .name)
        try out.encode(toolVersion, forKey: .toolVersion)
        try out.encodeIfPresent(framework, forKey: .framework)
    }
}

extension TurnStarted {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(turn, forKey: .turn)
        try out.encode(at, forKey: .at)
        try out.encode(command, forKey: .command)
        try out.encode(template, forKey: .template)
        try out.encode(inputs, forKey: .inputs)
        try out.encodeIfPresent(baseVersion, forKey: .baseVersion)
        try out.encode(model, forKey: .model)
        try out.encode(instructions, forKey: .instructions)
        try out.encode(input, forKey: .input)
        try out.encode(maxOutputTokens, forKey: .maxOutputTokens)
        try out.encodeIfPresent(framework, forKey: .framework)
        try out.encodeIfPresent(follows, forKey: .follows)
        try out.encodeIfPresent(kind, forKey: .kind)
        try out.encodeIfPresent(retryOf, forKey: .retryOf)
        try out.encodeIfPresent(continues, forKey: .continues)
        try out.encodeIfPresent(quizKind, forKey: .quizKind)
        try out.encodeIfPresent(quizItems, forKey: .quizItems)
        try out.encodeIfPresent(rubricLevels, forKey: .rubricLevels)
        try out.encodeIfPresent(lesson, forKey: .lesson)
    }
}

extension TurnEnded {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(turn, forKey: .turn)
        try out.encode(at, forKey: .at)
        try out.encode(status, forKey: .status)
        try out.encode(output, forKey: .output)
        try out.encodeIfPresent(usage, forKey: .usage)
        try out.encodeIfPresent(responseId, forKey: .responseID)
        try out.encodeIfPresent(error, forKey: .error)
        try out.encodeIfPresent(version, forKey: .version)
        try out.encode(durationMs, forKey: .durationMs)
        try out.encodeIfPresent(check, forKey: .check)
        try out.encodeIfPresent(readingLevel, forKey: .readingLevel)
        try out.encodeIfPresent(kept, forKey: .kept)
        try out.encodeIfPresent(materials, forKey: .materials)
        try out.encodeIfPresent(streamed, forKey: .streamed)
        try out.encodeIfPresent(quiz, forKey: .quiz)
        try out.encodeIfPresent(rubric, forKey: .rubric)
        try out.encodeIfPresent(review, forKey: .review)
    }
}

extension UndoRecord {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(at, forKey: .at)
        try out.encode(from, forKey: .from)
        try out.encode(to, forKey: .to)
        try out.encodeIfPresent(lesson, forKey: .lesson)
    }
}

extension NameRecord {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(at, forKey: .at)
        try out.encode(name, forKey: .name)
    }
}

extension HandEditRecord {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(at, forKey: .at)
        try out.encode(command, forKey: .command)
        try out.encode(baseVersion, forKey: .baseVersion)
        try out.encode(version, forKey: .version)
        try out.encode(text, forKey: .text)
        try out.encodeIfPresent(check, forKey: .check)
        try out.encodeIfPresent(lesson, forKey: .lesson)
    }
}

// A source line holds the document's fields beside `at`, flat, as every other line does.
extension SourceRecord {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TranscriptField.self)
        at = try container.decode(Date.self, forKey: .at)
        source = SourceDocument(
            name: try container.decode(String.self, forKey: .name), path: try container.decode(String.self, forKey: .path),
            bytes: try container.decode(Int.self, forKey: .bytes), sha256: try container.decode(String.self, forKey: .sha256),
            pages: try container.decode([String].self, forKey: .pages), paged: try container.decode(Bool.self, forKey: .paged))
    }

    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(at, forKey: .at)
        try out.encode(source.name, forKey: .name)
        try out.encode(source.path, forKey: .path)
        try out.encode(source.bytes, forKey: .bytes)
        try out.encode(source.sha256, forKey: .sha256)
        try out.encode(source.pages, forKey: .pages)
        try out.encode(source.paged, forKey: .paged)
    }
}

extension SourceRemovedRecord {
    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        try out.encode(at, forKey: .at)
        try out.encode(number, forKey: .number)
        try out.encode(name, forKey: .name)
    }
}
