import Foundation
import TestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// A whole (non-streamed) JSON answer reads as the events its stream would have carried, so the
/// turn treats it exactly like a streamed one.
@Suite struct WholeAnswerTests {
    /// A Responses API object as OpenAI returns it without `stream`: a reasoning item first, then
    /// the message; `status` and `incomplete_details` say how it ended.
    static func responseObject(status: String = "completed", reason: String? = nil, part: String) -> Data {
        let incomplete = reason.map { #"{"reason":"\#($0)"}"# } ?? "null"
        return Data(
            #"{"id":"resp_abc123","object":"response","created_at":1756491970,"status":"\#(status)","error":null,"incomplete_details":\#(incomplete),"model":"gpt-5.2","output":[{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"thinking, not answer"}]},{"id":"msg_1","type":"message","status":"\#(status)","role":"assistant","content":[\#(part)]}],"usage":{"input_tokens":120,"output_tokens":900,"output_tokens_details":{"reasoning_tokens":64},"total_tokens":1020}}"#
                .utf8)
    }

    static let textPart = ###"{"type":"output_text","annotations":[],"logprobs":[],"text":"## Learning Objective\nStudents – “curly” 🌱"}"###

    @Test func aResponseObjectIsItsTextAndUsage() throws {
        let events = try #require(WholeAnswer.events(from: Self.responseObject(part: Self.textPart)))
        #expect(
            events == [
                .created(responseID: "resp_abc123"),
                .textDelta("## Learning Objective\nStudents – “curly” 🌱"),
                .completed(
                    responseID: "resp_abc123",
                    usage: Usage(inputTokens: 120, outputTokens: 900, reasoningTokens: 64)),
            ])
        var machine = TurnStateMachine(maxOutputTokens: 8192)
        machine.send()
        for event in events { _ = machine.receive(event) }
        #expect(machine.state == .finished(.completed))
        #expect(machine.text == "## Learning Objective\nStudents – “curly” 🌱")
    }

    @Test func anIncompleteResponseObjectIsADraft() throws {
        let body = Self.responseObject(status: "incomplete", reason: "max_output_tokens", part: Self.textPart)
        let events = try #require(WholeAnswer.events(from: body))
        #expect(
            events.last
                == .incomplete(
                    responseID: "resp_abc123", reason: "max_output_tokens",
                    usage: Usage(inputTokens: 120, outputTokens: 900, reasoningTokens: 64)))
        var machine = TurnStateMachine(maxOutputTokens: 8192)
        machine.send()
        for event in events { _ = machine.receive(event) }
        #expect(machine.state == .finished(.incomplete))
        #expect(machine.failure == .incomplete(reason: "max_output_tokens", maxOutputTokens: 8192))
        #expect(machine.failure?.throughProxy.errorDescription?.contains("900 when none is sent") == true)
    }

    @Test func aRefusalPartIsTheModelsRefusal() throws {
        let body = Self.responseObject(part: #"{"type":"refusal","refusal":"I can’t help with that."}"#)
        let events = try #require(WholeAnswer.events(from: body))
        #expect(events.contains(.refusalDelta("I can’t help with that.")))
        var machine = TurnStateMachine(maxOutputTokens: 8192)
        machine.send()
        for event in events { _ = machine.receive(event) }
        #expect(machine.failure == .refusal("I can’t help with that."))
    }

    @Test func aFailedResponseObjectSaysWhy() throws {
        let body = Data(
            #"{"id":"resp_x","object":"response","status":"failed","error":{"code":"server_error","message":"The model failed."},"output":[]}"#
                .utf8)
        let events = try #require(WholeAnswer.events(from: body))
        #expect(events.last == .failed(responseID: "resp_x", message: "The model failed.", code: "server_error"))
    }

    @Test func aChatCompletionIsItsMessageAndUsage() throws {
        func completion(_ finish: String) -> Data {
            Data(
                #"{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"A plan – whole","refusal":null},"logprobs":null,"finish_reason":"\#(finish)"}],"usage":{"prompt_tokens":50,"completion_tokens":7,"total_tokens":57}}"#
                    .utf8)
        }
        let events = try #require(WholeAnswer.events(from: completion("stop")))
        #expect(
            events == [
                .created(responseID: "chatcmpl-1"), .textDelta("A plan – whole"),
                .completed(responseID: "chatcmpl-1", usage: Usage(inputTokens: 50, outputTokens: 7)),
            ])
        let cut = try #require(WholeAnswer.events(from: completion("length")))
        #expect(
            cut.last
                == .incomplete(
                    responseID: "chatcmpl-1", reason: "max_output_tokens", usage: Usage(inputTokens: 50, outputTokens: 7)))
    }

    @Test func jsonThatIsNeitherIsNoAnswer() {
        #expect(WholeAnswer.events(from: Data(#"{"ok":true}"#.utf8)) == nil)
        #expect(WholeAnswer.events(from: Data(#"{"error":"Missing input"}"#.utf8)) == nil)
        #expect(WholeAnswer.events(from: Data("[1,2]".utf8)) == nil)
        #expect(WholeAnswer.events(from: Data("not json".utf8)) == nil)
    }

    @Test func theContentTypeDecides() {
        #expect(WholeAnswer.isJSON(contentType: "application/json"))
        #expect(WholeAnswer.isJSON(contentType: "Application/JSON; charset=utf-8"))
        #expect(WholeAnswer.isJSON(contentType: "application/problem+json"))
        #expect(!WholeAnswer.isJSON(contentType: "text/event-stream; charset=utf-8"))
        #expect(!WholeAnswer.isJSON(contentType: "text/plain"))
        #expect(!WholeAnswer.isJSON(contentType: nil))
    }

    // MARK: - Through the client, against the loopback server

    func client(_ server: FakeOpenAIServer) -> ModelClient {
        ModelClient(
            transport: CurlTransport(),
            settings: ModelSettings(
                baseURL: server.baseURL, endpoint: server.rootURL.appending(path: "lessonplan"), apiKey: nil,
                model: "gpt-5.2"))
    }

    @Test func theClientReadsAWholeAnswerAsNotStreamed() async throws {
        let server = try await FakeOpenAIServer()
        let body = String(decoding: Self.responseObject(part: Self.textPart), as: UTF8.self)
        try await server.script([
            FakeOpenAIServer.Step.raw(body: body, chunkSize: 7).with(["content_type": "application/json"])
        ])
        let answer = try await client(server).open(instructions: "i", input: "x")
        #expect(!answer.isStreamed)
        var events: [StreamEvent] = []
        for try await event in answer { events.append(event) }
        #expect(events == WholeAnswer.events(from: Self.responseObject(part: Self.textPart)))
    }

    @Test func jsonThatIsNoAnswerGetsTheNotAStreamSentence() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([
            FakeOpenAIServer.Step.raw(body: #"{"ok": true}"#).with(["content_type": "application/json"])
        ])
        do {
            _ = try await client(server).open(instructions: "i", input: "x")
            Issue.record("a JSON body that is no answer was taken as one")
        } catch let failure as RequestFailure {
            #expect(failure.error == .notAStream(status: 200, firstLine: #"{"ok": true}"#, host: "127.0.0.1"))
            #expect(failure.error.errorDescription?.contains("instead of a model stream") == true)
        }
    }

    @Test func theDemoWorkersRefusalsAreSentences() throws {
        let client = ModelClient(
            transport: CurlTransport(),
            settings: ModelSettings(
                baseURL: try #require(URL(string: "http://127.0.0.1:1/v1")),
                endpoint: URL(string: "http://127.0.0.1:1/lessonplan"), apiKey: nil, model: "gpt-5.2"))
        let url = "http://127.0.0.1:1/lessonplan"
        #expect(
            client.describeFailure(status: 400, contentType: "application/json", body: Data(#"{"error": "Missing input"}"#.utf8))
                == .proxyRefused(.missingInput, url: url))
        #expect(
            client.describeFailure(status: 400, contentType: nil, body: Data("Bad JSON".utf8))
                == .proxyRefused(.badJSON, url: url))
        #expect(
            client.describeFailure(status: 405, contentType: "text/plain;charset=UTF-8", body: Data("Method not allowed".utf8))
                == .proxyRefused(.methodNotAllowed, url: url))
        let notFound = client.describeFailure(status: 404, contentType: "text/plain", body: Data("Not found".utf8))
        #expect(notFound == .proxyRefused(.notFound, url: url))
        #expect(notFound.errorDescription?.contains("/lessonplan") == true)
        // OpenAI's own errors, passed through by the proxy, are still OpenAI's.
        let upstream = Data(#"{"error":{"message":"Invalid request.","type":"invalid_request_error","code":null}}"#.utf8)
        if case .http(400, "Invalid request.", _, _, _) = client.describeFailure(
            status: 400, contentType: "application/json", body: upstream)
        {
        } else {
            Issue.record("an upstream 400 should keep OpenAI's message")
        }
    }
}
