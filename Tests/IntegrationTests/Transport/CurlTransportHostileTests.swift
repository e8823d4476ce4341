import Foundation
import TestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// The real transport against a hostile loopback server: credentials stay with their host,
/// oversized heads get their own error. Every request goes to 127.0.0.1 only.
@Suite struct CurlTransportHostileTests {
    private let transport = CurlTransport()

    private func request(_ url: URL) -> HTTPRequest {
        HTTPRequest(
            url: url,
            headers: [
                "Content-Type": "application/json", "Authorization": "Bearer sk-test-key", "X-Proxy-Token": "classroom-token-7",
                "X-Public": "kept",
            ],
            body: Data(#"{"model":"gpt-5.2","stream":true,"input":"Tides"}"#.utf8), idleTimeout: 30,
            originOnlyHeaders: ["Authorization", "X-Proxy-Token"])
    }

    private func drain(_ body: HTTPBody) async throws -> Int {
        var count = 0
        for try await chunk in body { count += chunk.count }
        return count
    }

    @Test func aRedirectToAnotherPortLeavesTheCredentialsBehind() async throws {
        let first = try await FakeOpenAIServer()
        let second = try await FakeOpenAIServer()
        let target = second.baseURL.appendingPathComponent("responses").absoluteString
        try await first.script([.raw(status: 307, headers: ["Location": target], body: "moved")])
        let response = try await transport.send(request(first.baseURL.appendingPathComponent("responses")))
        #expect(response.head.status == 200)
        #expect(try await drain(response.body) > 0)

        let asked = try #require(try await first.requests().first)
        #expect(asked.headerLines("authorization") == ["Bearer sk-test-key"])
        #expect(asked.headerLines("x-proxy-token") == ["classroom-token-7"])
        let followed = try #require(try await second.requests().first)
        #expect(followed.headerLines("authorization").isEmpty)
        #expect(followed.headerLines("x-proxy-token").isEmpty)
        #expect(followed.header("x-public") == "kept")
        #expect(followed.method == "POST" && followed.inputText == "Tides")
    }

    @Test func aRedirectWithinTheSameHostKeepsThem() async throws {
        let server = try await FakeOpenAIServer()
        let target = server.baseURL.appendingPathComponent("responses").absoluteString
        try await server.script([.raw(status: 308, headers: ["Location": target], body: "")])
        let response = try await transport.send(request(server.rootURL.appendingPathComponent("old/responses")))
        _ = try await drain(response.body)
        let requests = try await server.requests()
        #expect(requests.count == 2)
        #expect(requests.map { $0.headerLines("authorization") } == [["Bearer sk-test-key"], ["Bearer sk-test-key"]])
    }

    @Test func moreThanFiveRedirectsAreRefused() async throws {
        let server = try await FakeOpenAIServer()
        let target = server.baseURL.appendingPathComponent("responses").absoluteString
        try await server.script(Array(repeating: .raw(status: 307, headers: ["Location": target], body: ""), count: 6))
        await #expect(throws: TransportError.other("Maximum (5) redirects followed")) {
            _ = try await transport.send(request(server.baseURL.appendingPathComponent("responses")))
        }
        #expect(try await server.requests().count == 6)
    }

    @Test(arguments: [100, 300_000])
    func oversizedResponseHeadersHaveTheirOwnError(lineBytes: Int) async throws {
        // Many 100-byte lines (200 KB in all) past our limit, or one line past libcurl's.
        let server = try await FakeOpenAIServer()
        try await server.script([
            .custom(["kind": "huge_headers", "total_bytes": .number(300_000), "line_bytes": .number(Double(lineBytes))])
        ])
        await #expect(throws: TransportError.headersTooLarge(limitBytes: CurlTransport.largestHead)) {
            _ = try await transport.send(request(server.baseURL.appendingPathComponent("responses")))
        }
        #expect(
            ModelError.transport(.headersTooLarge(limitBytes: CurlTransport.largestHead), host: "127.0.0.1").errorDescription
                == "127.0.0.1 sent more than 100 KB of response headers, far more than any model server does, so the request was stopped; check --endpoint / OPENAI_BASE_URL and any proxy in between."
        )
    }
}
