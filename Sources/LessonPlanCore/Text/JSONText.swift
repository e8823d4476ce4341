import Foundation

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
    package static func quote(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
