import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import ModelTestSupport
import Testing

@Suite struct ResponsesEventDecoderTests {
    private func decode(_ data: String, event: String? = nil) -> [StreamEvent] {
        var decoder = ResponsesEventDecoder()
        return decoder.decode(SSEMessage(event: event, data: data))
    }

    private func one(_ data: String) -> StreamEvent? {
        let events = decode(data)
        #expect(events.count == 1)
        return events.first
    }

    // MARK: - Whole streams

    @Test func realisticStreamGivesTextAndUsageOnly() {
        let events = SSEFixtures.events(in: [SSEFixtures.responsesStream()], decoder: ResponsesEventDecoder())
        #expect(events.first == .created(responseID: "resp_68b1f0c2a7d48193a1"))
        #expect(events.last == .completed(responseID: "resp_68b1f0c2a7d48193a1", usage: SSEFixtures.defaultUsage))
        #expect(SSEFixtures.text(of: events) == SSEFixtures.sampleText)
        // Reasoning summary deltas and bookkeeping events are not answer text.
        #expect(events.contains(.unknown(type: "response.reasoning_summary_text.delta")))
        #expect(events.contains(.unknown(type: "response.output_text.done")))
        #expect(events.contains(.unknown(type: "response.output_item.added")))
        #expect(events.contains(.unknown(type: "response.in_progress")))
        #expect(!events.contains { if case .malformed = $0 { true } else { false } })
    }

    @Test func byteAtATimeStreamGivesTheSameEvents() {
        let stream = SSEFixtures.responsesStream()
        let whole = SSEFixtures.events(in: [stream], decoder: ResponsesEventDecoder())
        let bytes = stream.indices.map { stream[$0...$0] }
        #expect(SSEFixtures.events(in: bytes, decoder: ResponsesEventDecoder()) == whole)
    }

    @Test func incompleteAndFailedStreams() {
        let incomplete = SSEFixtures.events(
            in: [SSEFixtures.responsesStream(ending: .incomplete(reason: "max_output_tokens"))], decoder: ResponsesEventDecoder())
        #expect(
            incomplete.last
                == .incomplete(
                    responseID: "resp_68b1f0c2a7d48193a1", reason: "max_output_tokens", usage: SSEFixtures.defaultUsage, maxOutputTokens: 4000))

        let failed = SSEFixtures.events(
            in: [SSEFixtures.responsesStream(ending: .failed(message: "The server had an error.", code: "server_error"))],
            decoder: ResponsesEventDecoder())
        #expect(failed.last == .failed(responseID: "resp_68b1f0c2a7d48193a1", message: "The server had an error.", code: "server_error"))
    }

    @Test func llamaServerStream() {
        let usage = Usage(inputTokens: 41, outputTokens: 300)
        let events = SSEFixtures.events(in: [SSEFixtures.llamaServerResponsesStream(usage: usage)], decoder: ResponsesEventDecoder())
        #expect(events.first == .created(responseID: "resp_Xq3v0l8cZp1LwQ2m"))
        #expect(events.last == .completed(responseID: "resp_Xq3v0l8cZp1LwQ2m", usage: usage))
        #expect(SSEFixtures.text(of: events) == SSEFixtures.sampleText)
        #expect(events.contains(.unknown(type: "response.reasoning_text.delta")))
        #expect(!events.contains { if case .malformed = $0 { true } else { false } })
    }

    // MARK: - One event each

    @Test func created() {
        #expect(
            one(#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}"#)
                == .created(responseID: "resp_1"))
        #expect(one(#"{"type":"response.created"}"#) == .created(responseID: nil))
        #expect(one(#"{"type":"response.created","response":{"id":null}}"#) == .created(responseID: nil))
    }

    @Test(arguments: [
        #"{"type":"response.output_text.delta","sequence_number":5,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hi – \"you\" 😀","logprobs":[],"obfuscation":"ab"}"#,
        #"{"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi – \"you\" 😀"}"#,
        #"{"delta":"Hi – \"you\" 😀","item_id":"msg_1","type":"response.output_text.delta"}"#,
        #"{"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi – \"you\" 😀","timings":{"predicted_n":3,"predicted_ms":1.5}}"#,
        #"{ "type": "response.output_text.delta", "delta": "Hi \u2013 \"you\" \ud83d\ude00" }"#,
        #"{"type":"response.output_text.delta","output_index":null,"content_index":null,"delta":"Hi \u2013 \"you\" \uD83D\uDE00"}"#,
    ])
    func textDelta(data: String) {
        #expect(one(data) == .textDelta("Hi – \"you\" 😀"))
    }

    @Test func dispatchesOnTheJSONTypeNotTheEventLine() {
        #expect(decode(#"{"type":"response.output_text.delta","delta":"x"}"#, event: "response.completed") == [.textDelta("x")])
        #expect(
            decode(#"{"type":"response.completed","response":{"id":"r"}}"#, event: "response.output_text.delta") == [
                .completed(responseID: "r", usage: nil)
            ])
    }

    @Test func refusalDelta() {
        #expect(
            one(#"{"type":"response.refusal.delta","sequence_number":9,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"I can’t help"}"#)
                == .refusalDelta("I can’t help"))
    }

    @Test func completedWithUsage() {
        let data =
            #"{"type":"response.completed","sequence_number":30,"response":{"id":"resp_2","status":"completed","usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":0},"output_tokens":25,"output_tokens_details":{"reasoning_tokens":12},"total_tokens":35}}}"#
        #expect(one(data) == .completed(responseID: "resp_2", usage: Usage(inputTokens: 10, outputTokens: 25, reasoningTokens: 12)))
    }

    @Test(arguments: [
        #"{"type":"response.completed","response":{"id":"resp_3"}}"#,
        #"{"type":"response.completed","response":{"id":"resp_3","usage":null}}"#,
        #"{"type":"response.completed","response":{"id":"resp_3","usage":{"input_tokens":null,"output_tokens":4}}}"#,
    ])
    func completedWithoutUsage(data: String) {
        #expect(one(data) == .completed(responseID: "resp_3", usage: nil))
    }

    @Test func completedAsOllamaOrVLLMMightSendIt() {
        #expect(one(#"{"type":"response.completed"}"#) == .completed(responseID: nil, usage: nil))
        #expect(
            one(#"{"type":"response.completed","response":{"id":"r","usage":{"input_tokens":3,"output_tokens":4.0,"output_tokens_details":null}}}"#)
                == .completed(responseID: "r", usage: Usage(inputTokens: 3, outputTokens: 4)))
    }

    @Test func incomplete() {
        let data =
            #"{"type":"response.incomplete","response":{"id":"resp_4","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":1,"output_tokens":2,"output_tokens_details":{"reasoning_tokens":2}}}}"#
        #expect(
            one(data)
                == .incomplete(responseID: "resp_4", reason: "max_output_tokens", usage: Usage(inputTokens: 1, outputTokens: 2, reasoningTokens: 2)))
        #expect(
            one(#"{"type":"response.incomplete","response":{"incomplete_details":null}}"#) == .incomplete(responseID: nil, reason: nil, usage: nil))
    }

    @Test func failed() {
        let data =
            #"{"type":"response.failed","response":{"id":"resp_5","status":"failed","error":{"code":"rate_limit_exceeded","message":"Slow down."}}}"#
        #expect(one(data) == .failed(responseID: "resp_5", message: "Slow down.", code: "rate_limit_exceeded"))
        #expect(one(#"{"type":"response.failed","response":{"id":"resp_5","error":null}}"#) == .failed(responseID: "resp_5", message: nil, code: nil))
    }

    @Test(arguments: [
        #"{"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null,"sequence_number":1}"#,
        #"{"type":"error","error":{"type":"invalid_request_error","code":"ERR_SOMETHING","message":"Something went wrong","param":null}}"#,
        #"{"type":"error","code":null,"message":null,"error":{"code":"ERR_SOMETHING","message":"Something went wrong"}}"#,
    ])
    func error(data: String) {
        #expect(one(data) == .error(message: "Something went wrong", code: "ERR_SOMETHING"))
    }

    @Test func errorAsOtherServersSendIt() {
        #expect(
            one(#"{"type":"error","error":{"code":500,"message":"context full","type":"server_error"}}"#)
                == .error(message: "context full", code: "500"))
        #expect(one(#"{"type":"error","error":"boom"}"#) == .error(message: "boom", code: nil))
        #expect(one(#"{"type":"error"}"#) == .error(message: nil, code: nil))
    }

    @Test(arguments: [
        "response.in_progress", "response.output_item.added", "response.output_item.done", "response.content_part.added",
        "response.output_text.done", "response.reasoning_summary_text.delta", "response.reasoning_summary_part.added",
        "response.reasoning_text.delta", "response.output_text.annotation.added", "response.queued", "made.up",
    ])
    func otherTypesAreUnknown(type: String) {
        #expect(one(#"{"type":"\#(type)","sequence_number":3,"item_id":"rs_1","delta":"thinking…","output_index":0}"#) == .unknown(type: type))
    }

    // MARK: - Bad input

    /// A lone surrogate would make the JSON invalid to a strict parser; read as U+FFFD, the
    /// delta's text is kept instead of dropped.
    @Test func aLoneSurrogateKeepsTheDelta() {
        #expect(one("{\"type\":\"response.output_text.delta\",\"delta\":\"x\\ud800y\"}") == .textDelta("x\u{FFFD}y"))
        #expect(one("{ \"type\":\"response.output_text.delta\",\"delta\":\"\\udc00\"}") == .textDelta("\u{FFFD}"))
    }

    @Test(arguments: ["not json", "{\"type\":\"response.output_text.delta\",\"delta\":\"x\"", "{'type':'error'}"])
    func nonJSONIsMalformed(data: String) {
        let event = one(data)
        guard case .malformed(let description) = event else {
            Issue.record("expected .malformed, got \(String(describing: event))")
            return
        }
        #expect(description.hasPrefix("not JSON"))
        #expect(description.count < 120)
    }

    @Test(arguments: [#"{"delta":"x"}"#, #"{"type":42}"#, #"{"type":null}"#, "[1,2]", "\"response.completed\"", "17"])
    func jsonWithoutAStringTypeIsMalformed(data: String) {
        let event = one(data)
        guard case .malformed(let description) = event else {
            Issue.record("expected .malformed, got \(String(describing: event))")
            return
        }
        #expect(description.contains("type"))
    }

    @Test func deltaWithoutTextIsMalformed() {
        for data in [
            #"{"type":"response.output_text.delta"}"#, #"{"type":"response.output_text.delta","delta":null}"#,
            #"{"type":"response.refusal.delta","delta":7}"#,
        ] {
            let event = one(data)
            guard case .malformed = event else {
                Issue.record("expected .malformed for \(data), got \(String(describing: event))")
                continue
            }
        }
    }

    @Test func malformedDescriptionIsShort() {
        let event = one("<html>" + String(repeating: "x", count: 5_000) + "</html>")
        guard case .malformed(let description) = event else {
            Issue.record("expected .malformed")
            return
        }
        #expect(description.count <= 100)
    }

    @Test func keepAlivesAndDoneSayNothingHarmful() {
        #expect(decode("") == [])
        #expect(decode("  ") == [])
        #expect(decode("[DONE]") == [.unknown(type: "[DONE]")])
    }

    @Test func oneBadEventDoesNotStopTheStream() {
        var text = String(decoding: SSEFixtures.responsesStream(), as: UTF8.self)
        let cut = text.range(of: "event: response.output_text.delta\n")
        if let cut {
            text.insert(contentsOf: "data: {oops\n\n", at: cut.lowerBound)
        }
        let events = SSEFixtures.events(in: [Data(text.utf8)], decoder: ResponsesEventDecoder())
        #expect(events.filter { if case .malformed = $0 { true } else { false } }.count == 1)
        #expect(SSEFixtures.text(of: events) == SSEFixtures.sampleText)
        #expect(events.last == .completed(responseID: "resp_68b1f0c2a7d48193a1", usage: SSEFixtures.defaultUsage))
    }

    @Test func decoderIsUsableThroughTheProtocol() {
        var decoder: any StreamEventDecoder = ResponsesEventDecoder()
        #expect(decoder.decode(SSEMessage(data: #"{"type":"response.output_text.delta","delta":"a"}"#)) == [.textDelta("a")])
        #expect(decoder.finish() == [])
    }
}
