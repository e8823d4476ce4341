import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import Testing

/// The fast path for text deltas must never disagree with the full decoder: it either returns what
/// the full decoder would, or steps aside.
@Suite struct ResponsesFastPathTests {
    /// Pieces a delta is built from: JSON-special characters, control characters, non-ASCII of
    /// every UTF-8 length, emoji sequences and plain words.
    private static let atoms: [String] = [
        "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", " ", "a", "Photo",
        "synthesis", "–", "—", "’", "“", "”", "é", "e\u{301}", "ß", "€", "√", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "水",
        "😀", "🌱", "👩‍🏫", "🇩🇪", "𝄞", "\\u0041", "\\\"", "{\"type\":\"x\"}", "delta", "\"delta\":\"", ",", ":", "}", "{", "[]",
    ]

    private static func randomDelta(using random: inout SeededGenerator) -> String {
        let length = Int.random(in: 0...12, using: &random)
        return (0..<length).map { _ in atoms.randomElement(using: &random) ?? "" }.joined()
    }

    private static let escapings: [JSONEscaping] = [
        .minimal, JSONEscaping(nonASCII: true), JSONEscaping(nonASCII: true, uppercaseHex: true),
        JSONEscaping(slash: true, shortControls: true), JSONEscaping(nonASCII: true, slash: true, uppercaseHex: true, shortControls: true),
    ]

    /// Plainly written shapes real servers send; the fast path must take all of them.
    private static func plainShapes(_ delta: String, _ n: Int) -> [String] {
        [
            #"{"type":"response.output_text.delta","sequence_number":\#(n),"item_id":"msg_68b1","output_index":1,"content_index":0,"delta":\#(delta),"logprobs":[],"obfuscation":"Xk2"}"#,
            #"{"type":"response.output_text.delta","item_id":"msg_68b1","output_index":0,"content_index":0,"delta":\#(delta)}"#,
            #"{"type":"response.output_text.delta","item_id":"msg_Lm5n","delta":\#(delta)}"#,
            #"{"delta":\#(delta),"item_id":"msg_Lm5n","type":"response.output_text.delta"}"#,
            #"{"content_index":null,"delta":\#(delta),"output_index":-1,"type":"response.output_text.delta","logprobs":[],"done":false,"final":true}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta)}"#,
        ]
    }

    /// Shapes the fast path must leave to the full decoder.
    private static func unusualShapes(_ delta: String, _ n: Int) -> [String] {
        [
            #"{ "type":"response.output_text.delta","delta":\#(delta)}"#,
            #"{"type": "response.output_text.delta","delta":\#(delta)}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta)} "#,
            "{\"type\":\"response.output_text.delta\",\n\"delta\":\(delta)}",
            #"{"type":"response.output_text.delta","delta":\#(delta),"timings":{"predicted_n":\#(n)}}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"logprobs":[{"token":"x"}]}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"temperature":1.0}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"n":1e3}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"n":0123}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"delta":"other"}"#,
            #"{"type":"response.output_text.delta","type":"response.output_text.delta","delta":\#(delta)}"#,
            #"{"type":"response.output_text.delta","item_id":"a","item_id":"b","delta":\#(delta)}"#,
            #"{"type":"response.output_text\u002edelta","delta":\#(delta)}"#,
            #"{"\u0074ype":"response.output_text.delta","delta":\#(delta)}"#,
            #"{"type":"response.output_text.delta","item_id":"m\"sg","delta":\#(delta)}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta)}}"#,
            #"{"type":"response.output_text.delta","delta":\#(delta),"x":tru}"#,
            #"[{"type":"response.output_text.delta","delta":\#(delta)}]"#,
        ]
    }

    private static func full(_ data: String) -> StreamEvent {
        ResponsesEventDecoder.eventWithoutFastPath(fromJSON: data)
    }

    /// What a delta reads as: NUL becomes U+FFFD on both paths, so no C string is cut short.
    private static func shown(_ delta: String) -> String {
        delta.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
    }

    @Test func plainShapesTakeTheFastPathAndAgree() {
        var random = SeededGenerator(seed: 2024)
        var checked = 0
        for n in 0..<600 {
            let delta = Self.randomDelta(using: &random)
            let escaping = Self.escapings[n % Self.escapings.count]
            for data in Self.plainShapes(SSEFixtures.jsonString(delta, escaping: escaping), n) {
                let fast = ResponsesEventDecoder.textDeltaFastPath(data)
                #expect(fast == Self.shown(delta), "fast path missed or misread \(data)")
                #expect(Self.full(data) == .textDelta(Self.shown(delta)), "full decoder misread \(data)")
                #expect(ResponsesEventDecoder.event(fromJSON: data) == .textDelta(Self.shown(delta)))
                checked += 1
            }
        }
        #expect(checked == 3_600)
    }

    @Test func unusualShapesFallBackAndStillDecode() {
        var random = SeededGenerator(seed: 7)
        for n in 0..<100 {
            let delta = Self.randomDelta(using: &random)
            for data in Self.unusualShapes(SSEFixtures.jsonString(delta), n) {
                #expect(ResponsesEventDecoder.textDeltaFastPath(data) == nil, "fast path took \(data)")
                // Whatever the full decoder makes of it is what the decoder returns.
                #expect(ResponsesEventDecoder.event(fromJSON: data) == Self.full(data))
            }
        }
    }

    @Test func awkwardEscapesFallBackOrAgree() {
        let cases = [
            #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#, #""\u12""#, #""\u12G4""#, #""\x41""#, #""\'""#,
            #""\U0041""#, "\"tab\there\"", "\"nl\nhere\"", #""\u0000\u001f\u007f""#, #""\uDBFF\uDFFF""#, #""\uD800\uDC00""#,
            #""ends with backslash\""#, #""\""#, "\"\u{7F}\"",
        ]
        for delta in cases {
            for data in [
                #"{"type":"response.output_text.delta","delta":\#(delta)}"#,
                #"{"delta":\#(delta),"type":"response.output_text.delta"}"#,
            ] {
                if let fast = ResponsesEventDecoder.textDeltaFastPath(data) {
                    #expect(Self.full(data) == .textDelta(fast), "disagree on \(data)")
                } else {
                    #expect(ResponsesEventDecoder.event(fromJSON: data) == Self.full(data))
                }
            }
        }
    }

    /// Lone surrogates and NUL keep the text around them, as U+FFFD, on both paths alike: the
    /// fast path takes them (ASCII bytes, so also the raw-bytes path) and says what the full
    /// decoder says.
    @Test func loneSurrogatesAndNULBecomeReplacementCharactersOnBothPaths() {
        let cases: [(String, String)] = [
            (#""a\ud800b""#, "a\u{FFFD}b"), (#""a\udc00b""#, "a\u{FFFD}b"), (#""a\u0000b""#, "a\u{FFFD}b"),
            (#""\ud83d\u0041""#, "\u{FFFD}A"), (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"), (#""\ud83dx""#, "\u{FFFD}x"),
            (#""end\ud83d""#, "end\u{FFFD}"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"), (#""\\ud800""#, "\\ud800"),
            (#""\ude00\ud83d""#, "\u{FFFD}\u{FFFD}"), (#""x\u0000\ud800\u0000""#, "x\u{FFFD}\u{FFFD}\u{FFFD}"),
        ]
        for (delta, expected) in cases {
            for data in [
                #"{"type":"response.output_text.delta","delta":\#(delta)}"#,
                #"{"delta":\#(delta),"type":"response.output_text.delta","item_id":"m"}"#,
            ] {
                #expect(ResponsesEventDecoder.textDeltaFastPath(data) == expected, "fast path on \(data)")
                #expect(Self.full(data) == .textDelta(expected), "full decoder on \(data)")
                var decoder = ResponsesEventDecoder()
                var text: [UInt8] = []
                let raw = Array(data.utf8).withUnsafeBufferPointer { decoder.decode(rawData: $0, appendingTextTo: &text) }
                #expect(raw == .appendedText && String(decoding: text, as: UTF8.self) == expected, "raw path on \(data)")
            }
            // A shape the fast path leaves alone still keeps the text.
            let spaced = #"{ "type": "response.output_text.delta", "delta": \#(delta) }"#
            #expect(ResponsesEventDecoder.textDeltaFastPath(spaced) == nil)
            #expect(ResponsesEventDecoder.event(fromJSON: spaced) == .textDelta(expected))
        }
    }

    /// Random deltas with lone surrogates and NUL spliced into their escapes: wherever the fast
    /// path answers, the full decoder answers the same.
    @Test func splicedSurrogatesNeverMakeThePathsDisagree() {
        var random = SeededGenerator(seed: 4242)
        let splices = [#"\ud800"#, #"\udbff"#, #"\udc00"#, #"\u0000"#, #"\ud83d\ude00"#, #"\ud83d"#, #"\\"#, "x"]
        var agreed = 0
        for n in 0..<1_000 {
            let delta = Self.randomDelta(using: &random)
            var escaped = SSEFixtures.jsonString(delta, escaping: Self.escapings[n % Self.escapings.count])
            let body = String(escaped.dropFirst().dropLast())
            var pieces = [body]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                pieces.insert(splices.randomElement(using: &random) ?? "", at: Int.random(in: 0...pieces.count, using: &random))
            }
            escaped = "\"" + pieces.joined() + "\""
            for data in Self.plainShapes(escaped, n) {
                guard let fast = ResponsesEventDecoder.textDeltaFastPath(data) else { continue }
                #expect(Self.full(data) == .textDelta(fast), "disagree on \(data)")
                agreed += 1
            }
        }
        #expect(agreed > 3_000)
    }

    @Test func otherTypesNeverTakeTheFastPath() {
        for type in [
            "response.refusal.delta", "response.reasoning_summary_text.delta", "response.output_text.done", "response.output_text.deltas",
            "response.output_text.delt", "error",
        ] {
            let data = #"{"type":"\#(type)","delta":"x"}"#
            #expect(ResponsesEventDecoder.textDeltaFastPath(data) == nil)
        }
        #expect(ResponsesEventDecoder.textDeltaFastPath(#"{"delta":"x"}"#) == nil)
        #expect(ResponsesEventDecoder.textDeltaFastPath(#"{"type":"response.output_text.delta"}"#) == nil)
        #expect(ResponsesEventDecoder.textDeltaFastPath("{}") == nil)
        #expect(ResponsesEventDecoder.textDeltaFastPath("") == nil)
    }

    /// Random damage to valid events: whatever the fast path still accepts, the full decoder must
    /// read the same way.
    @Test func mutatedEventsNeverMakeThePathsDisagree() {
        var random = SeededGenerator(seed: 99)
        let noise: [UInt8] = Array(#"{}[]":,\ u0123456789abcdefABCDEF-.etrunl"#.utf8) + [0x0A, 0x09, 0x00, 0xC3, 0xA9, 0xFF]
        var fastHits = 0
        for n in 0..<4_000 {
            let delta = Self.randomDelta(using: &random)
            let shapes = Self.plainShapes(SSEFixtures.jsonString(delta, escaping: Self.escapings[n % Self.escapings.count]), n)
            var bytes = Array((shapes.randomElement(using: &random) ?? "").utf8)
            random.damage(&bytes, noise: noise)
            let data = String(decoding: bytes, as: UTF8.self)
            if let fast = ResponsesEventDecoder.textDeltaFastPath(data) {
                fastHits += 1
                #expect(Self.full(data) == .textDelta(fast), "disagree on \(data)")
            }
        }
        // Some damage leaves a valid delta event (e.g. inside the text), so both branches run.
        #expect(fastHits > 100)
    }
}
