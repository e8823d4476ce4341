import Foundation

/// Any JSON value, so stream decoders can read what is there and shrug at what is missing, and
/// tests can script and inspect free-form JSON without `[String: Any]` (which is not `Sendable`).
///
/// Servers that imitate the OpenAI API omit fields, send `null`, or use numbers where OpenAI
/// uses strings; reading through this type keeps one odd field from failing a whole event.
package enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
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

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers go out as integers: the server reads counts and statuses with int().
            if value.rounded() == value, let whole = Int(exactly: value) {
                try container.encode(whole)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member named `key`, when this is an object that has it.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index`, when this is an array that long.
    package subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    package var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    package var doubleValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    package var intValue: Int? {
        if case .number(let value) = self { Int(exactly: value) } else { nil }
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// Parses JSON text.
    package static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    package init(nilLiteral: ()) { self = .null }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(stringLiteral value: String) { self = .string(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

extension JSONValue {
    /// Parses `text`, or nil when it is not JSON.
    package static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// What `value` encodes to; null for a value that cannot be encoded (plain structs of text and numbers can).
    package init(encoding value: some Encodable) {
        self = (try? JSONEncoder().encode(value)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) } ?? .null
    }

    /// A string, or a number spelled as one, because some servers send error codes as numbers.
    package var codeValue: String? {
        switch self {
        case .string(let value): value
        case .number(let value): Int(exactly: value).map(String.init) ?? String(value)
        default: nil
        }
    }

    package var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
