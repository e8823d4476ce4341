import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import ModelTestSupport
import Testing

/// Events read straight from the bytes must mean what the same message means to ``decode(_:)``,
/// and what the decoder skips or reads only in part must not change what a valid stream says.
@Suite struct ResponsesRawDecodingTests {
    private func raw(_ data: String) -> (RawEventDecoding, text: String) {
        var decoder = ResponsesEventDecoder()
        var text: [UInt8] = Array("before:".utf8)
        let result = Array(data.utf8).withUnsafeBufferPointer { decoder.decode(rawData: $0, appendingTextTo: &text) }
        return (result, String(decoding: text, as: UTF8.self))
    }

    private func message(_ data: String) -> [StreamEvent] {
        var decoder = ResponsesEventDecoder()
        return decoder.decode(SSEMessage(data: data))
    }

    /// Every message of `stream`, read raw and as a message: the raw answer, when there is one, agrees.
    private func checkAgreement(_ stream: Data) -> (text: Int, events: Int, declined: Int) {
        var counts = (text: 0, events: 0, declined: 0)
        for sse in SSEFixtures.messages(in: [stream]) {
            let (result, text) = raw(sse.data)
            switch result {
            case .appendedText:
                counts.text += 1
                #expect(message(sse.data) == [.textDelta(String(text.dropFirst("before:".count)))], "\(sse.data)")
            case .event(let event):
                counts.events += 1
                #expect(text == "before:")
                #expect(message(sse.data) == [event], "\(sse.data)")
            case .declined:
                counts.declined += 1
                #expect(text == "before:")
            }
        }
        return counts
    }

    @Test func realisticStreamsAgree() {
        let counts = checkAgreement(SSEFixtures.responsesStream())
        // ASCII deltas are read raw; the sample's dashes and quotes are declined and go the long way.
        #expect(counts.text > 10)
        #expect(counts.events > 10)
        #expect(counts.declined > 0)
        let llama = checkAgreement(SSEFixtures.llamaServerResponsesStream())
        #expect(llama.text + llama.events > 10)
        for ending in [SSEFixtures.ResponsesEnding.incomplete(reason: "max_output_tokens"), .failed(message: "x", code: "server_error")] {
            _ = checkAgreement(SSEFixtures.responsesStream(ending: ending))
        }
    }

    @Test func escapedAndNonASCIIDeltasAgreeOrAreDeclined() {
        let deltas = ["plain", "tab\there", "quote \" and \\ slash /", "en – dash", "emoji 🌱", "\u{1}\u{1F}", "", "line\nbreak"]
        for delta in deltas {
            for escaping in [JSONEscaping.minimal, JSONEscaping(nonASCII: true, slash: true, shortControls: true)] {
                let data = SSEFixtures.responsesDeltaData(delta, escaping: escaping)
                let (result, text) = raw(data)
                if result == .appendedText {
                    #expect(text == "before:" + delta)
                } else {
                    #expect(result == .declined)
                    #expect(data.utf8.contains { $0 >= 0x80 }, "an ASCII delta was declined: \(data)")
                }
                #expect(message(data) == [.textDelta(delta)])
            }
        }
    }

    @Test func typesNobodyReadsAreSkippedWithoutParsingTheRest() {
        // Damage after a leading type the decoder does not read goes unnoticed: nothing reads it.
        let broken = #"{"type":"response.output_text.done","text":"\ud800","#
        #expect(message(broken) == [.unknown(type: "response.output_text.done")])
        #expect(raw(broken).0 == .event(.unknown(type: "response.output_text.done")))
        // A type it reads is still checked, and reported when broken.
        let truncated = #"{"type":"response.completed","response":{"#
        #expect(raw(truncated).0 == .declined)
        if case .malformed = message(truncated).first {} else { Issue.record("expected .malformed for \(truncated)") }
        // A lone surrogate is declined by the raw path and read as U+FFFD the long way.
        let lone = #"{"type":"response.completed","response":{"id":"\ud800"}}"#
        #expect(raw(lone).0 == .declined)
        #expect(message(lone) == [.completed(responseID: "\u{FFFD}", usage: nil)])
        // Without a leading type (or with whitespace), the event's structure is checked as before;
        // strings nobody reads are not decoded either way.
        #expect(message(#"{"sequence_number":1,"type":"response.output_text.done"}"#) == [.unknown(type: "response.output_text.done")])
        #expect(message(#"{ "type":"response.output_text.done","text":"\ud800"}"#) == [.unknown(type: "response.output_text.done")])
        #expect(message(#"{ "type":"response.output_text.done","text":"x","#).first.map { if case .malformed = $0 { true } else { false } } == true)
    }

    @Test func finalEventsAreReadForTheirIDAndUsageOnly() {
        let text = String(repeating: "A long plan \"quoted\" – with \\ escapes\n", count: 20_000)
        let output = #"[{"type":"message","content":[{"type":"output_text","text":\#(SSEFixtures.jsonString(text))}]}]"#
        let usage = #"{"input_tokens":900,"output_tokens":79,"output_tokens_details":{"reasoning_tokens":64}}"#
        let completed = #"{"type":"response.completed","response":{"id":"resp_1","output":\#(output),"usage":\#(usage)}}"#
        let expected = StreamEvent.completed(responseID: "resp_1", usage: Usage(inputTokens: 900, outputTokens: 79, reasoningTokens: 64))
        #expect(message(completed) == [expected])
        #expect(raw(completed).0 == .event(expected))
        // Odd shapes read as JSONValue subscripts would read them.
        #expect(message(#"{"type":"response.completed","response":"x"}"#) == [.completed(responseID: nil, usage: nil)])
        #expect(message(#"{"type":"response.completed","response":null}"#) == [.completed(responseID: nil, usage: nil)])
        #expect(message(#"{"type":"response.completed","response":{"id":5,"usage":[]}}"#) == [.completed(responseID: nil, usage: nil)])
        #expect(
            message(#"{"type":"response.incomplete","response":{"id":"r","incomplete_details":{"reason":"max_output_tokens"}}}"#)
                == [.incomplete(responseID: "r", reason: "max_output_tokens", usage: nil)])
        #expect(message(#"{"type":"error","error":{"message":"m","code":429}}"#) == [.error(message: "m", code: "429")])
        #expect(message(#"{"type":"response.refusal.delta","delta":"no"}"#) == [.refusalDelta("no")])
    }

    /// The eight-bytes-at-a-time string scan finds the end, or the character that stops it, at
    /// every offset.
    @Test func stringEndsAreFoundAtEveryOffset() {
        for length in 0...20 {
            for position in 0...length {
                for special in ["\\\"", "\\n", "\u{1}", "é", "\u{7F}"] {
                    var id = String(repeating: "m", count: length)
                    id.insert(contentsOf: special, at: id.index(id.startIndex, offsetBy: position))
                    let data = #"{"type":"response.output_text.delta","item_id":"\#(id)","delta":"x\#(id)"}"#
                    let fast = ResponsesEventDecoder.textDeltaFastPath(data)
                    let full = ResponsesEventDecoder.eventWithoutFastPath(fromJSON: data)
                    if special == "é" || special == "\u{7F}" {
                        #expect(fast == "x" + id, "\(data)")
                    } else {
                        // Escapes and control characters in a plain value leave it to the full decoder.
                        #expect(fast == nil, "\(data)")
                    }
                    if let fast { #expect(full == .textDelta(fast)) }
                }
            }
        }
    }
}
