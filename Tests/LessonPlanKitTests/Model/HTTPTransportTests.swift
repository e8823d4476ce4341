import CCurl
import Foundation
@testable import LessonPlanKit
import TestSupport
import Testing

/// Both real transports, held to one contract against the loopback fake: every request here
/// goes to 127.0.0.1 only.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case curl, urlSession

    func make() -> any HTTPTransport {
        switch self {
        case .curl: CurlTransport()
        case .urlSession: URLSessionTransport()
        }
    }

    var testDescription: String { rawValue }
}

@Suite struct HTTPTransportTests {

    /// A streaming Responses request, as the client will send it.
    private func modelRequest(_ server: FakeOpenAIServer, idleTimeout: TimeInterval = 30) -> HTTPRequest {
        let body = #"{"model":"gpt-5.2","stream":true,"store":false,"input":"Grade band: 3–5\nDuration: 40 minutes"}"#
        return HTTPRequest(
            url: server.baseURL.appendingPathComponent("responses"),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer sk-test-key"],
            body: Data(body.utf8), idleTimeout: idleTimeout)
    }

    private func collect(_ body: AsyncThrowingStream<Data, any Error>) async throws -> [Data] {
        var chunks: [Data] = []
        for try await chunk in body {
            chunks.append(chunk)
        }
        return chunks
    }

    @Test(arguments: TransportUnderTest.allCases)
    func sendsMethodHeadersAndBodyAsGiven(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let request = modelRequest(server)
        let response = try await transport.send(request)
        _ = try await collect(response.body)

        let recorded = try #require(try await server.requests().first)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/responses")
        #expect(recorded.header("authorization") == "Bearer sk-test-key")
        #expect(recorded.header("content-type") == "application/json")
        #expect(recorded.stream == true)
        #expect(recorded.store == false)
        #expect(recorded.inputText == "Grade band: 3–5\nDuration: 40 minutes")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func headCarriesStatusAndHeadersWithCaseInsensitiveLookup(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let response = try await transport.send(modelRequest(server))
        _ = try await collect(response.body)

        #expect(response.head.status == 200)
        #expect(response.head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(response.head.header("X-REQUEST-ID") == "req_fake000001")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func errorHeadAndJSONBodyAreReadable(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.error(status: 429, headers: ["Retry-After": "1"])])
        let response = try await transport.send(modelRequest(server))

        #expect(response.head.status == 429)
        #expect(response.head.header("retry-after") == "1")
        #expect(response.head.header("RETRY-AFTER") == "1")
        let body = try JSONValue.parse(Data(try await collect(response.body).joined()))
        #expect(body["error"]?["code"]?.stringValue == "rate_limit_exceeded")
        #expect(body["error"]?["type"]?.stringValue == "requests")
    }

    @Test(arguments: TransportUnderTest.allCases)
    func bodyBytesArriveExactlyWhenCharactersAreSplitAcrossChunks(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let text = "data: {\"delta\":\"Grades 3–5 🍎 “ok”\"}\n\n"
        try await server.script([.raw(body: text, chunkSize: 1, delayMs: 5)])
        let response = try await transport.send(modelRequest(server))
        let chunks = try await collect(response.body)

        #expect(Data(chunks.joined()) == Data(text.utf8))
        // The test only means something if a character really was cut in two on the way.
        #expect(chunks.contains { String(bytes: $0, encoding: .utf8) == nil })
    }

    @Test(arguments: TransportUnderTest.allCases)
    func streamedPlanArrivesWholeAndValidUTF8(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let response = try await transport.send(modelRequest(server))
        let bytes = Data(try await collect(response.body).joined())

        let text = try #require(String(bytes: bytes, encoding: .utf8))
        #expect(text.hasPrefix("event: response.created\n"))
        #expect(text.contains("Plan #1 — grade band 3–5, 40 minutes in total."))
        #expect(text.contains("📝"))
        #expect(text.contains("event: response.completed\n"))
        #expect(text.hasSuffix("}\n\n"))
    }

    @Test(arguments: TransportUnderTest.allCases, [false, true])
    func cutStreamEndsWithConnectionLost(_ kind: TransportUnderTest, reset: Bool) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.cut(afterDeltas: 2, reset: reset)])
        let response = try await transport.send(modelRequest(server))

        #expect(response.head.status == 200)
        await #expect(throws: TransportError.connectionLost) {
            _ = try await collect(response.body)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func connectionClosedBeforeAnyResponseIsConnectionLost(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        // Twice, because libcurl silently retries once when a reused connection closes early.
        try await server.script([.drop, .drop])
        await #expect(throws: TransportError.connectionLost) {
            _ = try await transport.send(modelRequest(server))
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func cancellingTheConsumerEndsTheBodyWithCancellationError(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        // One delta, then silence far longer than the test: only cancellation can end it.
        try await server.script([.hang(seconds: 120, afterDeltas: 1)])
        let request = modelRequest(server, idleTimeout: 120)
        let (firstChunk, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            let response = try await transport.send(request)
            for try await _ in response.body {
                signal.yield()
            }
        }
        var iterator = firstChunk.makeAsyncIterator()
        _ = await iterator.next()
        consumer.cancel()

        await #expect(throws: CancellationError.self) {
            try await consumer.value
        }
        #expect(try await server.clientClosed(request: 1))
    }

    @Test(arguments: TransportUnderTest.allCases)
    func cancellingWhileWaitingForTheHeadThrowsCancellationError(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 120)])
        let request = modelRequest(server, idleTimeout: 120)
        let caller = Task { try await transport.send(request) }
        // Cancel only once the server holds the request, so the data task surely exists.
        while try await server.requests().isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        caller.cancel()

        await #expect(throws: CancellationError.self) {
            _ = try await caller.value
        }
        #expect(try await server.clientClosed(request: 1))
    }

    @Test(arguments: TransportUnderTest.allCases)
    func cancelledBeforeSendingSendsNothing(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let request = modelRequest(server)
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }

        await #expect(throws: CancellationError.self) {
            _ = try await caller.value
        }
        #expect(try await server.requests().isEmpty)
    }

    @Test(arguments: TransportUnderTest.allCases)
    func droppingTheResponseUnreadCancelsTheRequest(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 120, afterDeltas: 1)])
        do {
            let response = try await transport.send(modelRequest(server, idleTimeout: 120))
            #expect(response.head.status == 200)
        }
        #expect(try await server.clientClosed(request: 1))
    }

    @Test(arguments: TransportUnderTest.allCases)
    func silenceBeforeTheHeadTimesOut(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 60)])
        await #expect(throws: TransportError.timedOut) {
            _ = try await transport.send(modelRequest(server, idleTimeout: 1))
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func silenceInTheMiddleOfTheBodyTimesOut(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 60, afterDeltas: 2)])
        let response = try await transport.send(modelRequest(server, idleTimeout: 1))
        await #expect(throws: TransportError.timedOut) {
            _ = try await collect(response.body)
        }
    }

    @Test(arguments: TransportUnderTest.allCases)
    func closedPortCannotConnect(_ kind: TransportUnderTest) async throws {
        let transport = kind.make()
        let server = try await FakeOpenAIServer()
        let port = server.port
        server.stop()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/responses"))

        await #expect(throws: TransportError.cannotConnect(host: "127.0.0.1")) {
            _ = try await transport.send(HTTPRequest(url: url, body: Data("{}".utf8), idleTimeout: 5))
        }
    }
}

/// How failures URLSession reports become ``TransportError``s, including the ones loopback tests
/// cannot produce (DNS, TLS). The messages are libcurl's, as corelibs passes them on.
@Suite struct URLSessionTransportErrorMappingTests {
    private func urlError(_ code: Int, _ message: String = "") -> NSError {
        NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    private func mapped(_ error: NSError, afterHead: Bool = false) -> TransportError? {
        URLSessionTransport.transportError(for: error, host: "api.example.com", afterHead: afterHead) as? TransportError
    }

    @Test func setupFailuresNameTheHost() {
        #expect(mapped(urlError(-1003, "Could not resolve host: api.example.com")) == .hostNotFound(host: "api.example.com"))
        #expect(mapped(urlError(-1006)) == .hostNotFound(host: "api.example.com"))
        #expect(mapped(urlError(-1004)) == .cannotConnect(host: "api.example.com"))
        #expect(mapped(urlError(-1005)) == .cannotConnect(host: "api.example.com"))
        #expect(mapped(urlError(-1200)) == .tls(host: "api.example.com"))
        #expect(mapped(urlError(-1202)) == .tls(host: "api.example.com"))
    }

    @Test func curlMessagesClassifyUnknownSetupFailures() {
        #expect(
            mapped(urlError(-1, "SSL certificate problem: unable to get local issuer certificate"))
                == .tls(host: "api.example.com"))
        #expect(mapped(urlError(-1, "OpenSSL SSL_connect: Connection reset by peer")) == .tls(host: "api.example.com"))
        #expect(
            mapped(urlError(-1, "Failed to connect to api.example.com port 443: Network is unreachable"))
                == .cannotConnect(host: "api.example.com"))
        #expect(mapped(urlError(-1, "Something else entirely")) == .other("Something else entirely"))
    }

    @Test func failuresAfterTheHeadAreConnectionLossOrTimeout() {
        #expect(mapped(urlError(-1, "transfer closed with outstanding read data remaining"), afterHead: true) == .connectionLost)
        #expect(mapped(urlError(-1, "OpenSSL SSL_read: unexpected eof while reading"), afterHead: true) == .connectionLost)
        #expect(mapped(urlError(-1005, "Recv failure: Connection reset by peer"), afterHead: true) == .connectionLost)
        #expect(mapped(urlError(-1001), afterHead: true) == .timedOut)
        #expect(mapped(urlError(-1001)) == .timedOut)
        #expect(mapped(urlError(-1011, "Empty reply from server")) == .connectionLost)
    }

    @Test func cancellationStaysCancellation() {
        let error = URLSessionTransport.transportError(for: urlError(-999), host: "h", afterHead: true)
        #expect(error is CancellationError)
    }
}

/// How libcurl's result codes become ``TransportError``s, including the ones loopback tests
/// cannot produce (DNS, certificates).
@Suite struct CurlTransportErrorMappingTests {
    private func mapped(_ code: CURLcode, afterHead: Bool = false) -> TransportError {
        CurlTransport.transportError(for: code, host: "api.example.com", afterHead: afterHead)
    }

    @Test func setupFailuresNameTheHost() {
        #expect(mapped(CURLE_COULDNT_RESOLVE_HOST) == .hostNotFound(host: "api.example.com"))
        #expect(mapped(CURLE_COULDNT_CONNECT) == .cannotConnect(host: "api.example.com"))
        #expect(mapped(CURLE_PEER_FAILED_VERIFICATION) == .tls(host: "api.example.com"))
        #expect(mapped(CURLE_SSL_CONNECT_ERROR) == .tls(host: "api.example.com"))
        #expect(mapped(CURLE_GOT_NOTHING) == .connectionLost)
    }

    @Test func failuresAfterTheHeadAreConnectionLossOrTimeout() {
        #expect(mapped(CURLE_RECV_ERROR, afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_PARTIAL_FILE, afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_SSL_CONNECT_ERROR, afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_OPERATION_TIMEDOUT, afterHead: true) == .timedOut)
        #expect(mapped(CURLE_OPERATION_TIMEDOUT) == .timedOut)
    }

    @Test func anythingElseKeepsLibcurlsOwnWords() {
        #expect(mapped(CURLE_TOO_MANY_REDIRECTS) == .other("Number of redirects hit maximum amount"))
    }
}
