import Foundation

/// A JSON schema the model's answer must follow (structured outputs), sent strict.
///
/// The schema travels as text so its members keep their order: a model writes an object's members in
/// the order the schema lists them, and `JSONSerialization` would sort them.
package struct ResponseSchema: Equatable, Sendable {
    /// The name the schema is sent under (letters, digits, `_` and `-`).
    package var name: String
    /// The schema object, serialized.
    package var json: String

    package init(name: String, json: String) {
        self.name = name
        self.json = json
    }

    /// A request body with the schema where the wire format wants it: the Responses API's
    /// `text.format`, or Chat Completions' `response_format` (the one llama-server enforces).
    /// - Parameter body: a serialized JSON object.
    func added(to body: Data, api: APIFlavor) -> Data {
        guard body.last == UInt8(ascii: "}"), body.count > 2 else { return body }
        let described = "\"name\":\(JSONText.quote(name)),\"strict\":true,\"schema\":\(json)"
        let member: String
        switch api {
        case .responses:
            member = "\"text\":{\"format\":{\"type\":\"json_schema\",\(described)}}"
        case .chat:
            member = "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\(described)}}"
        }
        return body.dropLast() + Data(",\(member)}".utf8)
    }
}

/// JSON written with its members in a chosen order (`JSONSerialization` sorts or shuffles them), for a
/// schema whose property order is the order a model writes the parts in.
package enum JSONText {
    case string(String)
    case number(Int)
    case bool(Bool)
    case array([JSONText])
    case object([(String, JSONText)])

    package var serialized: String {
        switch self {
        case .string(let text): Self.quote(text)
        case .number(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .array(let items): "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { Self.quote($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal, quotes included.
    static func quote(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
