import Foundation
import LessonPlanCore
import LessonPlanModel

// Every field of every transcript line is declared once, as a column of its record type: its key
// (``TranscriptField``), whether it may be absent, and the property that holds it. The writer, the full
// decoder, the fast scanner (`TranscriptLineScanner`) and the list of keys a line may have
// (``TranscriptRecordType/fields``) are all made from these tables, so adding a field to a line is its
// property and one column here (and its line in docs/transcript.md).

/// A value a transcript column holds, and how the fast scanner's reading of a line's bytes gives one.
protocol TranscriptValue: Codable, SendableMetatype {
    /// The value the scanner read, or nil when it is of another kind: the line then goes to the full decoder,
    /// which reads it (or says what is wrong) exactly as it would have anyway.
    static func scanned(_ value: TranscriptLineScanner.Value) -> Self?
}

/// One field of a record type `Record`: written, decoded and scanned by the same declaration.
struct TranscriptColumn<Record>: Sendable {
    let field: TranscriptField
    let write: @Sendable (Record, inout KeyedEncodingContainer<TranscriptField>) throws -> Void
    let read: @Sendable (inout Record, KeyedDecodingContainer<TranscriptField>) throws -> Void
    /// Sets the field from the scanner's values; false when the value is missing or of the wrong kind.
    let scan: @Sendable (inout Record, TranscriptLineScanner.Fields) -> Bool

    /// A field every line of the type has.
    static func required<Value: TranscriptValue>(
        _ field: TranscriptField, _ path: WritableKeyPath<Record, Value> & Sendable
    ) -> Self {
        Self(
            field: field,
            write: { record, out in try out.encode(record[keyPath: path], forKey: field) },
            read: { record, line in record[keyPath: path] = try line.decode(Value.self, forKey: field) },
            scan: { record, fields in
                guard let value = Value.scanned(fields[field]) else { return false }
                record[keyPath: path] = value
                return true
            })
    }

    /// A field a line may leave out (or write as `null`): nil, as in transcripts written before it existed.
    static func optional<Value: TranscriptValue>(
        _ field: TranscriptField, _ path: WritableKeyPath<Record, Value?> & Sendable
    ) -> Self {
        Self(
            field: field,
            write: { record, out in try out.encodeIfPresent(record[keyPath: path], forKey: field) },
            read: { record, line in record[keyPath: path] = try line.decodeIfPresent(Value.self, forKey: field) },
            scan: { record, fields in
                switch fields[field] {
                case .absent, .null:
                    record[keyPath: path] = nil
                    return true
                case let scanned:
                    guard let value = Value.scanned(scanned) else { return false }
                    record[keyPath: path] = value
                    return true
                }
            })
    }
}

/// A record type's columns, with the value its reading starts from (every required column then overwrites it).
struct TranscriptColumns<Record>: Sendable where Record: Sendable {
    let unread: Record
    let columns: [TranscriptColumn<Record>]

    init(unread: Record, _ columns: [TranscriptColumn<Record>]) {
        self.unread = unread
        self.columns = columns
    }

    /// The keys a line of this record type may have, its tag and version included.
    var fields: [TranscriptField] { [.type, .v] + columns.map(\.field) }

    func encode(_ record: Record, to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: TranscriptField.self)
        for column in columns { try column.write(record, &out) }
    }

    func decode(from decoder: any Decoder) throws -> Record {
        let line = try decoder.container(keyedBy: TranscriptField.self)
        var record = unread
        for column in columns { try column.read(&record, line) }
        return record
    }

    /// The record the scanner's values make, or nil when one is missing or of the wrong kind.
    func scanned(_ fields: TranscriptLineScanner.Fields) -> Record? {
        var record = unread
        for column in columns where !column.scan(&record, fields) { return nil }
        return record
    }
}

// MARK: - The columns of each line

extension SessionHeader {
    static let columns = TranscriptColumns(
        unread: SessionHeader(id: "", created: .distantPast, inputs: .unread, model: "", baseUrl: "", toolVersion: ""),
        [
            .required(.id, \.id), .required(.created, \.created), .required(.inputs, \.inputs),
            .required(.model, \.model), .required(.baseURL, \.baseUrl), .optional(.name, \.name),
            .required(.toolVersion, \.toolVersion), .optional(.framework, \.framework),
            .optional(.className, \.className),
        ])
}

extension TurnStarted {
    static let columns = TranscriptColumns(
        unread: TurnStarted(
            turn: 0, at: .distantPast, command: "", template: "", inputs: .unread, baseVersion: nil, model: "",
            instructions: "", input: "", maxOutputTokens: 0),
        [
            .required(.turn, \.turn), .required(.at, \.at), .required(.command, \.command),
            .required(.template, \.template), .required(.inputs, \.inputs), .optional(.baseVersion, \.baseVersion),
            .required(.model, \.model), .required(.instructions, \.instructions), .required(.input, \.input),
            .required(.maxOutputTokens, \.maxOutputTokens), .optional(.framework, \.framework),
            .optional(.follows, \.follows), .optional(.kind, \.kind), .optional(.retryOf, \.retryOf),
            .optional(.continues, \.continues), .optional(.quizKind, \.quizKind), .optional(.quizItems, \.quizItems),
            .optional(.quizFeedback, \.quizFeedback), .optional(.rubricLevels, \.rubricLevels), .optional(.lesson, \.lesson),
        ])
}

extension TurnEnded {
    static let columns = TranscriptColumns(
        unread: TurnEnded(
            turn: 0, at: .distantPast, status: .failed, output: "", usage: nil, responseId: nil, error: nil, version: nil,
            durationMs: 0),
        [
            .required(.turn, \.turn), .required(.at, \.at), .required(.status, \.status), .required(.output, \.output),
            .optional(.usage, \.usage), .optional(.responseID, \.responseId), .optional(.error, \.error),
            .optional(.version, \.version), .required(.durationMs, \.durationMs), .optional(.check, \.check),
            .optional(.readingLevel, \.readingLevel), .optional(.kept, \.kept), .optional(.made, \.made),
            .optional(.streamed, \.streamed),
        ]
            + TranscriptField.madeBefore.compactMap { field in TurnKind(rawValue: field.key.description).map { .madeBefore(field, $0) } })
}

extension TranscriptColumn where Record == TurnEnded {
    /// A key older transcripts wrote for what a turn made (`"quiz":2`, ``TranscriptField/madeBefore``): read as
    /// ``TurnEnded/made``, never written.
    static func madeBefore(_ field: TranscriptField, _ kind: TurnKind) -> Self {
        Self(
            field: field,
            write: { _, _ in },
            read: { record, line in
                guard let number = try line.decodeIfPresent(Int.self, forKey: field) else { return }
                record.made = record.made ?? Made(kind, number)
            },
            scan: { record, fields in
                switch fields[field] {
                case .absent, .null: return true
                case .integer(let number):
                    record.made = record.made ?? Made(kind, number)
                    return true
                default: return false
                }
            })
    }
}

extension UndoRecord {
    static let columns = TranscriptColumns(
        unread: UndoRecord(at: .distantPast, from: 0, to: 0),
        [
            .required(.at, \.at), .required(.from, \.from), .required(.to, \.to), .optional(.lesson, \.lesson),
            .optional(.command, \.command),
        ])
}

extension NameRecord {
    static let columns = TranscriptColumns(
        unread: NameRecord(at: .distantPast, name: ""), [.required(.at, \.at), .required(.name, \.name)])
}

extension HandEditRecord {
    static let columns = TranscriptColumns(
        unread: HandEditRecord(at: .distantPast, command: "", baseVersion: 0, version: 0, text: ""),
        [
            .required(.at, \.at), .required(.command, \.command), .required(.baseVersion, \.baseVersion),
            .required(.version, \.version), .required(.text, \.text), .optional(.check, \.check),
            .optional(.lesson, \.lesson),
        ])
}

// A source line holds the document's fields beside `at`, flat, as every other line does.
extension SourceRecord {
    static let columns = TranscriptColumns(
        unread: SourceRecord(
            at: .distantPast, source: SourceDocument(name: "", path: "", bytes: 0, sha256: "", pages: [], paged: false)),
        [
            .required(.at, \.at), .required(.name, \.source.name), .required(.path, \.source.path),
            .required(.bytes, \.source.bytes), .required(.sha256, \.source.sha256), .required(.pages, \.source.pages),
            .required(.paged, \.source.paged),
        ])
}

extension SourceRemovedRecord {
    static let columns = TranscriptColumns(
        unread: SourceRemovedRecord(at: .distantPast, number: 0, name: ""),
        [.required(.at, \.at), .required(.number, \.number), .required(.name, \.name)])
}

extension UnitRecord {
    static let columns = TranscriptColumns(
        unread: UnitRecord(
            at: .distantPast, turn: 0, inputs: .unread, framework: nil, plan: UnitPlan(goal: "", questions: [], lessons: [])),
        [
            .required(.at, \.at), .required(.turn, \.turn), .required(.lessons, \.lessons), .required(.inputs, \.inputs),
            .optional(.framework, \.framework), .required(.goal, \.goal), .required(.questions, \.questions),
            .required(.outline, \.outline),
        ])
}

extension LessonRecord {
    static let columns = TranscriptColumns(
        unread: LessonRecord(at: .distantPast, number: 0), [.required(.at, \.at), .required(.number, \.number)])
}

extension ResultsRecord {
    static let columns = TranscriptColumns(
        unread: ResultsRecord(at: .distantPast, quiz: 0, counts: []),
        [.required(.at, \.at), .required(.quiz, \.quiz), .required(.counts, \.counts)])
}

extension FormsRecord {
    // The seed is written as text: a JSON number past 2^53 would not read back the same everywhere.
    static let columns = TranscriptColumns(
        unread: FormsRecord(at: .distantPast, quiz: 0, forms: 0, seed: 0),
        [.required(.at, \.at), .required(.quiz, \.quiz), .required(.forms, \.forms), .required(.seed, \.seedText)])

    var seedText: String {
        get { String(seed) }
        set { seed = UInt64(newValue) ?? 0 }
    }
}

extension SettingRecord {
    static let columns = TranscriptColumns(
        unread: SettingRecord(at: .distantPast, repair: true),
        [.required(.at, \.at), .optional(.repair, \.repair), .optional(.className, \.className)])
}

// MARK: - Every record type reads and writes through its columns

extension SessionHeader {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension TurnStarted {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension TurnEnded {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension UndoRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension NameRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension HandEditRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension ResultsRecord: Codable {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension FormsRecord: Codable {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension SourceRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension SourceRemovedRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension UnitRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension SettingRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

extension LessonRecord {
    package init(from decoder: any Decoder) throws { self = try Self.columns.decode(from: decoder) }
    package func encode(to encoder: any Encoder) throws { try Self.columns.encode(self, to: encoder) }
}

// MARK: - What the scanner's values give

extension String: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> String? {
        if case .string(let text) = value { text } else { nil }
    }
}

extension Int: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Int? {
        if case .integer(let number) = value { number } else { nil }
    }
}

extension Bool: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Bool? {
        if case .boolean(let flag) = value { flag } else { nil }
    }
}

/// A date as the full decoder reads one, through the same parser.
extension Date: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Date? {
        String.scanned(value).flatMap(TranscriptCoder.parse)
    }
}

extension LessonInputs: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> LessonInputs? {
        if case .inputs(let inputs) = value { inputs } else { nil }
    }

    /// What reading a line's inputs starts from; a line without its inputs is refused, so this is never read.
    static let unread = LessonInputs(recorded: .threeTo5, topic: "", minutes: 0, standards: "", constraints: "")
}

extension Usage: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Usage? {
        if case .usage(let usage) = value { usage } else { nil }
    }
}

extension PlanCheckReport: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> PlanCheckReport? {
        if case .check(let report) = value { report } else { nil }
    }
}

extension Made: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Made? {
        if case .made(let made) = value { made } else { nil }
    }
}

extension ReadingMeasure: TranscriptValue {
    static func scanned(_ value: TranscriptLineScanner.Value) -> ReadingMeasure? {
        if case .readingLevel(let measure) = value { measure } else { nil }
    }
}

/// A name from a fixed list (a status, a kind): any other string is for the full decoder to refuse.
extension TranscriptValue where Self: RawRepresentable, RawValue == String {
    static func scanned(_ value: TranscriptLineScanner.Value) -> Self? {
        String.scanned(value).flatMap(Self.init(rawValue:))
    }
}

extension TurnStatus: TranscriptValue {}
extension TurnKind: TranscriptValue {}
extension Quiz.Kind: TranscriptValue {}

/// Lists (a source's pages, a unit's questions and outline) are not scanned: their lines are rare and go to the
/// full decoder.
extension Array: TranscriptValue where Element: Codable {
    static func scanned(_ value: TranscriptLineScanner.Value) -> [Element]? { nil }
}
