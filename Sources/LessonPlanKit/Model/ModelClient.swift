import Foundation

/// Sends one prompt to the model and reads the answer as it streams.
///
/// The transport is injected: the executable passes the real one, tests a loopback server.
public struct ModelClient: Sendable {
    public let transport: any HTTPTransport
    public let settings: ModelSettings

    public init(transport: any HTTPTransport, settings: ModelSettings) {
        self.transport = transport
        self.settings = settings
    }

    /// The host requests go to, for messages.
    public var host: String { settings.requestURL.host ?? settings.requestURL.absoluteString }

    /// The HTTP request for one prompt, in the configured wire format.
    /// - Parameter maxOutputTokens: the output limit; nil uses the settings' one.
    public func request(instructions: String, input: String, maxOutputTokens: Int? = nil) -> HTTPRequest {
        var headers = [
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
        ]
        if let key = settings.apiKey, !key.isEmpty { headers["Authorization"] = "Bearer \(key)" }
        for (name, value) in settings.extraHeaders { headers[name] = value }
        let limit = maxOutputTokens ?? settings.maxOutputTokens
        let body: [String: Any]
        switch settings.api {
        case .responses:
            body = [
                "model": settings.model,
                "instructions": instructions,
                "input": input,
                "max_output_tokens": limit,
                "stream": true,
                // Plans may describe real students: do not keep them on the provider.
                "store": false,
            ]
        case .chat:
            body = [
                "model": settings.model,
                "messages": [
                    ["role": "system", "content": instructions],
                    ["role": "user", "content": input],
                ],
                "max_tokens": limit,
                "stream": true,
                "stream_options": ["include_usage": true],
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return HTTPRequest(
            url: settings.requestURL, method: "POST", headers: headers, body: data,
            idleTimeout: settings.idleTimeout)
    }

    /// Sends the prompt once and returns when the server has accepted it and the answer starts.
    ///
    /// Makes exactly one attempt: retrying is the caller's decision (see ``RetryPolicy``), because
    /// only the caller knows whether text has been shown yet.
    /// - Parameter maxOutputTokens: the output limit; nil uses the settings' one.
    /// - Throws: ``RequestFailure`` (a ``ModelError`` with the response's headers, for
    ///   `retry-after`) for a missing key, an HTTP error status, a body that is not a stream, or a
    ///   network failure; `CancellationError` when cancelled.
    public func open(instructions: String, input: String, maxOutputTokens: Int? = nil) async throws
        -> ModelEventStream
    {
        if settings.requiresKey, (settings.apiKey ?? "").isEmpty { throw RequestFailure(.noKey) }
        let response: HTTPStreamingResponse
        do {
            response = try await transport.send(
                request(instructions: instructions, input: input, maxOutputTokens: maxOutputTokens))
        } catch let error as TransportError {
            if settings.isLocal, case .cannotConnect = error {
                let port = settings.requestURL.port.map { ":\($0)" } ?? ""
                throw RequestFailure(.localServerDown(address: host + port))
            }
            throw RequestFailure(.transport(error, host: host))
        }
        let status = response.head.status
        guard (200..<300).contains(status) else {
            let body = await Self.collect(response.body, limit: 64 * 1024)
            throw RequestFailure(
                describeFailure(status: status, contentType: response.head.header("content-type"), body: body),
                headers: response.head.headers)
        }
        if let type = response.head.header("content-type")?.lowercased(),
            type.hasPrefix("text/html") || type.hasPrefix("text/plain")
        {
            let body = await Self.collect(response.body, limit: 4096)
            throw RequestFailure(
                .notAStream(status: status, firstLine: Self.firstLine(of: body), host: host),
                headers: response.head.headers)
        }
        return ModelEventStream(body: response.body, api: settings.api, status: status, host: host)
    }

    /// The error for a non-2xx answer: the API's own message when the body is OpenAI-style JSON.
    func describeFailure(status: Int, contentType: String?, body: Data) -> ModelError {
        let detail = JSONValue.parse(String(decoding: body, as: UTF8.self))?["error"]
        // Some servers send `"error": "text"` instead of an object.
        let message = (detail?["message"]?.stringValue ?? detail?.stringValue).map { Self.scrub($0) }
        let code = detail?["code"]?.codeValue ?? detail?["type"]?.stringValue
        if status == 404, Self.isAboutTheURL(message: message, code: code, model: settings.model) {
            return .notFound(
                url: settings.redactedURL, message: message ?? Self.nonEmpty(Self.firstLine(of: body)), api: settings.api)
        }
        if detail != nil || [401, 403, 404, 429].contains(status) {
            let keySuffix = settings.apiKey.flatMap { $0.count > 8 ? String($0.suffix(4)) : nil }
            return .http(status: status, message: message, code: code, model: settings.model, keySuffix: keySuffix)
        }
        return .notAStream(status: status, firstLine: Self.firstLine(of: body), host: host)
    }

    /// Whether a 404 says the path is wrong rather than the model: OpenAI names the model (code
    /// `model_not_found`); a wrong base URL or a server without this API says nothing about it.
    static func isAboutTheURL(message: String?, code: String?, model: String) -> Bool {
        if code == "model_not_found" { return false }
        guard let message else { return true }
        return !message.lowercased().contains(model.lowercased()) && !message.lowercased().contains("model")
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// Removes anything shaped like an API key from a message the server sent back.
    static func scrub(_ message: String) -> String {
        message.replacing(/sk-[A-Za-z0-9_\-*]{6,}/, with: "sk-…")
    }

    /// The first line of a body that says something, for messages: markup is stripped so an
    /// HTML error page shows its title (`502 Bad Gateway`), not `<html>`.
    static func firstLine(of body: Data) -> String {
        let text = String(decoding: body.prefix(2048), as: UTF8.self)
        let looksLikeMarkup = text.drop { $0.isWhitespace }.hasPrefix("<")
        for line in text.split(whereSeparator: \.isNewline) {
            var shown = String(line)
            if looksLikeMarkup {
                shown = shown.replacing(/<[^>]*>/, with: " ").replacing(/\s+/, with: " ")
            }
            shown = shown.trimmingCharacters(in: .whitespaces)
            if !shown.isEmpty { return String(shown.prefix(160)) }
        }
        return ""
    }

    static func collect(_ body: AsyncThrowingStream<Data, any Error>, limit: Int) async -> Data {
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk)
                if data.count >= limit { break }
            }
        } catch {}
        return data
    }
}

/// The events of one streaming answer, decoded as the bytes arrive.
public struct ModelEventStream: AsyncSequence, Sendable {
    public typealias Element = StreamEvent
    let body: AsyncThrowingStream<Data, any Error>
    let api: APIFlavor
    let status: Int
    let host: String

    public func makeAsyncIterator() -> Iterator {
        let decoder: any StreamEventDecoder =
            api == .chat ? ChatCompletionsEventDecoder() : ResponsesEventDecoder()
        return Iterator(body: body.makeAsyncIterator(), decoder: decoder, status: status, host: host)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var body: AsyncThrowingStream<Data, any Error>.AsyncIterator
        var decoder: any StreamEventDecoder
        let status: Int
        let host: String
        var parser = SSEParser()
        var pending: [StreamEvent] = []
        var index = 0
        var finished = false
        var sawMessage = false
        var head = Data()

        init(
            body: AsyncThrowingStream<Data, any Error>.AsyncIterator, decoder: any StreamEventDecoder, status: Int,
            host: String
        ) {
            self.body = body
            self.decoder = decoder
            self.status = status
            self.host = host
        }

        /// Whether more events are already decoded, so the next ``next()`` will not wait for the network.
        /// A consumer can batch its output until this is false.
        public var hasBufferedEvents: Bool { index < pending.count }

        /// The next event; nil when the body ends.
        /// - Throws: ``ModelError`` for a network failure or a body that was not a stream at all.
        public mutating func next() async throws -> StreamEvent? {
            while true {
                if index < pending.count {
                    defer { index += 1 }
                    return pending[index]
                }
                if finished { return nil }
                pending.removeAll(keepingCapacity: true)
                index = 0
                let messages: [SSEMessage]
                do {
                    if let chunk = try await body.next() {
                        if head.count < 512 { head.append(chunk.prefix(512 - head.count)) }
                        messages = parser.push(chunk)
                    } else {
                        finished = true
                        messages = parser.finish()
                    }
                } catch let error as TransportError {
                    throw ModelError.transport(error, host: host)
                }
                // Text deltas that arrive together are handed on as one: the text is the same,
                // and the consumer then does its per-event work once per read, not per token.
                var text = ""
                for message in messages {
                    sawMessage = true
                    if let delta = decoder.textDelta(message) {
                        text += delta
                        continue
                    }
                    for event in decoder.decode(message) {
                        if case .textDelta(let delta) = event {
                            text += delta
                        } else {
                            if !text.isEmpty {
                                pending.append(.textDelta(text))
                                text = ""
                            }
                            pending.append(event)
                        }
                    }
                }
                if !text.isEmpty { pending.append(.textDelta(text)) }
                if finished { pending.append(contentsOf: decoder.finish()) }
                if finished, !sawMessage {
                    throw ModelError.notAStream(status: status, firstLine: ModelClient.firstLine(of: head), host: host)
                }
            }
        }
    }
}
