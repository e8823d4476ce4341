import Foundation

/// Any JSON value, so stream decoders can read what is there and shrug at what is missing.
///
/// Servers that imitate the OpenAI API omit fields, send `null`, or use numbers where OpenAI
/// uses strings; reading through this type keeps one odd field from failing a whole event.
enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `text`, or nil when it is not JSON.
    static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The member `key` of an object; nil for other values or a missing key.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// A whole number, also when a server writes it as `12.0`.
    var intValue: Int? {
        if case .number(let value) = self { return Int(exactly: value) }
        return nil
    }

    /// A string, or a number spelled as one, because some servers send error codes as numbers.
    var codeValue: String? {
        switch self {
        case .string(let value): value
        case .number(let value): Int(exactly: value).map(String.init) ?? String(value)
        default: nil
        }
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

extension Usage {
    /// Reads token counts from either API's usage object; nil when the counts are not there.
    init?(json: JSONValue?, inputKey: String, outputKey: String, detailsKey: String) {
        guard let json, let input = json[inputKey]?.intValue, let output = json[outputKey]?.intValue else {
            return nil
        }
        self.init(
            inputTokens: input, outputTokens: output,
            reasoningTokens: json[detailsKey]?["reasoning_tokens"]?.intValue)
    }
}

/// A short, printable sketch of an event that could not be read, for the one-line report.
func malformedDescription(_ problem: String, data: String) -> String {
    let limit = 80
    let flattened = data.replacingOccurrences(of: "\n", with: " ")
    let excerpt = flattened.count > limit ? String(flattened.prefix(limit)) + "…" : flattened
    return "\(problem): \(excerpt)"
}
