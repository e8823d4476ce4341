import Foundation
import LessonPlanCore

/// Reads the OpenAI Responses API stream (and llama-server's, Ollama's and vLLM's imitations of it).
///
/// Dispatches on the JSON `type`, never on the SSE `event:` line, because imitating servers do not
/// always send the latter. Only `output_text` deltas count as answer text; reasoning summaries,
/// `done` events and the rest become ``StreamEvent/unknown(type:)``.
///
/// An event of a type it does not read is skipped once its leading `"type"` member says so,
/// without parsing the rest: the `done` events near the end each repeat the whole answer, and
/// parsing three copies of a long plan only to throw them away cost more than the rest of the
/// stream's end. Damage in an event nobody reads then goes unreported, which cannot hurt the answer.
package struct ResponsesEventDecoder: StreamEventDecoder {
    package init() {}

    package mutating func decode(_ message: SSEMessage) -> [StreamEvent] {
        // An empty `data:` line carries nothing; some proxies use it as a keep-alive.
        if message.data.allSatisfy(\.isWhitespace) { return [] }
        return [Self.event(fromJSON: message.data)]
    }

    /// A plainly written text delta, straight from the fast path (which rejects anything that is
    /// not a JSON object, so a blank keep-alive still goes to ``decode(_:)``).
    package mutating func textDelta(_ message: SSEMessage) -> String? {
        Self.textDeltaFastPath(message.data)
    }

    /// Events straight from the bytes. Only ASCII data is read as text here: decoding it as UTF-8
    /// changes nothing, so the bytes are exactly what ``decode(_:)`` would read; other deltas
    /// are declined and go the long way.
    package mutating func decode(rawData data: UnsafeBufferPointer<UInt8>, appendingTextTo text: inout [UInt8])
        -> RawEventDecoding
    {
        if let range = ResponsesDeltaScanner.leadingType(in: data), !ResponsesDeltaScanner.isTextDeltaType(data, range) {
            let type = String(decoding: UnsafeBufferPointer(rebasing: data[range]), as: UTF8.self)
            guard Self.readTypes.contains(type) else { return .event(.unknown(type: type)) }
            // Read from the bytes too, without a string of the whole event first: the last one
            // repeats the whole answer. JSON that does not decode goes the long way, which
            // describes the damage.
            guard let json = Self.readMembers(Data(buffer: data)) else { return .declined }
            return .event(Self.event(from: json, data: { String(decoding: data, as: UTF8.self) }))
        }
        if ResponsesDeltaScanner.isASCII(data), ResponsesDeltaScanner.appendTextDelta(in: data, to: &text) {
            return .appendedText
        }
        return .declined
    }

    /// The event one message's JSON means, reading text deltas without a JSON parser when it can
    /// and skipping the types it does not read.
    package static func event(fromJSON data: String) -> StreamEvent {
        if let delta = textDeltaFastPath(data) {
            return .textDelta(delta)
        }
        if let type = unreadLeadingType(data) {
            return .unknown(type: type)
        }
        return eventWithoutFastPath(fromJSON: data)
    }

    /// The types ``eventWithoutFastPath(fromJSON:)`` reads; every other type is `.unknown`.
    static let readTypes: Set<String> = [
        "response.created", "response.output_text.delta", "response.refusal.delta", "response.completed",
        "response.incomplete", "response.failed", "error",
    ]

    /// The leading `"type"` of an event this decoder does not read, or nil to parse it in full.
    static func unreadLeadingType(_ data: String) -> String? {
        let type = data.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            ResponsesDeltaScanner.leadingType(in: bytes).map {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
            }
        }
        guard let type = type ?? nil, !readTypes.contains(type) else { return nil }
        return type
    }

    /// The delta of a plainly written `response.output_text.delta` event, or nil to ask the full
    /// decoder, because parsing JSON for every token costs more than the rest of the stream.
    ///
    /// Accepts only a flat object without whitespace whose keys are all distinct and whose other
    /// values are escape-free strings, integers, `true`, `false`, `null` or `[]`; anything else
    /// returns nil. Whenever it returns a string, ``eventWithoutFastPath(fromJSON:)`` would return
    /// `.textDelta` of the same string.
    package static func textDeltaFastPath(_ data: String) -> String? {
        data.utf8.withContiguousStorageIfAvailable(ResponsesDeltaScanner.textDelta(in:)) ?? nil
    }

    /// The event one message's JSON means, read with a full JSON parser.
    ///
    /// Only the members read below are decoded into values (``ReadMembers``): the final events
    /// repeat the whole answer in `response.output`, and making a string of it only to drop it
    /// held a long plan three times over in memory. The JSON's structure is still checked as a
    /// whole; strings nobody reads are not decoded, so damage inside them goes unreported.
    package static func eventWithoutFastPath(fromJSON data: String) -> StreamEvent {
        if isDoneMarker(data) {
            // Chat Completions' end marker, sent by some proxies in front of the Responses API too.
            return .unknown(type: "[DONE]")
        }
        // A lone surrogate makes the JSON invalid to a strict parser; read as U+FFFD it keeps the text.
        guard
            let json = readMembers(Data(data.utf8))
                ?? JSONStringScanner.replacingLoneSurrogates(data).flatMap({ readMembers(Data($0.utf8)) })
        else {
            return .malformed(malformedDescription("not JSON", data: data))
        }
        return event(from: json, data: { data })
    }

    /// The read members of an event's JSON (see ``ReadMembers``), or nil when it is not JSON.
    private static func readMembers(_ json: Data) -> JSONValue? {
        (try? JSONDecoder().decode(ReadMembers.self, from: json))?.value
    }

    /// The event the read members of a message mean; `data` gives its text for a report.
    private static func event(from json: JSONValue, data: () -> String) -> StreamEvent {
        guard let type = json["type"]?.stringValue else {
            return .malformed(malformedDescription("no string \"type\"", data: data()))
        }
        let response = json["response"]
        let responseID = response?["id"]?.stringValue
        switch type {
        case "response.created":
            return .created(responseID: responseID)
        case "response.output_text.delta":
            guard let delta = json["delta"]?.stringValue else {
                return .malformed(malformedDescription("text delta without a string \"delta\"", data: data()))
            }
            return .textDelta(JSONStringScanner.replacingNUL(delta))
        case "response.refusal.delta":
            guard let delta = json["delta"]?.stringValue else {
                return .malformed(malformedDescription("refusal delta without a string \"delta\"", data: data()))
            }
            return .refusalDelta(JSONStringScanner.replacingNUL(delta))
        case "response.completed":
            return .completed(responseID: responseID, usage: usage(in: response))
        case "response.incomplete":
            return .incomplete(
                responseID: responseID, reason: response?["incomplete_details"]?["reason"]?.stringValue,
                usage: usage(in: response), maxOutputTokens: response?["max_output_tokens"]?.intValue)
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

    /// The events of a whole (non-streamed) Responses API response object, as the stream of the
    /// same answer would have said them: its id, the text of its `output_text` parts (and any
    /// `refusal` part as refusal text), then the end its `status` names, read by the same code as
    /// the stream's last event, so usage, `incomplete_details` and `error` mean the same.
    /// - Parameter json: the parsed object (its `object` member says `response`).
    package static func events(fromResponseObject json: JSONValue) -> [StreamEvent] {
        var events: [StreamEvent] = [.created(responseID: json["id"]?.stringValue)]
        for item in json["output"]?.arrayValue ?? [] {
            // Reasoning items carry no `output_text` parts, so they add nothing here.
            for part in item["content"]?.arrayValue ?? [] {
                switch part["type"]?.stringValue {
                case "output_text":
                    if let text = part["text"]?.stringValue, !text.isEmpty { events.append(.textDelta(text)) }
                case "refusal":
                    if let text = part["refusal"]?.stringValue, !text.isEmpty { events.append(.refusalDelta(text)) }
                default:
                    break
                }
            }
        }
        // A status other than completed, incomplete or failed (`in_progress`, `cancelled`) ends in
        // no event of its own, so the turn reads as cut off.
        let status = json["status"]?.stringValue ?? "completed"
        let ending: JSONValue = ["type": .string("response.\(status)"), "response": json]
        events.append(event(from: ending, data: { "a response object with status \(status)" }))
        return events
    }

    private static func usage(in response: JSONValue?) -> Usage? {
        Usage(
            json: response?["usage"], inputKey: "input_tokens", outputKey: "output_tokens",
            detailsKey: "output_tokens_details")
    }
}

/// The members of a Responses event that ``ResponsesEventDecoder`` reads, as a JSON object of
/// just those, so everything else in the event is checked as JSON but never made into values.
///
/// An event that is not an object reads as no members at all, as `JSONValue` subscripts would.
private struct ReadMembers: Decodable {
    /// The members read at the top level, and those read inside `response`.
    private static let top = ["type", "delta", "message", "code", "error"]
    private static let response = ["id", "usage", "incomplete_details", "error", "max_output_tokens"]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The response object's read members.
    private struct Response: Decodable {
        var members: [String: JSONValue] = [:]

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else { return }
            members = try ReadMembers.decode(ReadMembers.response, from: container)
        }
    }

    /// The event as far as it is read: an object of the read members, or null.
    var value: JSONValue = .null

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else { return }
        var members = try Self.decode(Self.top, from: container)
        if let response = try container.decodeIfPresent(Response.self, forKey: Key(stringValue: "response")) {
            members["response"] = .object(response.members)
        }
        value = .object(members)
    }

    private static func decode(_ names: [String], from container: KeyedDecodingContainer<Key>) throws
        -> [String: JSONValue]
    {
        var members: [String: JSONValue] = [:]
        for name in names {
            members[name] = try container.decodeIfPresent(JSONValue.self, forKey: Key(stringValue: name))
        }
        return members
    }
}
