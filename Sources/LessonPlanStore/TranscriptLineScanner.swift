import Foundation
import LessonPlanCore
import LessonPlanModel

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
/// The keys are the schema's (`TranscriptSchema.swift`) and each record is built by its type's columns
/// (`TranscriptColumns.swift`), the same declarations the writer and the full decoder use.
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
        case made(Made)
    }

    /// The values of one line's keys, by ``TranscriptField``.
    struct Fields {
        var values = [Value](repeating: .absent, count: TranscriptField.count)
        var present: UInt64 = 0

        subscript(_ field: TranscriptField) -> Value { values[field.rawValue] }

        /// The record these values make, or nil when anything is missing, extra or of the wrong kind: each field is
        /// read by its record type's column (`TranscriptColumns.swift`), as the full decoder reads it.
        func record() -> TranscriptRecord? {
            guard case .string(let tag) = self[.type], let type = TranscriptRecordType(rawValue: tag),
                present & ~type.fieldMask == 0
            else { return nil }
            // The full decoder refuses a newer version and reads anything else as this one.
            switch self[.v] {
            case .absent, .null: break
            case .integer(let version) where version <= TranscriptRecord.formatVersion: break
            default: return nil
            }
            return switch type {
            case .session: SessionHeader.columns.scanned(self).map(TranscriptRecord.header)
            case .turnStarted: TurnStarted.columns.scanned(self).map(TranscriptRecord.turnStarted)
            case .turnEnded: TurnEnded.columns.scanned(self).map(TranscriptRecord.turnEnded)
            case .undo: UndoRecord.columns.scanned(self).map(TranscriptRecord.undo)
            case .name: NameRecord.columns.scanned(self).map(TranscriptRecord.named)
            case .handEdit: HandEditRecord.columns.scanned(self).map(TranscriptRecord.handEdit)
            case .sourceRemoved: SourceRemovedRecord.columns.scanned(self).map(TranscriptRecord.sourceRemoved)
            case .lesson: LessonRecord.columns.scanned(self).map(TranscriptRecord.lesson)
            case .setting: SettingRecord.columns.scanned(self).map(TranscriptRecord.setting)
            // A source and a unit's overview hold lists, which the scanner does not read: the full decoder does.
            case .forms: FormsRecord.columns.scanned(self).map(TranscriptRecord.forms)
            case .source, .unit, .results: nil
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
