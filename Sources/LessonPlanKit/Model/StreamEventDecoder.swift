/// Turns the server-sent events of one wire format into ``StreamEvent``s, so the client can speak
/// either OpenAI API (or a server imitating one) through the same loop.
public protocol StreamEventDecoder: Sendable {
    /// The events one message means, in order: usually one, none for a message that says nothing.
    mutating func decode(_ message: SSEMessage) -> [StreamEvent]

    /// The events still owed when the body ends, for formats whose last word may be implicit.
    mutating func finish() -> [StreamEvent]
}

extension StreamEventDecoder {
    /// Most formats say everything in their messages, so nothing is owed at the end.
    public mutating func finish() -> [StreamEvent] { [] }
}
