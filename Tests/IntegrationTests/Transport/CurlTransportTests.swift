import CCurl
import Foundation
import TestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// The real transport against the loopback fake: every request here goes to 127.0.0.1 only.
@Suite struct CurlTransportTests {
    private let transport = CurlTransport()

    /// A streaming Responses request, as the client will send it.
    private func modelRequest(_ server: FakeOpenAIServer, idleTimeout: TimeInterval = 30) -> HTTPRequest {
        let body = #"{"model":"gpt-5.2","stream":true,"store":false,"input":"Grade band: 3–5\nDuration: 40 minutes"}"#
        return HTTPRequest(
            url: server.baseURL.appendingPathComponent("responses"),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer sk-test-key"],
            body: Data(body.utf8), idleTimeout: idleTimeout)
    }

    private func collect(_ body: HTTPBody) async throws -> [Data] {
        var chunks: [Data] = []
        for try await chunk in body {
            chunks.append(chunk)
        }
        return chunks
    }

    @Test func sendsMethodHeadersAndBodyAsGiven() async throws {
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

    @Test func headCarriesStatusAndHeadersWithCaseInsensitiveLookup() async throws {
        let server = try await FakeOpenAIServer()
        let response = try await transport.send(modelRequest(server))
        _ = try await collect(response.body)

        #expect(response.head.status == 200)
        #expect(response.head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(response.head.header("X-REQUEST-ID") == "req_fake000001")
    }

    @Test func errorHeadAndJSONBodyAreReadable() async throws {
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

    @Test func bodyBytesArriveExactlyWhenCharactersAreSplitAcrossChunks() async throws {
        let server = try await FakeOpenAIServer()
        let text = "data: {\"delta\":\"Grades 3–5 🍎 “ok”\"}\n\n"
        let bytes = Data(text.utf8)
        // The server writes up to the middle of the en dash (its first byte of three) and waits: the
        // client cannot have more, so a character is cut in two on the way, whatever the machine's load.
        let dash = try #require(bytes.firstIndex(of: 0xE2))
        let held = dash + 1
        var step = FakeOpenAIServer.Step.raw(body: text, chunkSize: 1).wireForm
        step["hold_after"] = .number(Double(held))
        try await server.script([.custom(step)])
        // The test is about byte boundaries, not timeouts: on CI's two cores, with LibreOffice and Chromium of the
        // printing tests beside it, the fake's first bytes once took longer than the default 30 s idle limit.
        let response = try await transport.send(modelRequest(server, idleTimeout: 180))
        var chunks: [Data] = []
        var iterator = response.body.makeAsyncIterator()
        while chunks.reduce(0, { $0 + $1.count }) < held, let chunk = try await iterator.next() {
            chunks.append(chunk)
        }
        let before = Data(chunks.joined())
        #expect(before == bytes.prefix(held), "only the bytes written before the hold")
        #expect(String(bytes: before, encoding: .utf8) == nil, "the en dash is cut in two")
        try await server.release()
        while let chunk = try await iterator.next() { chunks.append(chunk) }
        #expect(Data(chunks.joined()) == bytes)
        #expect(chunks.contains { String(bytes: $0, encoding: .utf8) == nil })
    }

    @Test func streamedPlanArrivesWholeAndValidUTF8() async throws {
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

    @Test(arguments: [false, true])
    func cutStreamEndsWithConnectionLost(reset: Bool) async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.cut(afterDeltas: 2, reset: reset)])
        let response = try await transport.send(modelRequest(server))

        #expect(response.head.status == 200)
        await #expect(throws: TransportError.connectionLost) {
            _ = try await collect(response.body)
        }
    }

    @Test func connectionClosedBeforeAnyResponseIsConnectionLost() async throws {
        let server = try await FakeOpenAIServer()
        // Twice, because libcurl retries once when a reused connection closes early.
        try await server.script([.drop, .drop])
        await #expect(throws: TransportError.connectionLost) {
            _ = try await transport.send(modelRequest(server))
        }
    }

    @Test func cancellingTheConsumerEndsTheBodyWithCancellationError() async throws {
        let server = try await FakeOpenAIServer()
        // One delta, then silence far longer than the test: only cancellation can end it.
        try await server.script([.hang(seconds: 120, afterDeltas: 1)])
        let request = modelRequest(server, idleTimeout: 120)
        let (firstChunk, signal) = AsyncStream<Void>.makeStream()
        let transport = transport
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

    @Test func cancellingWhileWaitingForTheHeadThrowsCancellationError() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 120)])
        let request = modelRequest(server, idleTimeout: 120)
        let transport = transport
        let caller = Task { try await transport.send(request) }
        // Cancel only once the server holds the request, so the transfer is surely under way.
        while try await server.requests().isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        caller.cancel()

        await #expect(throws: CancellationError.self) {
            _ = try await caller.value
        }
        #expect(try await server.clientClosed(request: 1))
    }

    @Test func cancelledBeforeSendingSendsNothing() async throws {
        let server = try await FakeOpenAIServer()
        let request = modelRequest(server)
        let transport = transport
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }

        await #expect(throws: CancellationError.self) {
            _ = try await caller.value
        }
        #expect(try await server.requests().isEmpty)
    }

    @Test func droppingTheResponseUnreadCancelsTheRequest() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 120, afterDeltas: 1)])
        do {
            let response = try await transport.send(modelRequest(server, idleTimeout: 120))
            #expect(response.head.status == 200)
        }
        // Within a minute: on two loaded cores the fake's thread that notices the close can be slow to run.
        #expect(try await server.clientClosed(request: 1, within: .seconds(60)))
    }

    @Test func silenceBeforeTheHeadTimesOut() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 60)])
        await #expect(throws: TransportError.timedOut) {
            _ = try await transport.send(modelRequest(server, idleTimeout: 1))
        }
    }

    @Test func silenceInTheMiddleOfTheBodyTimesOut() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.hang(seconds: 60, afterDeltas: 2)])
        let response = try await transport.send(modelRequest(server, idleTimeout: 1))
        await #expect(throws: TransportError.timedOut) {
            _ = try await collect(response.body)
        }
    }

    @Test func closedPortCannotConnect() async throws {
        let server = try await FakeOpenAIServer()
        let port = server.port
        await server.stop()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/responses"))

        await #expect(throws: TransportError.cannotConnect(host: "127.0.0.1")) {
            _ = try await transport.send(HTTPRequest(url: url, body: Data("{}".utf8), idleTimeout: 5))
        }
    }

    @Test func addsNoExpectNorAcceptEncodingEvenForALargeBody() async throws {
        let server = try await FakeOpenAIServer()
        // libcurl would ask `Expect: 100-continue` before a body this large.
        let input = String(repeating: "Photosynthesis ", count: 100_000)
        let body = try JSONEncoder().encode(JSONValue.object(["model": "gpt-5.2", "stream": true, "input": .string(input)]))
        let request = HTTPRequest(
            url: server.baseURL.appendingPathComponent("responses"),
            headers: ["Content-Type": "application/json"], body: body, idleTimeout: 30)
        let response = try await transport.send(request)
        _ = try await collect(response.body)

        let recorded = try #require(try await server.requests().first)
        #expect(recorded.inputText == input)
        #expect(recorded.header("expect") == nil)
        #expect(recorded.header("accept-encoding") == nil)
        #expect(recorded.header("user-agent") == "lessonplan")
    }

    @Test func aSlowReaderKeepsTheBufferWithinItsBoundAndTheTransferWaits() async throws {
        let server = try await FakeOpenAIServer()
        let event = "data: " + String(repeating: "x", count: 1000) + "\n\n"
        let text = String(repeating: event, count: 2048)
        try await server.script([.raw(body: text)])
        let limit = 64 * 1024
        let transport = CurlTransport(bufferLimit: limit)
        let response = try await transport.send(modelRequest(server))
        let source = try #require(response.body.source as? CurlBody)

        var received = 0
        for try await chunk in response.body {
            received += chunk.count
            // Slower than loopback delivers, so the buffer fills and libcurl's thread must wait.
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(received == text.utf8.count)
        let statistics = source.transfer.statistics
        #expect(statistics.peakBufferedBytes <= limit)
        #expect(statistics.producerWaits > 0)
    }

    @Test func aRedirectIsFollowedAndOnlyTheFinalHeadIsReturned() async throws {
        let server = try await FakeOpenAIServer()
        let target = server.baseURL.appendingPathComponent("responses").absoluteString
        try await server.script([.raw(status: 307, headers: ["Location": target, "X-Hop": "1"], body: "moved")])
        let response = try await transport.send(modelRequest(server))
        let text = String(decoding: Data(try await collect(response.body).joined()), as: UTF8.self)

        #expect(response.head.status == 200)
        #expect(response.head.header("x-hop") == nil)
        #expect(text.hasPrefix("event: response.created\n"))
        let requests = try await server.requests()
        #expect(requests.count == 2)
        // 307 keeps the method and the body.
        #expect(requests.last?.method == "POST")
        #expect(requests.last?.inputText == "Grade band: 3–5\nDuration: 40 minutes")
    }

    @Test func oneTransportServesRequestsOneAfterAnother() async throws {
        // The second and third reuse the first one's pooled handle (and its kept connection).
        let server = try await FakeOpenAIServer()
        for _ in 1...3 {
            let response = try await transport.send(modelRequest(server))
            #expect(response.head.status == 200)
            _ = try await collect(response.body)
        }
        #expect(try await server.requests().count == 3)
    }
}

/// How libcurl's results become ``TransportError``s, including the ones loopback tests cannot
/// produce (DNS, TLS). The same classification URLSession's errors had.
@Suite struct CurlTransportErrorMappingTests {
    private func mapped(_ code: CURLcode, _ message: String = "", afterHead: Bool = false) -> TransportError {
        CurlTransport.transportError(for: code, message: message, host: "api.example.com", afterHead: afterHead)
    }

    @Test func setupFailuresNameTheHost() {
        #expect(mapped(CURLE_COULDNT_RESOLVE_HOST) == .hostNotFound(host: "api.example.com"))
        #expect(mapped(CURLE_COULDNT_CONNECT) == .cannotConnect(host: "api.example.com"))
        #expect(mapped(CURLE_RECV_ERROR, "Recv failure: Connection reset by peer") == .cannotConnect(host: "api.example.com"))
        #expect(mapped(CURLE_SSL_CONNECT_ERROR, "OpenSSL SSL_connect: Connection reset by peer") == .tls(host: "api.example.com"))
        #expect(mapped(CURLE_PEER_FAILED_VERIFICATION) == .tls(host: "api.example.com"))
        #expect(mapped(CURLE_SSL_CACERT_BADFILE) == .tls(host: "api.example.com"))
    }

    @Test func otherFailuresKeepLibcurlsMessage() {
        #expect(mapped(CURLE_COULDNT_RESOLVE_PROXY, "Could not resolve proxy: proxy.invalid") == .other("Could not resolve proxy: proxy.invalid"))
        #expect(mapped(CURLE_TOO_MANY_REDIRECTS, "Maximum (5) redirects followed") == .other("Maximum (5) redirects followed"))
    }

    @Test func failuresAfterTheHeadAreConnectionLossOrTimeout() {
        #expect(mapped(CURLE_PARTIAL_FILE, "transfer closed with outstanding read data remaining", afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_RECV_ERROR, "OpenSSL SSL_read: unexpected eof while reading", afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_RECV_ERROR, "Recv failure: Connection reset by peer", afterHead: true) == .connectionLost)
        #expect(mapped(CURLE_OPERATION_TIMEDOUT, afterHead: true) == .timedOut)
        #expect(mapped(CURLE_OPERATION_TIMEDOUT) == .timedOut)
        #expect(mapped(CURLE_GOT_NOTHING, "Empty reply from server") == .connectionLost)
    }
}

/// The queue between libcurl's thread and the reader: order, byte count, and packing.
@Suite struct ChunkQueueTests {
    private func append(_ bytes: [UInt8], to queue: inout ChunkQueue) {
        bytes.withUnsafeBytes { queue.append($0) }
    }

    @Test func smallPiecesArePackedAndLargeOnesKeptWhole() {
        var queue = ChunkQueue()
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
        append(Array(repeating: 1, count: 100), to: &queue)
        append(Array(repeating: 2, count: 200), to: &queue)
        append(Array(repeating: 3, count: 40_000), to: &queue)
        append(Array(repeating: 4, count: 10), to: &queue)
        append([], to: &queue)
        #expect(queue.byteCount == 40_310)

        #expect(queue.popFirst() == Data(Array(repeating: 1, count: 100) + Array(repeating: 2, count: 200)))
        #expect(queue.popFirst() == Data(Array(repeating: 3, count: 40_000)))
        #expect(queue.byteCount == 10)
        append(Array(repeating: 5, count: 5), to: &queue)
        #expect(queue.popFirst() == Data(Array(repeating: 4, count: 10) + Array(repeating: 5, count: 5)))
        #expect(queue.popFirst() == nil)
        #expect(queue.isEmpty)
    }

    @Test func packedChunksStayWithinThePackingSize() {
        var queue = ChunkQueue()
        for _ in 0..<100 {
            append(Array(repeating: 7, count: 1_000), to: &queue)
        }
        var sizes: [Int] = []
        while let chunk = queue.popFirst() {
            sizes.append(chunk.count)
        }
        #expect(sizes.reduce(0, +) == 100_000)
        #expect(sizes.allSatisfy { $0 <= ChunkQueue.packing })
    }
}
