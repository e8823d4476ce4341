import Foundation

/// Token counts the service reports when a response ends.
package struct Usage: Codable, Equatable, Sendable {
    package var inputTokens: Int
    package var outputTokens: Int
    /// Hidden reasoning tokens, part of `outputTokens`, when the service reports them.
    package var reasoningTokens: Int?

    package init(inputTokens: Int, outputTokens: Int, reasoningTokens: Int? = nil) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.reasoningTokens = reasoningTokens
    }
}

/// One meaningful thing a streaming model response said, whatever its wire format.
package enum StreamEvent: Equatable, Sendable {
    /// The response exists; its id, when the server gives one.
    case created(responseID: String?)
    /// More answer text (only from `output_text` parts, never from reasoning).
    case textDelta(String)
    /// More refusal text: the model declined.
    case refusalDelta(String)
    /// The response finished normally.
    case completed(responseID: String?, usage: Usage?)
    /// The response stopped early, e.g. reason `max_output_tokens`.
    /// `maxOutputTokens` is the limit the response states it had, which a proxy may have set lower than asked.
    case incomplete(responseID: String?, reason: String?, usage: Usage?, maxOutputTokens: Int? = nil)
    /// The response failed on the service's side.
    case failed(responseID: String?, message: String?, code: String?)
    /// An `error` event in the stream.
    case error(message: String?, code: String?)
    /// An event type this tool does not use; skipped.
    case unknown(type: String)
    /// An event that could not be read; reported once, not fatal to the stream.
    case malformed(String)
}
