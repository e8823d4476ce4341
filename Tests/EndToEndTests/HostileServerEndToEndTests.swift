import Foundation
import TestSupport
import Testing

/// The built binary against servers that misbehave on purpose (issue 9, §5 and §6): headers and
/// keys that would inject, redirects and proxies that would carry credentials away, servers
/// that echo secrets, streams without end, damaged text, enormous heads. Only 127.0.0.1.
@Suite(.serialized) struct HostileServerEndToEndTests {
    static let secret = "SECRETKEY-9z8y7x6w5v"

    func ends(_ binary: LessonplanBinary) throws -> [[String: Any]] {
        try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
    }

    /// Everything the run printed or wrote, to check a secret appears nowhere.
    func everything(_ result: LessonplanBinary.Result, _ binary: LessonplanBinary) -> String {
        ([result.stdout, result.stderr] + binary.writtenFiles().map(\.contents)).joined(separator: "\n")
    }

    // MARK: - §5 Headers and keys

    @Test func aHeaderOrKeyWithALineBreakIsRefusedBeforeAnythingIsSent() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let header = try await binary.run(["generate", "--topic", "Tides", "--header", "X-Token: abc\r\nX-Injected: 1"])
        #expect(header.status == 2)
        #expect(header.stderr.contains("--header “X-Token” has a line break or other control character in its value; give the value on one line."))
        let reserved = try await binary.run(["generate", "--topic", "Tides", "--header", "content-length: 0"])
        #expect(reserved.status == 2)
        #expect(reserved.stderr.contains("--header “content-length” is reserved"))
        binary.environment["OPENAI_API_KEY"] = "sk-test.\(Self.secret)\nX-Injected: 1"
        let key = try await binary.run(["generate", "--topic", "Tides"])
        #expect(key.status == 2)
        #expect(key.stderr.contains("OPENAI_API_KEY has a line break or other control character in it"))
        #expect(!key.stderr.contains(Self.secret))
        #expect(try await server.requests().isEmpty)
    }

    @Test func anAuthorizationHeaderReplacesTheKeysOnTheWire() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--header", "AUTHORIZATION: Bearer proxy-token-123"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(try await server.requests().first)
        #expect(request.headerLines("authorization") == ["Bearer proxy-token-123"])
    }

    @Test func aHostThatOnlyLooksLikeLoopbackGetsNoKeyOverPlainHTTP() async throws {
        // Refused before any name is looked up: nothing leaves the machine.
        let binary = try LessonplanBinary(baseURL: URL(string: "http://127.attacker.example/v1"))
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Refusing to send the API key over plain http:// to 127.attacker.example"))
    }

    @Test func aRedirectToAnotherServerCarriesNeitherKeyNorHeaders() async throws {
        let first = try await FakeOpenAIServer()
        let second = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: first.baseURL)
        defer { binary.removeHome() }
        let target = second.baseURL.appendingPathComponent("responses").absoluteString
        try await first.script([.raw(status: 307, headers: ["Location": target], body: "moved")])
        let result = try await binary.run(["generate", "--topic", "Tides", "--header", "X-Proxy-Token: classroom-token-7"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Learning Objective"))
        let asked = try #require(try await first.requests().first)
        #expect(asked.headerLines("authorization").count == 1)
        #expect(asked.headerLines("x-proxy-token") == ["classroom-token-7"])
        let followed = try #require(try await second.requests().first)
        #expect(followed.headerLines("authorization").isEmpty)
        #expect(followed.headerLines("x-proxy-token").isEmpty)
        #expect(followed.inputText?.contains("Tides") == true)
    }

    @Test func echoedSecretsAreMaskedOnScreenAndInTheTranscript() async throws {
        let server = try await FakeOpenAIServer()
        // A key without the usual prefix, so only the mask (not a pattern) can catch it.
        let key = "lp-live.\(Self.secret)"
        let token = "classroom-token-7"
        let binary = try LessonplanBinary(baseURL: server.baseURL, apiKey: key)
        defer { binary.removeHome() }
        try await server.script([
            .error(status: 403, message: "Key \(key) may not use this model (header \(token))"),
            .text("Your key is \(key) and your token is \(token). Learning Objective: tides."),
            .errorEvent(message: "echo: Bearer \(key)", afterDeltas: 2),
            .html(status: 502),
        ])
        let arguments = ["--header", "X-Proxy-Token: \(token)", "--max-retries", "0"]
        let refused = try await binary.run(["generate", "--topic", "Tides"] + arguments)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("(403: Key [hidden] may not use this model (header [hidden]))"))
        let echoed = try await binary.run(["generate", "--topic", "Tides", "--no-repair"] + arguments)
        #expect(echoed.stdout.contains("Your key is [hidden] and your token is [hidden]."), "\(echoed.stdout)")
        let event = try await binary.run(["generate", "--topic", "Tides"] + arguments)
        #expect(event.stderr.contains("echo: Bearer [hidden]"), "\(event.stderr)")
        for result in [refused, echoed, event] {
            let all = everything(result, binary)
            #expect(!all.contains(Self.secret) && !all.contains(token))
        }
    }

    @Test func plainHTTPToThisMachineNeverGoesThroughAProxy() async throws {
        let server = try await FakeOpenAIServer()
        let proxy = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        for variable in ["http_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
            binary.environment[variable] = proxy.rootURL.absoluteString
        }
        let result = try await binary.run(["generate", "--topic", "Tides", "--max-retries", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await server.requests().count == 1)
        #expect(try await proxy.requests().isEmpty)
    }

    // MARK: - §6 Hostile streams are bounded

    @Test func anEndlessAnswerIsStoppedAtItsLimitKeptAsADraftInBoundedMemory() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.custom(["kind": "endless"])])
        // The largest output limit, so the largest answer limit: 4 MB.
        let (result, peak) = try await binary.runMeasuringPeakMemory(
            ["generate", "--topic", "Tides", "--max-output-tokens", "128000", "--no-repair"], timeout: .seconds(180))
        #expect(
            result.stderr.contains("The answer passed 4 MB, far longer than any lesson plan, so it was stopped; the text so far is kept as a draft"),
            "\(result.stderr)")
        #expect(result.status != 0)
        #expect(peak < 150, "peak RSS \(peak) MiB")
        let ended = try #require(try ends(binary).first)
        #expect(ended["status"] as? String == "incomplete")
        #expect((ended["output"] as? String)?.utf8.count == 4 * 1024 * 1024)
        #expect(try await server.clientClosed(request: 1))
    }

    @Test func anEndlessLineFailsTheTurnInBoundedMemory() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.custom(["kind": "endless_line"])])
        let (result, peak) = try await binary.runMeasuringPeakMemory(["generate", "--topic", "Tides"], timeout: .seconds(180))
        #expect(result.status == 1)
        #expect(result.stderr.contains("The server sent a line of more than 8 MB without ending it"), "\(result.stderr)")
        #expect(peak < 150, "peak RSS \(peak) MiB")
        #expect(try ends(binary).first?["status"] as? String == "failed")
        #expect(try await server.clientClosed(request: 1))
        #expect(try await server.requests().count == 1)
    }

    @Test func damagedDeltasKeepTheirTextWithReplacementCharacters() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        func delta(_ json: String) -> Data {
            Data(("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":" + json + "}\n\n").utf8)
        }
        var body = Data("data: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\"}}\n\n".utf8)
        body.append(delta(#""Tides: ""#))
        body.append(Data("data: {\"type\":\"response.output_text.delta\",\"delta\":\"bad ".utf8))
        body.append(contentsOf: [0xFF, 0xFE])
        body.append(Data(" bytes, \"}\n\n".utf8))
        body.append(delta(#""nul \u0000, ""#))
        body.append(delta(#""lone \ud800, ""#))
        body.append(delta(#""end.""#))
        body.append(Data("data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\"}}\n\n".utf8))
        try await server.script([.custom(["kind": "raw", "body_base64": .string(body.base64EncodedString())])])
        let result = try await binary.run(["generate", "--topic", "Tides", "--no-repair"])
        #expect(!result.stderr.contains("Skipped"))
        let expected = "Tides: bad \u{FFFD}\u{FFFD} bytes, nul \u{FFFD}, lone \u{FFFD}, end."
        #expect(result.stdout.contains(expected), "\(result.stdout)")
        let ended = try #require(try ends(binary).first)
        #expect(ended["output"] as? String == expected)
    }

    @Test func oversizedResponseHeadersGetTheirOwnSentence() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.custom(["kind": "huge_headers", "total_bytes": .number(300_000)])])
        let result = try await binary.run(["generate", "--topic", "Tides", "--max-retries", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("127.0.0.1 sent more than 100 KB of response headers"), "\(result.stderr)")
        #expect(!result.stderr.contains("connection refused"))
    }

    /// A base URL that carries its key in the query, as some gateways want, echoed back by a 404.
    @Test func aSecretInTheBaseURLsQueryIsHiddenWhereverTheServerSaysItBack() async throws {
        let server = try await FakeOpenAIServer()
        let secret = "QUERYSECRET-5f6e7d8c"
        var binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        binary.environment["OPENAI_BASE_URL"] = server.baseURL.absoluteString + "?api-key=" + secret
        try await server.script([
            .errorBody(
                status: 404,
                body: .object(["error": .object(["message": .string("Invalid URL (POST /v1/responses?api-key=\(secret))")])]))
        ])
        let result = try await binary.run(["generate", "--topic", "Tides", "--name", "q"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("api-key=[hidden]"), "\(result.stderr)")
        let doctor = try await binary.run(["doctor"])
        let export = try await binary.run(["export", "q", "--format", "json"])
        for output in [result.stdout, result.stderr, doctor.stdout, doctor.stderr, export.stdout, export.stderr] {
            #expect(!output.contains(secret), "\(output)")
        }
        for (path, contents) in binary.writtenFiles() { #expect(!contents.contains(secret), "\(path)") }
        #expect(try binary.transcriptLines().contains { ($0["error"] as? String)?.contains("[hidden]") == true })
    }
}
