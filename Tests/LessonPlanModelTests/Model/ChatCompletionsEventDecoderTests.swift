import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import ModelTestSupport
import Testing

@Suite struct ChatCompletionsEventDecoderTests {
    private static let id = "chatcmpl-C9xTq2mZ8pLw1"

    private func events(_ data: [String], finish: Bool = true) -> [StreamEvent] {
        var decoder = ChatCompletionsEventDecoder()
        var events = data.flatMap { decoder.decode(SSEMessage(data: $0)) }
        if finish { events += decoder.finish() }
        return events
    }

    private func chunk(_ choice: String, usage: String = "null") -> String {
        #"{"id":"\#(Self.id)","object":"chat.completion.chunk","created":1,"model":"m","choices":[\#(choice)],"usage":\#(usage)}"#
    }

    @Test func openAIStreamWithUsageChunk() {
        let usage = Usage(inputTokens: 20, outputTokens: 30, reasoningTokens: 0)
        let events = SSEFixtures.events(in: [SSEFixtures.chatCompletionsStream(usage: usage)], decoder: ChatCompletionsEventDecoder())
        #expect(events.first == .created(responseID: Self.id))
        #expect(events.last == .completed(responseID: Self.id, usage: usage))
        #expect(SSEFixtures.text(of: events) == SSEFixtures.sampleText)
        #expect(events.filter { if case .completed = $0 { true } else { false } }.count == 1)
    }

    @Test func llamaServerStream() {
        let usage = Usage(inputTokens: 1085, outputTokens: 247, reasoningTokens: 0)
        let events = SSEFixtures.events(
            in: [SSEFixtures.chatCompletionsStream(usage: usage, style: .llamaServer)], decoder: ChatCompletionsEventDecoder())
        #expect(events.first == .created(responseID: Self.id))
        #expect(events.last == .completed(responseID: Self.id, usage: usage))
        // The reasoning_content delta is thinking, not answer text.
        #expect(SSEFixtures.text(of: events) == SSEFixtures.sampleText)
    }

    @Test func byteAtATimeStreamGivesTheSameEvents() {
        let stream = SSEFixtures.chatCompletionsStream()
        let whole = SSEFixtures.events(in: [stream], decoder: ChatCompletionsEventDecoder())
        #expect(SSEFixtures.events(in: stream.indices.map { stream[$0...$0] }, decoder: ChatCompletionsEventDecoder()) == whole)
    }

    @Test func lengthFinishIsIncompleteWithTheUsageThatFollows() {
        let usage = Usage(inputTokens: 5, outputTokens: 4000)
        let events = SSEFixtures.events(
            in: [SSEFixtures.chatCompletionsStream(usage: usage, finishReason: "length")], decoder: ChatCompletionsEventDecoder())
        #expect(events.last == .incomplete(responseID: Self.id, reason: "max_output_tokens", usage: usage))
        #expect(!events.contains { if case .completed = $0 { true } else { false } })
    }

    @Test func contentFilterFinishIsIncomplete() {
        let got = events([chunk(#"{"index":0,"delta":{},"finish_reason":"content_filter"}"#), "[DONE]"])
        #expect(got.last == .incomplete(responseID: Self.id, reason: "content_filter", usage: nil))
    }

    @Test func refusalDelta() {
        let got = events([
            chunk(#"{"index":0,"delta":{"role":"assistant","content":null,"refusal":""}}"#),
            chunk(#"{"index":0,"delta":{"refusal":"I can’t"},"finish_reason":null}"#),
            chunk(#"{"index":0,"delta":{"refusal":" help."},"finish_reason":"stop"}"#),
            "[DONE]",
        ])
        #expect(
            got == [
                .created(responseID: Self.id), .refusalDelta("I can’t"), .refusalDelta(" help."), .completed(responseID: Self.id, usage: nil),
            ])
    }

    @Test func doneWithoutFinishReasonOrUsageStillCompletes() {
        #expect(
            events([chunk(#"{"index":0,"delta":{"content":"Hi"}}"#), "[DONE]"]) == [
                .created(responseID: Self.id), .textDelta("Hi"), .completed(responseID: Self.id, usage: nil),
            ])
    }

    @Test func usageAndFinishInTheSameChunk() {
        let got = events([
            chunk(
                #"{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}"#, usage: #"{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}"#
            ),
            "[DONE]",
        ])
        #expect(got.last == .completed(responseID: Self.id, usage: Usage(inputTokens: 3, outputTokens: 1)))
    }

    @Test func bodyEndingAfterFinishReasonWithoutDoneCompletes() {
        let got = events([chunk(#"{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}"#)])
        #expect(got.last == .completed(responseID: Self.id, usage: nil))
    }

    @Test func bodyEndingWithoutAnyEndSaysNothingMore() {
        let got = events([chunk(#"{"index":0,"delta":{"content":"Hi"},"finish_reason":null}"#)])
        #expect(got == [.created(responseID: Self.id), .textDelta("Hi")])
    }

    @Test func nothingAfterDone() {
        var decoder = ChatCompletionsEventDecoder()
        #expect(decoder.decode(SSEMessage(data: "[DONE]")) == [.completed(responseID: nil, usage: nil)])
        #expect(decoder.decode(SSEMessage(data: chunk(#"{"index":0,"delta":{"content":"late"}}"#))) == [])
        #expect(decoder.finish() == [])
    }

    @Test func otherChoicesAreNotTheAnswer() {
        let got = events([
            chunk(#"{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}"#), "[DONE]",
        ])
        #expect(SSEFixtures.text(of: got) == "mine")
    }

    @Test(
        arguments: [
            (
                #"{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#, "Rate limit reached",
                "rate_limit_exceeded"
            ),
            (#"{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}"#, "Context size has been exceeded.", "500"),
            (#"{"error":"model not found"}"#, "model not found", nil),
        ] as [(String, String?, String?)])
    func errorObject(data: String, message: String?, code: String?) {
        #expect(events([data], finish: false) == [.error(message: message, code: code)])
    }

    @Test func malformedChunkIsReportedAndTheStreamGoesOn() {
        let got = events([
            chunk(#"{"index":0,"delta":{"content":"a"}}"#), "{not json", "[1]",
            chunk(#"{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}"#), "[DONE]",
        ])
        #expect(got.filter { if case .malformed = $0 { true } else { false } }.count == 2)
        #expect(SSEFixtures.text(of: got) == "ab")
        #expect(got.last == .completed(responseID: Self.id, usage: nil))
    }

    @Test func nullsAndMissingFieldsAreFine() {
        let got = events([
            #"{"choices":[{"delta":{"content":null},"finish_reason":null}]}"#,
            #"{"choices":null,"usage":null}"#,
            #"{"choices":[{"delta":null}]}"#,
            #"{}"#,
            #"{"choices":[{"delta":{"content":"x"}}],"usage":{"prompt_tokens":1,"completion_tokens":2,"completion_tokens_details":null}}"#,
            "[DONE]",
        ])
        #expect(got == [.created(responseID: nil), .textDelta("x"), .completed(responseID: nil, usage: Usage(inputTokens: 1, outputTokens: 2))])
    }

    @Test func decodersAreInterchangeableThroughTheProtocol() {
        let decoders: [any StreamEventDecoder] = [ResponsesEventDecoder(), ChatCompletionsEventDecoder()]
        let streams = [SSEFixtures.responsesStream(), SSEFixtures.chatCompletionsStream()]
        for (decoder, stream) in zip(decoders, streams) {
            #expect(SSEFixtures.text(of: SSEFixtures.events(in: [stream], decoder: decoder)) == SSEFixtures.sampleText)
        }
    }
}
