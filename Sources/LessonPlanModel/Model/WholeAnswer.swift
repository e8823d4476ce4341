import Foundation
import LessonPlanCore

/// Reads an answer that came as one JSON object instead of a stream, because a proxy such as the
/// original demo's worker drops `stream` and returns the whole Responses API object: it is still
/// the model's answer, and reads as the same events its stream would have carried.
package enum WholeAnswer {
    /// The largest whole answer read; a lesson plan's object is tens of kilobytes.
    package static let largestBody = 8 * 1024 * 1024

    /// Whether a response's content type says its body is JSON (`application/json`, `…+json`).
    package static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType else { return false }
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// The events a whole answer means, or nil when the body is not a response object of either API
    /// (then it is no answer, and the caller says what did arrive).
    ///
    /// The object says which API it is (`object`: `response` or `chat.completion`), whatever
    /// `--api` asked for: a proxy may translate, and the object cannot be mistaken.
    package static func events(from body: Data) -> [StreamEvent]? {
        guard let json = try? JSONValue.parse(body) else { return nil }
        switch json["object"]?.stringValue {
        case "response":
            return ResponsesEventDecoder.events(fromResponseObject: json)
        case "chat.completion":
            return ChatCompletionsEventDecoder.events(fromCompletion: json)
        default:
            return nil
        }
    }
}
