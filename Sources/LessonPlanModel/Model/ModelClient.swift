import Foundation
import LessonPlanCore

/// Sends one prompt to the model and reads the answer as it streams.
///
/// The transport is injected: the executable passes the real one, tests a loopback server.
package struct ModelClient: Sendable {
    package let transport: any HTTPTransport
    package let settings: ModelSettings
    /// The session's class: its names are swapped for pseudonyms in every request and put back in every answer.
    package let names: ClassNames

    package init(transport: any HTTPTransport, settings: ModelSettings, names: ClassNames = ClassNames()) {
        self.transport = transport
        self.settings = settings
        self.names = names
    }

    /// The same client for a session tied to `names`.
    package func tied(to names: ClassNames) -> ModelClient { ModelClient(transport: transport, settings: settings, names: names) }

    /// The host requests go to, for messages.
    package var host: String { settings.requestURL.host ?? settings.requestURL.absoluteString }

    /// The HTTP request for one prompt, in the configured wire format.
    /// - Parameters:
    ///   - maxOutputTokens: the output limit; nil uses the settings' one.
    ///   - schema: a JSON schema the answer must follow (`text.format`, or `response_format` for Chat Completions).
    ///   - legacyLimit: Chat Completions only: the limit as `max_tokens`, for a server that refused
    ///     `max_completion_tokens` (which OpenAI requires of its newer models and llama-server reads too).
    package func request(
        instructions: String, input: String, maxOutputTokens: Int? = nil, schema: ResponseSchema? = nil,
        legacyLimit: Bool = false
    ) -> HTTPRequest {
        var headers = [
            "Content-Type": "application/json",
            "Accept": "text/event-stream",
        ]
        // A teacher's token replaces the key: a personal key never goes to the school's proxy beside it.
        if let key = settings.apiKey, !key.isEmpty, (settings.token ?? "").isEmpty { headers["Authorization"] = "Bearer \(key)" }
        Self.addToken(settings, to: &headers)
        // A `--header` replaces a header of the same name in any case: never two Authorizations.
        headers = HeaderRules.merge(headers, overriddenBy: settings.extraHeaders)
        let limit = maxOutputTokens ?? settings.maxOutputTokens
        // Names never leave the machine: every request goes out through here, with the class's pseudonyms.
        let instructions = names.pseudonymised(instructions)
        let input = names.pseudonymised(input)
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
                legacyLimit ? "max_tokens" : "max_completion_tokens": limit,
                "stream": true,
                "stream_options": ["include_usage": true],
            ]
        }
        var data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        if let schema { data = schema.added(to: data, api: settings.api) }
        // Credentials go to the host they were meant for only, never on after a redirect.
        return HTTPRequest(
            url: settings.requestURL, method: "POST", headers: headers, body: data,
            idleTimeout: settings.idleTimeout,
            originOnlyHeaders: Set(["Authorization"] + settings.extraHeaders.keys + [settings.tokenHeader].compactMap { $0 }))
    }

    /// What hides the key and `--header` values in anything the server says back.
    package var secretMask: SecretMask { SecretMask(settings: settings) }

    /// Puts the teacher's token where the school's proxy looks for it: its own header when the
    /// settings name one, else `Authorization: Bearer`, in place of the key (the proxy holds that).
    static func addToken(_ settings: ModelSettings, to headers: inout [String: String]) {
        guard let token = settings.token, !token.isEmpty else { return }
        if let name = settings.tokenHeader, !name.isEmpty {
            headers[name] = token
        } else {
            headers["Authorization"] = "Bearer \(token)"
        }
    }

    /// Sends the prompt once and returns when the server has accepted it and the answer starts.
    ///
    /// Makes exactly one attempt: retrying is the caller's decision (see ``RetryPolicy``), because
    /// only the caller knows whether text has been shown yet.
    /// - Parameter maxOutputTokens: the output limit; nil uses the settings' one.
    /// - Throws: ``RequestFailure`` (a ``ModelError`` with the response's headers, for
    ///   `retry-after`) for a missing key, an HTTP error status, a body that is not a stream, or a
    ///   network failure; `CancellationError` when cancelled.
    package func open(
        instructions: String, input: String, maxOutputTokens: Int? = nil, schema: ResponseSchema? = nil
    ) async throws -> ModelEventStream {
        do {
            return try await openUnmasked(
                instructions: instructions, input: input, maxOutputTokens: maxOutputTokens, schema: schema)
        } catch let failure as RequestFailure {
            throw RequestFailure(failure.error.masked(by: secretMask), headers: failure.headers)
        }
    }

    private func openUnmasked(
        instructions: String, input: String, maxOutputTokens: Int?, schema: ResponseSchema?
    ) async throws -> ModelEventStream {
        if settings.lacksKey { throw RequestFailure(.noKey) }
        var response: HTTPStreamingResponse
        var legacyLimit = false
        while true {
            do {
                response = try await transport.send(
                    request(
                        instructions: instructions, input: input, maxOutputTokens: maxOutputTokens, schema: schema,
                        legacyLimit: legacyLimit))
            } catch let error as TransportError {
                if settings.isLocal, case .cannotConnect = error {
                    let port = settings.requestURL.port.map { ":\($0)" } ?? ""
                    throw RequestFailure(.localServerDown(address: host + port, died: settings.localServerDeath()))
                }
                throw RequestFailure(.transport(error, host: host))
            }
            let status = response.head.status
            if (200..<300).contains(status) { break }
            let body = await Self.collect(response.body, limit: 64 * 1024)
            // An older server that knows only `max_tokens` names the parameter it refused: once more with that.
            if settings.api == .chat, !legacyLimit, status == 400,
                String(decoding: body, as: UTF8.self).lowercased().contains("max_completion_tokens")
            {
                legacyLimit = true
                continue
            }
            throw RequestFailure(
                describeFailure(status: status, contentType: response.head.header("content-type"), body: body),
                headers: response.head.headers)
        }
        let status = response.head.status
        let contentType = response.head.header("content-type")
        if WholeAnswer.isJSON(contentType: contentType) {
            // A proxy that does not stream (the original demo's worker) sends the whole answer.
            let whole = try await Self.readWhole(response.body, host: host, headers: response.head.headers)
            // Masked before it is read, as a stream's events are: the answer may echo a credential.
            let body = Data(secretMask.mask(String(decoding: whole, as: UTF8.self)).utf8)
            guard let events = WholeAnswer.events(from: body).map(restored) else {
                throw RequestFailure(
                    .notAStream(status: status, firstLine: Self.firstLine(of: body), host: host),
                    headers: response.head.headers)
            }
            return ModelEventStream(wholeAnswer: events, api: settings.api, status: status, host: host)
        }
        if let type = contentType?.lowercased(), type.hasPrefix("text/html") || type.hasPrefix("text/plain") {
            let body = await Self.collect(response.body, limit: 4096)
            throw RequestFailure(
                .notAStream(status: status, firstLine: Self.firstLine(of: body), host: host),
                headers: response.head.headers)
        }
        return ModelEventStream(
            body: response.body, api: settings.api, status: status, host: host, mask: secretMask, names: names.map)
    }

    /// A whole answer's events with the class's pseudonyms put back as names.
    func restored(_ events: [StreamEvent]) -> [StreamEvent] {
        guard let map = names.map else { return events }
        return events.map { event in
            switch event {
            case .textDelta(let text): .textDelta(map.restored(text))
            case .refusalDelta(let text): .refusalDelta(map.restored(text))
            default: event
            }
        }
    }

    /// The error for a non-2xx answer: the API's own message when the body is OpenAI-style JSON.
    func describeFailure(status: Int, contentType: String?, body: Data) -> ModelError {
        let detail = JSONValue.parse(String(decoding: body, as: UTF8.self))?["error"]
        // Some servers send `"error": "text"` instead of an object.
        let message = (detail?["message"]?.stringValue ?? detail?.stringValue).map { Self.scrub($0) }
        let code = detail?["code"]?.codeValue ?? detail?["type"]?.stringValue
        if settings.endpoint != nil,
            let refusal = ProxyRefusal.recognise(
                status: status, message: detail?.stringValue, firstLine: Self.firstLine(of: body),
                isOpenAIError: detail?.isObject == true)
        {
            return .proxyRefused(refusal, url: settings.redactedURL)
        }
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

    /// A whole answer's body, up to ``WholeAnswer/largestBody``; a failure while reading it is a
    /// transport failure like one mid-stream, so it is retried the same way.
    /// - Throws: ``RequestFailure`` for a network failure, `CancellationError` when cancelled.
    static func readWhole(_ body: HTTPBody, host: String, headers: [String: String]) async throws -> Data {
        var data = Data()
        do {
            for try await chunk in body {
                data.append(chunk)
                if data.count > WholeAnswer.largestBody { break }
            }
        } catch let error as TransportError {
            throw RequestFailure(.transport(error, host: host), headers: headers)
        }
        return data
    }

    static func collect(_ body: HTTPBody, limit: Int) async -> Data {
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

/// The events of one answer: decoded as the bytes of a stream arrive, or read from a whole answer.
package struct ModelEventStream: AsyncSequence, Sendable {
    package typealias Element = StreamEvent
    /// The stream's body, or nil for a whole answer already read into ``wholeEvents``.
    let body: HTTPBody?
    let wholeEvents: [StreamEvent]
    let api: APIFlavor
    let status: Int
    let host: String
    /// Hides the key and `--header` values should the server say them back.
    var mask = SecretMask.none

    /// Puts the class's names back into the answer's text as it arrives.
    var names: NameMap?

    init(body: HTTPBody, api: APIFlavor, status: Int, host: String, mask: SecretMask = .none, names: NameMap? = nil) {
        self.body = body
        self.mask = mask
        self.names = names
        self.wholeEvents = []
        self.api = api
        self.status = status
        self.host = host
    }

    /// A whole (non-streamed) answer's events, handed on as a stream's would be.
    init(wholeAnswer events: [StreamEvent], api: APIFlavor, status: Int, host: String) {
        self.body = nil
        self.wholeEvents = events
        self.api = api
        self.status = status
        self.host = host
    }

    /// Whether the answer arrives as a stream; false when the server sent it whole, which the
    /// footer and the transcript say.
    package var isStreamed: Bool { body != nil }

    package func makeAsyncIterator() -> Iterator {
        let decoder: any StreamEventDecoder =
            api == .chat ? ChatCompletionsEventDecoder() : ResponsesEventDecoder()
        var iterator = Iterator(
            body: body?.makeAsyncIterator(), decoder: decoder, status: status, host: host, mask: mask, names: names)
        if body == nil {
            iterator.sink.pending = wholeEvents
            iterator.sink.sawMessage = true
            iterator.finished = true
        }
        return iterator
    }

    package struct Iterator: AsyncIteratorProtocol {
        var body: HTTPBody.AsyncIterator?
        let status: Int
        let host: String
        var parser = SSEParser()
        var sink: EventSink
        var index = 0
        var finished = false
        var head = Data()

        init(
            body: HTTPBody.AsyncIterator?, decoder: any StreamEventDecoder, status: Int,
            host: String, mask: SecretMask, names: NameMap? = nil
        ) {
            self.body = body
            self.sink = EventSink(decoder: decoder, mask: mask, names: names)
            self.status = status
            self.host = host
        }

        /// Whether more events are already decoded, so the next ``next()`` will not wait for the network.
        /// A consumer can batch its output until this is false.
        package var hasBufferedEvents: Bool { index < sink.pending.count }

        /// The next event; nil when the body ends.
        /// - Throws: ``ModelError`` for a network failure, a body that was not a stream at all, or
        ///   an SSE line past ``SSEParser/largestLine`` (masked like everything the server says).
        package mutating func next() async throws -> StreamEvent? {
            do {
                return try await nextUnmasked()
            } catch let error as ModelError {
                throw error.masked(by: sink.mask)
            }
        }

        private mutating func nextUnmasked() async throws -> StreamEvent? {
            while true {
                if index < sink.pending.count {
                    defer { index += 1 }
                    return sink.pending[index]
                }
                if finished { return nil }
                sink.pending.removeAll(keepingCapacity: true)
                index = 0
                do {
                    if let chunk = try await body?.next() {
                        if head.count < 512 { head.append(chunk.prefix(512 - head.count)) }
                        parser.push(chunk, into: &sink)
                        if parser.overflowed {
                            // Stop reading: the rest of an endless line is not worth the memory.
                            finished = true
                            throw ModelError.lineTooLong(limitBytes: SSEParser.largestLine)
                        }
                    } else {
                        finished = true
                        parser.finish(into: &sink)
                    }
                } catch let error as TransportError {
                    throw ModelError.transport(error, host: host)
                }
                sink.flushText(final: finished)
                if finished { sink.pending.append(contentsOf: sink.decoder.finish()) }
                if finished, !sink.sawMessage {
                    throw ModelError.notAStream(status: status, firstLine: ModelClient.firstLine(of: head), host: host)
                }
            }
        }
    }

    /// Turns one read's server-sent events into stream events.
    ///
    /// Text deltas that arrive together are handed on as one: the text is the same, and the
    /// consumer then does its per-event work once per read, not per token. The text is kept as
    /// UTF-8 bytes until then, so a run of deltas read from raw bytes makes one string in all.
    struct EventSink: SSEEventSink {
        var decoder: any StreamEventDecoder
        var pending: [StreamEvent] = []
        /// Answer text not yet handed on; every piece appended is whole UTF-8.
        var text: [UInt8] = []
        var sawMessage = false
        let mask: SecretMask
        /// Answer text on its way out: a secret split across deltas or reads is still masked.
        private var textMask: SecretMask.Stream
        /// The same for refusal text, which the turn gathers into its message.
        private var refusalMask: SecretMask.Stream

        /// Pseudonyms back to names, after the mask: a pseudonym split across deltas is held until whole.
        private var names: StreamingNameRestorer?

        init(decoder: any StreamEventDecoder, mask: SecretMask, names: NameMap? = nil) {
            self.decoder = decoder
            self.mask = mask
            self.names = names.map(StreamingNameRestorer.init(map:))
            self.textMask = SecretMask.Stream(mask)
            self.refusalMask = SecretMask.Stream(mask)
        }

        mutating func take(rawData: UnsafeBufferPointer<UInt8>) -> Bool {
            switch decoder.decode(rawData: rawData, appendingTextTo: &text) {
            case .appendedText:
                sawMessage = true
                return true
            case .event(let event):
                sawMessage = true
                append(event)
                return true
            case .declined:
                return false
            }
        }

        mutating func take(_ message: SSEMessage) {
            sawMessage = true
            if let delta = decoder.textDelta(message) {
                text.append(contentsOf: delta.utf8)
                return
            }
            for event in decoder.decode(message) {
                append(event)
            }
        }

        private mutating func append(_ event: StreamEvent) {
            switch event {
            case .textDelta(let delta):
                text.append(contentsOf: delta.utf8)
                return
            case .refusalDelta(let delta):
                let ready = refusalMask.push(Array(delta.utf8))
                if !ready.isEmpty { pending.append(.refusalDelta(restored(String(decoding: ready, as: UTF8.self)))) }
                return
            case .created, .unknown, .malformed:
                // Text may go on after these: a secret split around them is still caught.
                flushText(final: false)
            case .completed, .incomplete, .failed, .error:
                flushText(final: true)
            }
            pending.append(event.masked(by: mask))
        }

        /// Hands on the text gathered so far as one delta, masked; the end of it that could
        /// begin a secret waits for more text unless `final`.
        mutating func flushText(final: Bool = false) {
            if !text.isEmpty || final {
                var ready = textMask.push(text)
                if final { ready += textMask.flush() }
                var shown = String(decoding: ready, as: UTF8.self)
                if var restorer = names {
                    shown = restorer.feed(shown)
                    if final { shown += restorer.finish() }
                    names = restorer
                }
                if !shown.isEmpty { pending.append(.textDelta(shown)) }
                text.removeAll(keepingCapacity: true)
            }
            if final {
                let refusal = refusalMask.flush()
                if !refusal.isEmpty { pending.append(.refusalDelta(restored(String(decoding: refusal, as: UTF8.self)))) }
            }
        }

        /// A refusal's text with names put back (a refusal is gathered whole, so nothing is held).
        private func restored(_ text: String) -> String {
            names.map { $0.map.restored(text) } ?? text
        }
    }
}
