import CoreTestSupport
import Foundation
import Testing

@testable import LessonPlanCore

/// The one JSON string scanner both fast paths use: its word-at-a-time end finding must agree with
/// a byte-at-a-time reading wherever a word boundary falls, and its decoding with `JSONDecoder`.
@Suite struct JSONStringScannerTests {
    // MARK: - Helpers

    /// What the scanner makes of `bytes` read from `start`.
    private static func withBytes<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> T) -> T {
        // A buffer of its own, so that even no bytes have an address; nothing past `count` is read.
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        defer { base.deallocate() }
        base.initialize(repeating: 0, count: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { base[index] = byte }
        return body(base, bytes.count)
    }

    private static func runEnd(_ bytes: [UInt8], from start: Int) -> Int {
        withBytes(bytes) { JSONStringScanner.runEnd($0, count: $1, from: start) }
    }

    /// The string's contents decoded from just after the quote at `bytes[quoteAt]`, and the index after it.
    private static func decode(
        _ json: String, escapes: JSONStringScanner.Escapes, prefix: Int = 0
    ) -> (text: [UInt8], end: Int)? {
        let bytes = Array(repeating: UInt8(ascii: "x"), count: prefix) + Array(json.utf8)
        return withBytes(bytes) { base, count in
            var out: [UInt8] = []
            guard let end = JSONStringScanner.decode(base, count: count, from: prefix + 1, escapes: escapes, into: &out)
            else { return nil }
            return (out, end - prefix)
        }
    }

    private static func strict(_ json: String, prefix: Int = 0) -> String? {
        decode(json, escapes: .strict, prefix: prefix).map { String(decoding: $0.text, as: UTF8.self) }
    }

    private static func replacing(_ json: String, prefix: Int = 0) -> String? {
        decode(json, escapes: .replacing, prefix: prefix).map { String(decoding: $0.text, as: UTF8.self) }
    }

    /// What `JSONDecoder` reads from a JSON string literal, or nil when it refuses it.
    private static func reference(_ json: String) -> String? {
        try? JSONDecoder().decode(String.self, from: Data(json.utf8))
    }

    /// The bytes a word may hold around the one being looked for: neighbours of `"`, `\` and
    /// 0x20, DEL, and bytes ≥ 0x80 whose high bit must not be read as a flag.
    private static let fillers: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, UInt8(ascii: "a")]
    private static let specials: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x0A, 0x1F]

    // MARK: - Ends

    /// Every special byte at every place of buffers up to three words long, read from every
    /// start: the word test finds the same byte as a byte-at-a-time loop.
    @Test func runEndFindsTheFirstSpecialByteWhereverTheWordBoundaryFalls() {
        for count in 0...24 {
            for filler in Self.fillers {
                var plain = [UInt8](repeating: filler, count: count)
                for start in 0...count {
                    #expect(Self.runEnd(plain, from: start) == count, "filler \(filler), count \(count), start \(start)")
                }
                for special in Self.specials {
                    for place in 0..<count {
                        plain[place] = special
                        for start in 0...count {
                            let expected = start <= place ? place : count
                            #expect(
                                Self.runEnd(plain, from: start) == expected,
                                "byte \(special) at \(place) of \(count), filler \(filler), start \(start)")
                        }
                        plain[place] = filler
                    }
                }
            }
        }
    }

    /// Two special bytes in one word: the first counts.
    @Test func runEndTakesTheFirstOfTwoInOneWord() {
        for first in 0..<8 {
            for second in (first + 1)..<16 {
                var bytes = [UInt8](repeating: 0xE2, count: 16)
                bytes[first] = 0x5C
                bytes[second] = 0x22
                #expect(Self.runEnd(bytes, from: 0) == first)
            }
        }
    }

    /// A string whose closing quote is the last byte of a word, the first of the next, or the
    /// last byte of the buffer.
    @Test func plainStringsEndingAtAWordBoundary() {
        for length in [0, 1, 6, 7, 8, 9, 14, 15, 16, 17, 23, 24] {
            let content = [UInt8](repeating: UInt8(ascii: "z"), count: length)
            let bytes = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            let end = Self.withBytes(bytes) { JSONStringScanner.plainStringEnd($0, count: $1, from: 1) }
            #expect(end == length + 1)
            // Without its closing quote the string is not plain, however long.
            let open = Self.withBytes(Array(bytes.dropLast())) { JSONStringScanner.plainStringEnd($0, count: $1, from: 1) }
            #expect(open == nil)
            #expect(Self.strict("\"" + String(repeating: "z", count: length) + "\"")?.count == length)
            #expect(Self.decode("\"" + String(repeating: "z", count: length), escapes: .strict) == nil)
        }
    }

    /// A plain string with an escape or control byte in it is not plain.
    @Test func plainStringEndRefusesEscapesAndControls() {
        for json in [#""a\nb""#, "\"a\u{1}b\"", "\"a\u{1F}b\""] {
            #expect(Self.withBytes(Array(json.utf8)) { JSONStringScanner.plainStringEnd($0, count: $1, from: 1) } == nil)
        }
    }

    /// Runs of backslashes before a quote: an odd run escapes it, an even one does not.
    @Test func backslashRunsBeforeAQuote() {
        for run in 0...17 {
            for pad in 0..<8 {
                let json = "\"" + String(repeating: "p", count: pad) + String(repeating: "\\", count: run) + "\"tail\""
                let bytes = Array(json.utf8)
                let expectedEnd = run.isMultiple(of: 2) ? 1 + pad + run : bytes.count - 1
                let quote = Self.withBytes(bytes) { JSONStringScanner.closingQuote($0, count: $1, from: 1) }
                #expect(quote == expectedEnd, "\(run) backslashes after \(pad)")
                if run.isMultiple(of: 2) {
                    // The decoder ends at the same quote and reads the backslashes as half as many.
                    let text = Self.decode(json, escapes: .strict)
                    #expect(text?.end == expectedEnd + 1)
                    #expect(
                        text.map { String(decoding: $0.text, as: UTF8.self) }
                            == String(repeating: "p", count: pad) + String(repeating: "\\", count: run / 2))
                } else {
                    // `\"` is an escape, so the string goes on to the last quote.
                    #expect(Self.strict(json) == Self.reference(json))
                }
            }
        }
    }

    /// A backslash as the last byte, and a string that never closes.
    @Test func unclosedStringsAreRefused() {
        for json in ["\"abc", "\"abc\\", "\"abc\\\"", "\"\\u12", "\"\\u00e9", "\"" + String(repeating: "w", count: 40)] {
            #expect(Self.decode(json, escapes: .strict) == nil, "\(json)")
            #expect(Self.decode(json, escapes: .replacing) == nil, "\(json)")
            #expect(Self.withBytes(Array(json.utf8)) { JSONStringScanner.closingQuote($0, count: $1, from: 1) } == nil)
        }
    }

    // MARK: - Escapes

    /// Every escape, with its backslash at every offset of a word (and its `\u` digits split
    /// across two words), reads as `JSONDecoder` reads it.
    @Test func escapesSplitAcrossWordBoundariesReadAsJSONDecoderReadsThem() {
        let escapes = [
            #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\r"#, #"\t"#, #"\u0041"#, #"\u00e9"#, #"\u00E9"#, #"\u6c34"#,
            #"\u2028"#, #"\ud83d\ude00"#, #"\uD834\uDD1E"#, #"\u001f"#,
        ]
        for escape in escapes {
            for pad in 0..<16 {
                for prefix in 0..<8 {
                    let json =
                        "\"" + String(repeating: "é", count: pad / 2) + String(repeating: "a", count: pad % 2)
                        + escape + "tail" + escape + "\""
                    let expected = Self.reference(json)
                    #expect(expected != nil)
                    #expect(Self.strict(json, prefix: prefix) == expected, "\(json) after \(prefix)")
                    #expect(Self.replacing(json, prefix: prefix) == expected, "\(json) after \(prefix)")
                }
            }
        }
    }

    /// A lone surrogate: refused strictly (as `JSONDecoder` refuses it), U+FFFD when replacing,
    /// and read the same way by the full decoders after ``JSONStringScanner/replacingLoneSurrogates(_:)``.
    @Test func loneSurrogates() {
        let cases: [(json: String, replaced: String)] = [
            (#""\ud800""#, "\u{FFFD}"),
            (#""\udc00""#, "\u{FFFD}"),
            (#""a\uDBFFb""#, "a\u{FFFD}b"),
            (#""\ud800\u0041""#, "\u{FFFD}A"),
            (#""\ud800\ud800\udc00""#, "\u{FFFD}\u{10000}"),
            (#""\udc00\ud800""#, "\u{FFFD}\u{FFFD}"),
            (#""\ud800\n""#, "\u{FFFD}\n"),
            (#""\ud800\u12""#, ""),
            (#""x\ud83d""#, "x\u{FFFD}"),
        ]
        for (json, replaced) in cases {
            #expect(Self.strict(json) == nil, "\(json)")
            #expect(Self.reference(json) == nil, "\(json)")
            if replaced.isEmpty {
                // A short `\u` after the surrogate is not JSON at all.
                #expect(Self.replacing(json) == nil)
                continue
            }
            #expect(Self.replacing(json) == replaced, "\(json)")
            let repaired = JSONStringScanner.replacingLoneSurrogates(json)
            #expect(repaired.flatMap(Self.reference) == replaced, "\(json)")
        }
        #expect(JSONStringScanner.replacingLoneSurrogates(#""\ud83d\ude00 \u00e9""#) == nil)
    }

    /// `\u0000` is NUL to `JSONDecoder` and to the strict reading; replacing, it is U+FFFD, as
    /// ``JSONStringScanner/replacingNUL(_:)`` makes the full decoders read it.
    @Test func escapedNUL() {
        let json = #""a\u0000b""#
        #expect(Self.strict(json) == "a\u{0}b")
        #expect(Self.strict(json) == Self.reference(json))
        #expect(Self.replacing(json) == "a\u{FFFD}b")
        #expect(Self.reference(json).map(JSONStringScanner.replacingNUL) == Self.replacing(json))
    }

    /// What a strict parser refuses, the scanner refuses in both readings.
    @Test func malformedStringsAreRefused() {
        for json in ["\"a\u{0}b\"", "\"a\nb\"", "\"\u{1F}\"", #""\x""#, #""\U0041""#, #""\u00g0""#, #""\'""#, #""\ ""#] {
            #expect(Self.reference(json) == nil, "\(json)")
            #expect(Self.decode(json, escapes: .strict) == nil, "\(json)")
            #expect(Self.decode(json, escapes: .replacing) == nil, "\(json)")
        }
    }

    // MARK: - Bytes ≥ 0x80

    /// Multi-byte UTF-8 passes through as it is, wherever it falls; the decoder does not judge it,
    /// the UTF-8 check does.
    @Test func bytesAbove0x7FPassThroughAndTheCheckJudgesThem() {
        for pad in 0..<9 {
            let text = String(repeating: "b", count: pad) + "é水😀\u{FFFD}–"
            let json = "\"" + text + "\\n" + text + "\""
            #expect(Self.strict(json) == text + "\n" + text)
            var check = JSONStringUTF8Check()
            let checked = Self.withBytes(Array(json.utf8)) {
                JSONStringScanner.decode($0, count: $1, from: 1, escapes: .strict, into: &check)
            }
            #expect(checked == json.utf8.count)
        }
        // Invalid UTF-8: a lone continuation byte, a cut sequence, an overlong form.
        for bad: [UInt8] in [[0x80], [0xE6, 0xB0], [0xC0, 0xAF], [0xFF], [0xED, 0xA0, 0x80]] {
            let bytes = [UInt8(ascii: "\"")] + Array("ok\\t".utf8) + bad + [UInt8(ascii: "\"")]
            let raw = Self.withBytes(bytes) { base, count -> [UInt8]? in
                var out: [UInt8] = []
                return JSONStringScanner.decode(base, count: count, from: 1, escapes: .strict, into: &out).map { _ in out }
            }
            #expect(raw == Array("ok\t".utf8) + bad)
            var check = JSONStringUTF8Check()
            let checked = Self.withBytes(bytes) {
                JSONStringScanner.decode($0, count: $1, from: 1, escapes: .strict, into: &check)
            }
            #expect(checked == nil)
            #expect((try? JSONDecoder().decode(String.self, from: Data(bytes))) == nil)
        }
    }

    // MARK: - Against JSONDecoder

    private static let atoms: [String] = [
        "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", " ", "a", "Photo",
        "synthesis", "–", "é", "e\u{301}", "€", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "水", "😀", "👩‍🏫", "𝄞", "\\u0041",
        "\\\"", "\\\\", "12345678",
    ]

    private static let escapings: [JSONEscaping] = [
        .minimal, JSONEscaping(nonASCII: true), JSONEscaping(nonASCII: true, uppercaseHex: true),
        JSONEscaping(slash: true, shortControls: true),
    ]

    /// Random text, written with every escaping a server might use and read from every offset of
    /// a word, decodes to exactly the text; the UTF-8 check accepts it and ends at the same place.
    @Test func randomStringsReadAsWritten() {
        var random = SeededGenerator(seed: 0x5CA_11E5)
        for _ in 0..<1_500 {
            let text = (0..<Int.random(in: 0...16, using: &random)).map { _ in Self.atoms.randomElement(using: &random) ?? "" }
                .joined()
            let escaping = Self.escapings.randomElement(using: &random) ?? .minimal
            let json = SSEFixtures.jsonString(text, escaping: escaping)
            let prefix = Int.random(in: 0..<8, using: &random)
            #expect(Self.reference(json) == text)
            let decoded = Self.decode(json, escapes: .strict, prefix: prefix)
            #expect(decoded.map { String(decoding: $0.text, as: UTF8.self) } == text, "\(json)")
            #expect(decoded?.end == json.utf8.count)
            let replaced = Self.replacing(json, prefix: prefix)
            #expect(replaced == JSONStringScanner.replacingNUL(text))
            let quote = Self.withBytes(Array(json.utf8)) { JSONStringScanner.closingQuote($0, count: $1, from: 1) }
            #expect(quote == json.utf8.count - 1)
        }
    }
}
