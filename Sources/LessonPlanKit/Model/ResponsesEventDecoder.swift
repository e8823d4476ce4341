import Foundation

/// Reads the OpenAI Responses API stream (and llama-server's, Ollama's and vLLM's imitations of it).
///
/// Dispatches on the JSON `type`, never on the SSE `event:` line, because imitating servers do not
/// always send the latter. Only `output_text` deltas count as answer text; reasoning summaries,
/// `done` events and the rest become ``StreamEvent/unknown(type:)``.
public struct ResponsesEventDecoder: StreamEventDecoder {
    public init() {}

    public mutating func decode(_ message: SSEMessage) -> [StreamEvent] {
        // An empty `data:` line carries nothing; some proxies use it as a keep-alive.
        if message.data.allSatisfy(\.isWhitespace) { return [] }
        return [Self.event(fromJSON: message.data)]
    }

    /// A plainly written text delta, straight from the fast path (which rejects anything that is
    /// not a JSON object, so a blank keep-alive still goes to ``decode(_:)``).
    public mutating func textDelta(_ message: SSEMessage) -> String? {
        Self.textDeltaFastPath(message.data)
    }

    /// Text deltas straight from the bytes. Only ASCII data is read here: decoding it as UTF-8
    /// changes nothing, so the bytes are exactly what ``decode(_:)`` would read; other deltas
    /// are declined and go the long way.
    public mutating func decode(rawData data: UnsafeBufferPointer<UInt8>, appendingTextTo text: inout [UInt8])
        -> RawEventDecoding
    {
        if ResponsesDeltaScanner.isASCII(data), ResponsesDeltaScanner.appendTextDelta(in: data, to: &text) {
            return .appendedText
        }
        return .declined
    }

    /// The event one message's JSON means, reading text deltas without a JSON parser when it can.
    public static func event(fromJSON data: String) -> StreamEvent {
        if let delta = textDeltaFastPath(data) {
            return .textDelta(delta)
        }
        return eventWithoutFastPath(fromJSON: data)
    }

    /// The delta of a plainly written `response.output_text.delta` event, or nil to ask the full
    /// decoder, because parsing JSON for every token costs more than the rest of the stream.
    ///
    /// Accepts only a flat object without whitespace whose keys are all distinct and whose other
    /// values are escape-free strings, integers, `true`, `false`, `null` or `[]`; anything else
    /// returns nil. Whenever it returns a string, ``eventWithoutFastPath(fromJSON:)`` would return
    /// `.textDelta` of the same string.
    public static func textDeltaFastPath(_ data: String) -> String? {
        data.utf8.withContiguousStorageIfAvailable(ResponsesDeltaScanner.textDelta(in:)) ?? nil
    }

    /// The event one message's JSON means, read with a full JSON parser.
    public static func eventWithoutFastPath(fromJSON data: String) -> StreamEvent {
        if isDoneMarker(data) {
            // Chat Completions' end marker, sent by some proxies in front of the Responses API too.
            return .unknown(type: "[DONE]")
        }
        guard let json = JSONValue.parse(data) else {
            return .malformed(malformedDescription("not JSON", data: data))
        }
        guard let type = json["type"]?.stringValue else {
            return .malformed(malformedDescription("no string \"type\"", data: data))
        }
        let response = json["response"]
        let responseID = response?["id"]?.stringValue
        switch type {
        case "response.created":
            return .created(responseID: responseID)
        case "response.output_text.delta":
            guard let delta = json["delta"]?.stringValue else {
                return .malformed(malformedDescription("text delta without a string \"delta\"", data: data))
            }
            return .textDelta(delta)
        case "response.refusal.delta":
            guard let delta = json["delta"]?.stringValue else {
                return .malformed(malformedDescription("refusal delta without a string \"delta\"", data: data))
            }
            return .refusalDelta(delta)
        case "response.completed":
            return .completed(responseID: responseID, usage: usage(in: response))
        case "response.incomplete":
            return .incomplete(
                responseID: responseID, reason: response?["incomplete_details"]?["reason"]?.stringValue,
                usage: usage(in: response))
        case "response.failed":
            let error = response?["error"]
            return .failed(
                responseID: responseID, message: error?["message"]?.stringValue, code: error?["code"]?.codeValue)
        case "error":
            // OpenAI puts `message` and `code` at the top level; some servers nest an `error` object.
            let nested = json["error"]
            return .error(
                message: json["message"]?.stringValue ?? nested?["message"]?.stringValue ?? nested?.stringValue,
                code: json["code"]?.codeValue ?? nested?["code"]?.codeValue)
        default:
            return .unknown(type: type)
        }
    }

    private static func usage(in response: JSONValue?) -> Usage? {
        Usage(
            json: response?["usage"], inputKey: "input_tokens", outputKey: "output_tokens",
            detailsKey: "output_tokens_details")
    }
}
