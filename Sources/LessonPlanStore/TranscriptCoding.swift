import Foundation

/// Why a line of a transcript could not be used.
package enum TranscriptLineError: Error, Equatable, Sendable {
    /// Not JSON, or JSON without the fields its type needs.
    case unreadable(String)
    /// A `type` this build does not know (written by a newer build, say).
    case unknownType(String)
    /// Written in a newer format than this build reads.
    case newerVersion(Int)
}

/// Turns records into JSON lines and back.
///
/// The tag and version are written first, so a reader can look at them without decoding the rest.
package struct TranscriptCoder: Sendable {
    package init() {}

    private struct Tag: Decodable {
        var type: String
        var v: Int?
    }

    /// One record as a single line of JSON (no trailing newline).
    package func encode(_ record: TranscriptRecord) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = Self.dateEncoding
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body: Data?
        switch record {
        case .header(let value): body = try? encoder.encode(value)
        case .turnStarted(let value): body = try? encoder.encode(value)
        case .turnEnded(let value): body = try? encoder.encode(value)
        case .undo(let value): body = try? encoder.encode(value)
        case .named(let value): body = try? encoder.encode(value)
        case .handEdit(let value): body = try? encoder.encode(value)
        case .sourceAdded(let value): body = try? encoder.encode(value)
        case .sourceRemoved(let value): body = try? encoder.encode(value)
        case .unit(let value): body = try? encoder.encode(value)
        case .lesson(let value): body = try? encoder.encode(value)
        case .setting(let value): body = try? encoder.encode(value)
        case .results(let value): body = try? encoder.encode(value)
        case .forms(let value): body = try? encoder.encode(value)
        }
        // Splice the tag in front of the object's own fields: {"type":…,"v":1,…}.
        var line = Data("{\"type\":\"\(record.type)\",\"v\":\(TranscriptRecord.formatVersion)".utf8)
        if let body, body.count > 2 {
            line.append(UInt8(ascii: ","))
            line.append(body.dropFirst())
        } else {
            line.append(UInt8(ascii: "}"))
        }
        return line
    }

    /// Reads one line, straight from its bytes when it is written as this tool writes it.
    /// - Throws: ``TranscriptLineError``.
    package func decode(_ line: Data) throws(TranscriptLineError) -> TranscriptRecord {
        if let record = decodeFastPath(line) { return record }
        return try decodeWithoutFastPath(line)
    }

    /// The record on a line written as this tool writes it, read without a JSON parser, or nil
    /// to ask ``decodeWithoutFastPath(_:)``; whenever this returns a record, that returns the same.
    package func decodeFastPath(_ line: Data) -> TranscriptRecord? {
        line.withUnsafeBytes { TranscriptLineScanner.record(in: $0) }
    }

    /// Reads one line with `JSONDecoder`: any valid JSON, and every error.
    /// - Throws: ``TranscriptLineError``.
    package func decodeWithoutFastPath(_ line: Data) throws(TranscriptLineError) -> TranscriptRecord {
        let decoded: DecodedLine
        do { decoded = try Self.decoder.decode(DecodedLine.self, from: line) } catch {
            // Not JSON at all, or not an object: what reading the tag alone would have said.
            throw .unreadable("not a transcript line")
        }
        return try decoded.outcome.get()
    }

    /// One decoder for every line, and one parse per line: reading the tag in a parse of its own
    /// took 15% of `resume`'s time on a 10,000-turn transcript under perf.
    ///
    /// Snake-case conversion stays (rather than `CodingKeys`) so that this path reads exactly what
    /// it always has, including fields other branches add to the record types.
    ///
    /// `TranscriptLineScanner` decodes a line's plan check and reading level with this decoder too,
    /// so that the fast path reads them exactly as this path does.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = dateDecoding
        return decoder
    }()

    /// A line read in one parse: the tag first, then the body from the same decoder.
    private struct DecodedLine: Decodable {
        var outcome: Result<TranscriptRecord, TranscriptLineError>

        init(from decoder: any Decoder) throws {
            let tag: Tag
            do { tag = try Tag(from: decoder) } catch {
                outcome = .failure(.unreadable("not a transcript line"))
                return
            }
            if let version = tag.v, version > TranscriptRecord.formatVersion {
                outcome = .failure(.newerVersion(version))
                return
            }
            guard let type = TranscriptRecordType(rawValue: tag.type) else {
                outcome = .failure(.unknownType(tag.type))
                return
            }
            do {
                switch type {
                case .session: outcome = .success(.header(try SessionHeader(from: decoder)))
                case .turnStarted: outcome = .success(.turnStarted(try TurnStarted(from: decoder)))
                case .turnEnded: outcome = .success(.turnEnded(try TurnEnded(from: decoder)))
                case .undo: outcome = .success(.undo(try UndoRecord(from: decoder)))
                case .name: outcome = .success(.named(try NameRecord(from: decoder)))
                case .handEdit: outcome = .success(.handEdit(try HandEditRecord(from: decoder)))
                case .source: outcome = .success(.sourceAdded(try SourceRecord(from: decoder)))
                case .sourceRemoved: outcome = .success(.sourceRemoved(try SourceRemovedRecord(from: decoder)))
                case .unit: outcome = .success(.unit(try UnitRecord(from: decoder)))
                case .lesson: outcome = .success(.lesson(try LessonRecord(from: decoder)))
                case .setting: outcome = .success(.setting(try SettingRecord(from: decoder)))
                case .results: outcome = .success(.results(try ResultsRecord(from: decoder)))
                case .forms: outcome = .success(.forms(try FormsRecord(from: decoder)))
                }
            } catch {
                outcome = .failure(.unreadable("a \(tag.type) line is missing fields"))
            }
        }
    }

    /// Dates as written in transcripts and summaries: UTC ISO 8601 with milliseconds.
    static let dateEncoding = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(TranscriptCoder.format(date))
    }

    /// Reads dates with or without milliseconds.
    static let dateDecoding = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = TranscriptCoder.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad date"))
        }
        return date
    }

    /// Times are written in UTC with milliseconds, e.g. `2026-11-29T12:20:15.123Z`.
    static func format(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    static func parse(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
