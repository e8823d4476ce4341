import Foundation
import LessonPlanKit
import Testing
import TestSupport

/// Events read straight from the bytes must mean what the same message means to ``decode(_:)``.
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
        #expect(counts.declined > 0)
        let llama = checkAgreement(SSEFixtures.llamaServerResponsesStream())
        #expect(llama.text > 10)
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
