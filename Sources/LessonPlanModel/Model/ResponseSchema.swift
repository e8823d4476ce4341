import Foundation
import LessonPlanCore

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
