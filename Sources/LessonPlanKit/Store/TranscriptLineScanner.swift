import Foundation

/// Reads a transcript line as this tool writes it straight from its bytes, because `JSONDecoder`
/// with snake-case keys took about 0.6 s of CPU for the 20,000 lines of a 10,000-turn session,
/// twice what `resume` may take in all.
///
/// It is deliberately narrow: a flat object without whitespace whose keys are all fields of its
/// record type (each at most once, in any order), holding strings, integers, `true`, `false` and
/// `null`, with `inputs`, `usage`, the plan check (`check`) and the reading level (`reading_level`)
/// as objects of their own known keys. A plan check or reading level written any other way (a
/// problem kind from a newer build, say, which the full decoder drops) is delimited here and decoded
/// on its own by the full decoder's `JSONDecoder`, so it reads exactly as there; that costs about
/// 20 µs a value, which on every `turn_ended` line would triple `resume`. Whatever it does not fully
/// understand — another key (a field added by a newer build), whitespace, a fraction, a duplicate
/// key, an escaped key, a bad date, invalid UTF-8 — makes it return nil, and the caller then asks
/// the full decoder, which also produces every error. So whenever this returns a record,
/// ``TranscriptCoder/decodeWithoutFastPath(_:)`` returns the same one.
///
/// The keys are the schema's (`TranscriptSchema.swift`), shared with the writer. A field added to a
/// record type must be added there and read here too, or every line of that type quietly takes the
/// slow path; `TranscriptFastPathTests` checks the fields against the record types to catch that.
enum TranscriptLineScanner {
    /// The record on one line (without its newline), or nil to leave it to the full decoder.
    ///
    /// With `prompts` `.skipped`, a `turn_started` line's `instructions` and `input` are checked
    /// exactly as when they are kept (so the same lines are accepted) but come back empty.
    static func record(
        in line: UnsafeRawBufferPointer, prompts: TranscriptReader.Prompts = .kept
    ) -> TranscriptRecord? {
        guard let start = line.baseAddress, line.count >= 2 else { return nil }
        var scanner = Scanner(
            base: start.assumingMemoryBound(to: UInt8.self), count: line.count, keepsPrompts: prompts == .kept)
        guard let fields = scanner.topLevelObject() else { return nil }
        return fields.record()
    }

    /// One value as read; which case a field may hold is checked when the record is built.
    enum Value {
        case absent
        case null
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case inputs(LessonInputs)
        case usage(Usage)
        case check(PlanCheckReport)
        case readingLevel(ReadingMeasure)
    }

    /// The values of one line's keys, by ``TranscriptField``.
    struct Fields {
        var values = [Value](repeating: .absent, count: TranscriptField.count)
        var present: UInt64 = 0

        subscript(_ field: TranscriptField) -> Value { values[field.rawValue] }

        /// A required string, or nil when absent, `null` or not a string.
        func string(_ field: TranscriptField) -> String? {
            if case .string(let text) = self[field] { return text }
            return nil
        }

        /// An optional string: `.some(nil)` for absent or `null`, nil for the wrong kind.
        func optionalString(_ field: TranscriptField) -> String?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case .string(let text): return .some(text)
            default: return nil
            }
        }

        func integer(_ field: TranscriptField) -> Int? {
            if case .integer(let number) = self[field] { return number }
            return nil
        }

        func optionalInteger(_ field: TranscriptField) -> Int?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case .integer(let number): return .some(number)
            default: return nil
            }
        }

        /// A date as the full decoder reads one, through the same parser.
        func date(_ field: TranscriptField) -> Date? {
            string(field).flatMap(TranscriptCoder.parse)
        }

        func inputs(_ field: TranscriptField) -> LessonInputs? {
            if case .inputs(let inputs) = self[field] { return inputs }
            return nil
        }

        func optionalUsage(_ field: TranscriptField) -> Usage?? {
            optional(field) { if case .usage(let usage) = $0 { usage } else { nil } }
        }

        func optionalBoolean(_ field: TranscriptField) -> Bool?? {
            optional(field) { if case .boolean(let flag) = $0 { flag } else { nil } }
        }

        func optionalCheck(_ field: TranscriptField) -> PlanCheckReport?? {
            optional(field) { if case .check(let report) = $0 { report } else { nil } }
        }

        func optionalReadingLevel(_ field: TranscriptField) -> ReadingMeasure?? {
            optional(field) { if case .readingLevel(let measure) = $0 { measure } else { nil } }
        }

        /// A turn's kind: a string naming a ``TurnKind``; any other string is for the full decoder to refuse.
        func optionalTurnKind(_ field: TranscriptField) -> TurnKind?? {
            optional(field) { if case .string(let text) = $0 { TurnKind(rawValue: text) } else { nil } }
        }

        /// A quiz's kind: a string naming a ``Quiz/Kind``; any other string is for the full decoder to refuse.
        func optionalQuizKind(_ field: TranscriptField) -> Quiz.Kind?? {
            optional(field) { if case .string(let text) = $0 { Quiz.Kind(rawValue: text) } else { nil } }
        }

        /// An optional field: `.some(nil)` for absent or `null`, `.some` of what `take` makes of the
        /// value, or nil when it makes nothing (the wrong kind).
        private func optional<T>(_ field: TranscriptField, _ take: (Value) -> T?) -> T?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case let value: return take(value).map { .some($0) }
            }
        }

        /// The record these values make, or nil when anything is missing, extra or of the wrong kind.
        func record() -> TranscriptRecord? {
            guard let type = string(.type).flatMap(TranscriptRecordType.init(rawValue:)),
                present & ~type.fieldMask == 0
            else { return nil }
            // The full decoder refuses a newer version and reads anything else as this one.
            guard let version = optionalInteger(.v), (version ?? 0) <= TranscriptRecord.formatVersion else {
                return nil
            }
            switch type {
            case .session:
                guard let id = string(.id), let created = date(.created), let inputs = inputs(.inputs),
                    let model = string(.model), let baseURL = string(.baseURL), let name = optionalString(.name),
                    let toolVersion = string(.toolVersion), let framework = optionalString(.framework)
                else { return nil }
                return .header(
                    SessionHeader(
                        id: id, created: created, inputs: inputs, model: model, baseUrl: baseURL, name: name,
                        toolVersion: toolVersion, framework: framework))
            case .turnStarted:
                guard let turn = integer(.turn), let at = date(.at), let command = string(.command),
                    let template = string(.template), let inputs = inputs(.inputs),
                    let baseVersion = optionalInteger(.baseVersion), let model = string(.model),
                    let instructions = string(.instructions), let input = string(.input),
                    let maxOutputTokens = integer(.maxOutputTokens), let framework = optionalString(.framework),
                    let follows = optionalInteger(.follows), let kind = optionalTurnKind(.kind),
                    let retryOf = optionalInteger(.retryOf), let continues = optionalInteger(.continues),
                    let quizKind = optionalQuizKind(.quizKind), let quizItems = optionalInteger(.quizItems),
                    let rubricLevels = optionalInteger(.rubricLevels), let lesson = optionalInteger(.lesson)
                else { return nil }
                return .turnStarted(
                    TurnStarted(
                        turn: turn, at: at, command: command, template: template, inputs: inputs,
                        baseVersion: baseVersion, model: model, instructions: instructions, input: input,
                        maxOutputTokens: maxOutputTokens, framework: framework, follows: follows, kind: kind,
                        retryOf: retryOf, continues: continues, quizKind: quizKind, quizItems: quizItems,
                        rubricLevels: rubricLevels, lesson: lesson))
            case .turnEnded:
                guard let turn = integer(.turn), let at = date(.at),
                    let status = string(.status).flatMap(TurnStatus.init(rawValue:)), let output = string(.output),
                    let usage = optionalUsage(.usage), let responseID = optionalString(.responseID),
                    let error = optionalString(.error), let version = optionalInteger(.version),
                    let durationMs = integer(.durationMs), let check = optionalCheck(.check),
                    let readingLevel = optionalReadingLevel(.readingLevel), let kept = optionalBoolean(.kept),
                    let materials = optionalInteger(.materials), let streamed = optionalBoolean(.streamed),
                    let quiz = optionalInteger(.quiz), let rubric = optionalInteger(.rubric),
                    let review = optionalInteger(.review)
                else { return nil }
                return .turnEnded(
                    TurnEnded(
                        turn: turn, at: at, status: status, output: output, usage: usage, responseId: responseID,
                        error: error, version: version, durationMs: durationMs, check: check,
                        readingLevel: readingLevel, kept: kept, materials: materials, streamed: streamed, quiz: quiz,
                        rubric: rubric, review: review))
            case .undo:
                guard let at = date(.at), let from = integer(.from), let to = integer(.to),
                    let lesson = optionalInteger(.lesson)
                else { return nil }
                return .undo(UndoRecord(at: at, from: from, to: to, lesson: lesson))
            case .name:
                guard let at = date(.at), let name = string(.name) else { return nil }
                return .named(NameRecord(at: at, name: name))
            case .handEdit:
                guard let at = date(.at), let command = string(.command), let baseVersion = integer(.baseVersion),
                    let version = integer(.version), let text = string(.text), let check = optionalCheck(.check),
                    let lesson = optionalInteger(.lesson)
                else { return nil }
                return .handEdit(
                    HandEditRecord(
                        at: at, command: command, baseVersion: baseVersion, version: version, text: text, check: check,
                        lesson: lesson))
            // Sources and a unit's lines are rare and read by the full decoder.
            case .source, .sourceRemoved, .unit, .lesson:
                return nil
            }
        }
    }

    enum Byte {
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ",")
        static let minus = UInt8(ascii: "-")
        static let dot = UInt8(ascii: ".")
        static let zero = UInt8(ascii: "0")
        static let null: StaticString = "null"
    }
}

/// What the scanner needs of the schema's keys: one bit each, and finding the field a key names.
extension TranscriptField {
    /// One bit per field in a `UInt64`, so there may be at most 64 fields.
    var bit: UInt64 { 1 << UInt64(rawValue) }

    /// How many fields there are; `rawValue`s run from 0 to one less.
    static let count = allCases.count

    /// The field a key names; keys are compared as bytes, so an escaped key never matches.
    static func named(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> TranscriptField? {
        guard range.count < byKeyLength.count else { return nil }
        for field in byKeyLength[range.count]
        where memcmp(base + range.lowerBound, field.key.utf8Start, range.count) == 0 {
            return field
        }
        return nil
    }

    /// Fields by the length of their key, so each key is compared with a few candidates rather
    /// than all of them (once per key of 20,000 lines, that showed in the profile).
    private static let byKeyLength: [[TranscriptField]] = {
        var table = [[TranscriptField]](repeating: [], count: (allCases.map(\.key.utf8CodeUnitCount).max() ?? 0) + 1)
        for field in allCases { table[field.key.utf8CodeUnitCount].append(field) }
        return table
    }()
}

extension TranscriptRecordType {
    /// The keys a line of this type may have, as a bit mask of ``TranscriptField/bit``.
    var fieldMask: UInt64 { Self.masks[self] ?? 0 }

    private static let masks: [TranscriptRecordType: UInt64] = Dictionary(
        uniqueKeysWithValues: allCases.map { type in (type, type.fields.reduce(0) { $0 | $1.bit }) })
}
