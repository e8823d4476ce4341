import Foundation

/// Turns the server-sent events of one wire format into ``StreamEvent``s, so the client can speak
/// either OpenAI API (or a server imitating one) through the same loop.
package protocol StreamEventDecoder: Sendable {
    /// The events one message means, in order: usually one, none for a message that says nothing.
    mutating func decode(_ message: SSEMessage) -> [StreamEvent]

    /// The events still owed when the body ends, for formats whose last word may be implicit.
    mutating func finish() -> [StreamEvent]

    /// The text of a message that is nothing but answer text, read without building events;
    /// nil means "ask ``decode(_:)``". Whenever it returns a string, `decode` would have returned
    /// exactly `[.textDelta(string)]`. It exists because a long answer is hundreds of thousands of
    /// such messages, and an array and an event per token cost more than reading the token.
    mutating func textDelta(_ message: SSEMessage) -> String?

    /// What a message means, read from its raw data before any string or message is made of it:
    /// the hot path of a long answer. `.declined` means "ask ``decode(_:)``".
    ///
    /// Whenever it returns `.appendedText`, `decode` would have returned exactly
    /// `[.textDelta(string)]` for the message with this data, and the string's UTF-8 is now at
    /// the end of `text`; otherwise `text` is unchanged. `.event` is what `decode` would return
    /// as its one event.
    mutating func decode(rawData data: UnsafeBufferPointer<UInt8>, appendingTextTo text: inout [UInt8])
        -> RawEventDecoding
}

/// What a decoder made of a message's raw data alone.
package enum RawEventDecoding: Equatable, Sendable {
    /// Answer text, appended to the caller's text.
    case appendedText
    /// The one event the message means (never a text delta).
    case event(StreamEvent)
    /// The raw data is not enough: decode the message.
    case declined
}

extension StreamEventDecoder {
    /// Most formats say everything in their messages, so nothing is owed at the end.
    package mutating func finish() -> [StreamEvent] { [] }

    /// Formats without a fast path always decode in full.
    package mutating func textDelta(_ message: SSEMessage) -> String? { nil }

    /// Formats without a fast path always decode in full.
    package mutating func decode(rawData data: UnsafeBufferPointer<UInt8>, appendingTextTo text: inout [UInt8])
        -> RawEventDecoding
    {
        .declined
    }
}

/// Whether `data` is Chat Completions' `[DONE]` marker, allowing surrounding whitespace.
///
/// Same answer as trimming `.whitespacesAndNewlines` and comparing, but it stops at the first
/// character that differs instead of copying the whole message: a `response.completed` event
/// repeats the entire answer, and trimming a megabyte-long message cost more than decoding it.
func isDoneMarker(_ data: String) -> Bool {
    let scalars = data.unicodeScalars
    let blank = CharacterSet.whitespacesAndNewlines
    guard let first = scalars.firstIndex(where: { !blank.contains($0) }),
        let last = scalars.lastIndex(where: { !blank.contains($0) })
    else { return false }
    return scalars[first...last].elementsEqual("[DONE]".unicodeScalars)
}
