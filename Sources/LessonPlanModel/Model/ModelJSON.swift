import Foundation
import LessonPlanCore

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
