import Foundation
import LessonPlanCore

/// Reads the OpenAI Chat Completions stream, as OpenAI, llama-server, Ollama and vLLM send it.
///
/// That format spreads the end of a response over several messages (a `finish_reason`, then
/// perhaps a usage-only chunk, then `[DONE]`), so the decoder remembers them and reports the end
/// once, with the usage, when `[DONE]` arrives or the body ends after a `finish_reason`.
package struct ChatCompletionsEventDecoder: StreamEventDecoder {
    private var responseID: String?
    private var announced = false
    private var usage: Usage?
    private var finishReason: String?
    private var ended = false

    package init() {}

    package mutating func decode(_ message: SSEMessage) -> [StreamEvent] {
        guard !ended else { return [] }
        let data = message.data
        if data.allSatisfy(\.isWhitespace) { return [] }
        if isDoneMarker(data) {
            return [end()]
        }
        // A lone surrogate read as U+FFFD keeps the text a strict parser would throw away.
        guard let json = JSONValue.parse(data) ?? JSONStringScanner.replacingLoneSurrogates(data).flatMap(JSONValue.parse),
            json.isObject
        else {
            return [.malformed(malformedDescription("not a JSON object", data: data))]
        }
        return decode(chunk: json)
    }

    /// The events of a whole `chat.completion` object, as the stream of the same answer would
    /// have said them: its `message` is read as one chunk's `delta`, and the body's end ends it.
    /// - Parameter json: the parsed object (its `object` member says `chat.completion`).
    package static func events(fromCompletion json: JSONValue) -> [StreamEvent] {
        var chunk = json.objectValue ?? [:]
        if let choices = json["choices"]?.arrayValue {
            chunk["choices"] = .array(
                choices.map { choice in
                    var members = choice.objectValue ?? [:]
                    members["delta"] = members.removeValue(forKey: "message")
                    return .object(members)
                })
        }
        var decoder = ChatCompletionsEventDecoder()
        var events = decoder.decode(chunk: .object(chunk))
        // A whole answer is over when its body is: a missing `finish_reason` means it stopped.
        if !decoder.ended { events.append(decoder.end()) }
        return events
    }

    /// The events of one chunk's JSON object (or of a whole completion's, reshaped as a chunk).
    private mutating func decode(chunk json: JSONValue) -> [StreamEvent] {
        guard !ended else { return [] }
        if let error = json["error"], error != .null {
            return [.error(message: error["message"]?.stringValue ?? error.stringValue, code: error["code"]?.codeValue)]
        }

        var events: [StreamEvent] = []
        if !announced {
            announced = true
            responseID = json["id"]?.stringValue
            events.append(.created(responseID: responseID))
        }
        if let seen = Usage(
            json: json["usage"], inputKey: "prompt_tokens", outputKey: "completion_tokens",
            detailsKey: "completion_tokens_details")
        {
            usage = seen
        }
        if case .array(let choices) = json["choices"] {
            // One answer was asked for; other choices, if a server sends any, are not it.
            for choice in choices where (choice["index"]?.intValue ?? 0) == 0 {
                let delta = choice["delta"]
                // `reasoning_content` and `reasoning` are thinking, not answer text: ignored.
                if let text = delta?["content"]?.stringValue, !text.isEmpty {
                    events.append(.textDelta(JSONStringScanner.replacingNUL(text)))
                }
                if let text = delta?["refusal"]?.stringValue, !text.isEmpty {
                    events.append(.refusalDelta(JSONStringScanner.replacingNUL(text)))
                }
                if let reason = choice["finish_reason"]?.stringValue {
                    finishReason = reason
                }
            }
        }
        return events
    }

    /// A body that ends after a `finish_reason` but without `[DONE]` still ended properly.
    package mutating func finish() -> [StreamEvent] {
        guard !ended, finishReason != nil else { return [] }
        return [end()]
    }

    /// The one closing event, named the way the Responses API names it.
    private mutating func end() -> StreamEvent {
        ended = true
        switch finishReason {
        case "length":
            return .incomplete(responseID: responseID, reason: "max_output_tokens", usage: usage)
        case "content_filter":
            return .incomplete(responseID: responseID, reason: "content_filter", usage: usage)
        default:
            return .completed(responseID: responseID, usage: usage)
        }
    }
}
