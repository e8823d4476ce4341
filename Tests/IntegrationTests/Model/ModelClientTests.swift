import Foundation
import TestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// How the client turns what a server said into one sentence; against the loopback fake where a
/// real exchange matters, as plain values where it does not.
@Suite struct ModelClientTests {
    func client(_ base: URL, key: String? = "sk-test.SECRETKEY-9z8y7x6w5v", endpoint: URL? = nil, api: APIFlavor = .responses)
        -> ModelClient
    {
        ModelClient(
            transport: CurlTransport(),
            settings: ModelSettings(baseURL: base, endpoint: endpoint, apiKey: key, model: "gpt-5.2", api: api))
    }

    func failure(of client: ModelClient) async -> RequestFailure? {
        do {
            _ = try await client.open(instructions: "i", input: "Duration: 30 minutes")
            return nil
        } catch {
            return error as? RequestFailure
        }
    }

    @Test func anErrorStatusKeepsItsHeadersForTheRetryPolicy() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.error(status: 429, headers: ["Retry-After": "3"])])
        let failure = try #require(await failure(of: client(server.baseURL)))
        #expect(failure.headers["retry-after"] == "3")
        guard case .http(429, let message?, "rate_limit_exceeded", "gpt-5.2", "6w5v") = failure.error else {
            Issue.record("unexpected \(failure.error)")
            return
        }
        #expect(message.hasPrefix("Rate limit reached for gpt-5.2"))
    }

    @Test func aProxysHTMLPageIsShownByItsTitle() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.html(status: 504)])
        let failure = try #require(await failure(of: client(server.baseURL)))
        #expect(failure.error == .notAStream(status: 504, firstLine: "504 Gateway Time-out", host: "127.0.0.1"))
    }

    @Test func aWrongPathIsNotFoundNotAnUnknownModel() async throws {
        let server = try await FakeOpenAIServer()
        let url = server.rootURL.appending(path: "api/plans")
        let failure = try #require(await failure(of: client(server.baseURL, endpoint: url)))
        #expect(failure.error == .notFound(url: url.absoluteString, message: "Invalid URL (POST /api/plans)", api: .responses))
        #expect(failure.error.errorDescription?.contains("--api chat") == true)
    }

    @Test func notFoundIsReadFromTheBodyTheServerSent() throws {
        let client = client(try #require(URL(string: "http://127.0.0.1:1/v1")))
        // OpenAI names the model; llama-server and a bare web server do not.
        let openAI = Data(
            #"{"error":{"message":"The model `gpt-5.2` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#
                .utf8)
        #expect(
            client.describeFailure(status: 404, contentType: "application/json", body: openAI)
                == .http(
                    status: 404, message: "The model `gpt-5.2` does not exist or you do not have access to it.",
                    code: "model_not_found", model: "gpt-5.2", keySuffix: "6w5v"))
        let llama = Data(#"{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}"#.utf8)
        #expect(
            client.describeFailure(status: 404, contentType: "application/json", body: llama)
                == .notFound(url: "http://127.0.0.1:1/v1/responses", message: "File Not Found", api: .responses))
        let ollama = Data(#"{"error":"model \"gpt-5.2\" not found, try pulling it first"}"#.utf8)
        if case .http(404, _, _, _, _) = client.describeFailure(status: 404, contentType: nil, body: ollama) {
        } else {
            Issue.record("Ollama's unknown model should read as an unknown model")
        }
        let bare = Data("<html><head><title>404 Not Found</title></head></html>".utf8)
        #expect(
            client.describeFailure(status: 404, contentType: "text/html", body: bare)
                == .notFound(url: "http://127.0.0.1:1/v1/responses", message: "404 Not Found", api: .responses))
    }

    @Test func aKeyInTheServersMessageIsScrubbed() throws {
        let client = client(try #require(URL(string: "http://127.0.0.1:1/v1")))
        let body = Data(#"{"error":{"message":"Bad key sk-proj-ABCDEFGHIJ given","code":"invalid_api_key"}}"#.utf8)
        let error = client.describeFailure(status: 400, contentType: "application/json", body: body)
        #expect(error.errorDescription?.contains("ABCDEFGH") == false)
        #expect(error.errorDescription == "The server refused the request (400: Bad key sk-… given); check --model and --max-output-tokens.")
    }

    @Test func firstLinesSkipMarkupAndBlankLines() {
        #expect(ModelClient.firstLine(of: Data("\n\n  upstream connect error  \nmore".utf8)) == "upstream connect error")
        #expect(ModelClient.firstLine(of: Data("<!DOCTYPE html>\n<html>\n<body><h1>Access denied</h1>".utf8)) == "Access denied")
        #expect(ModelClient.firstLine(of: Data()) == "")
    }

    @Test func theCheckRequestIsTinyAndSaysOK() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.text("OK")])
        let result = await ConnectionCheck.run(client(server.baseURL))
        #expect(result.ok)
        #expect(result.reply == "OK")
        #expect(result.secondsToHead != nil)
        let request = try #require(try await server.requests().first)
        #expect(request.maxOutputTokens == 16)
        #expect(request.inputText == "Say OK.")
    }

    @Test func aCheckThatStopsAtItsLimitStillProvesTheConnection() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.incomplete(text: ""), .error(status: 401)])
        let incomplete = await ConnectionCheck.run(client(server.baseURL))
        #expect(incomplete.ok)
        #expect(incomplete.note?.contains("16-token limit") == true)
        let rejected = await ConnectionCheck.run(client(server.baseURL))
        #expect(!rejected.ok)
        #expect(rejected.message?.hasPrefix("The API key was rejected (key ending …6w5v)") == true)
    }
}

/// A client tied to a class: the request leaves with pseudonyms, and the answer comes back with names, a
/// pseudonym split across two reads of the stream never shown in halves.
@Suite struct ModelClientNamesTests {
    @Test func namesGoOutAsPseudonymsAndComeBackAsNames() async throws {
        let server = try await FakeOpenAIServer()
        var roster = ClassRoster(name: "4B")
        roster.add([("Maria Lopez", ["ELL"]), ("Dev Patel", [])])
        let names = ClassNames(roster: roster, map: NameMap(roster: roster))
        let client = ModelClient(
            transport: CurlTransport(),
            settings: ModelSettings(baseURL: server.baseURL, endpoint: nil, apiKey: "sk-test", model: "gpt-5.2"), names: names)
        func event(_ type: String, _ json: String) -> String { "event: \(type)\ndata: {\"type\":\"\(type)\"\(json)}\n\n" }
        let deltas = ["Pair Stu", "dent A with Stud", "ent B", ", and Student B's group ", "reads.", " Student"]
        let body =
            event("response.created", ",\"response\":{\"id\":\"r1\"}")
            + deltas.map { event("response.output_text.delta", ",\"delta\":\"\($0)\"") }.joined()
            + event("response.completed", ",\"response\":{\"id\":\"r1\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}")
        try await server.script([.raw(headers: ["Content-Type": "text/event-stream"], body: body, chunkSize: 48, delayMs: 15)])

        let stream = try await client.open(instructions: "Plan for MARIA.", input: "Pair maria lopez with Dev's group; Devon stays.")
        var shown: [String] = []
        for try await event in stream { if case .textDelta(let text) = event { shown.append(text) } }
        #expect(shown.joined() == "Pair Maria with Dev, and Dev's group reads. Student")
        #expect(shown.dropLast().allSatisfy { !$0.contains("Student") && !$0.hasSuffix("Stu") && !$0.hasSuffix("Stud") }, "\(shown)")
        let sent = try #require(try await server.requests().first)
        #expect(sent.instructions == "Plan for Student A.")
        #expect(sent.inputText == "Pair Student A with Student B's group; Devon stays.")
    }
}
