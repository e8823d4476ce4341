import Foundation

/// The one byte-level reader of JSON strings behind every hand-written fast path (stream deltas,
/// transcript lines, the stream decoders' lone-surrogate repair), so that all of them find a
/// string's end and read its escapes exactly alike.
///
/// Offsets are into `base[0..<count]`; a string's contents start just after its opening quote.
package enum JSONStringScanner {
    /// What a `\u` escape that makes no character becomes.
    package enum Escapes {
        /// As `JSONDecoder` reads them: a lone surrogate rejects the string, `\u0000` is NUL.
        case strict
        /// A lone surrogate or `\u0000` becomes U+FFFD, so the text around it is kept (stream deltas).
        case replacing
    }

    /// A lone surrogate (`\ud800` without its pair) or NUL decodes to this under ``Escapes/replacing``:
    /// text that says something was there, rather than a dropped delta or a C string cut short.
    static let replacementScalar: UInt32 = 0xFFFD

    // MARK: - Ends

    /// The index of the first `"`, `\` or control byte (below 0x20) from `start` on, or `count`
    /// when there is none: eight bytes a step, since string contents are nearly all of the bytes.
    @inline(__always)
    static func runEnd(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int {
        var index = start
        while index + 8 <= count {
            if let offset = firstSpecialByte(base, at: index) { return index + offset }
            index += 8
        }
        while index < count {
            if isSpecial(base[index]) { return index }
            index += 1
        }
        return count
    }

    /// The index of the closing quote of a string without escapes or control bytes, or nil when
    /// it has one of those or is not closed.
    @inline(__always)
    package static func plainStringEnd(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        let end = runEnd(base, count: count, from: start)
        return end < count && base[end] == quote ? end : nil
    }

    /// The index of the closing quote, stepping over every escape without reading it; nil when
    /// the string is not closed. Only finds the extent: a parser must still check what is inside.
    package static func closingQuote(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        var index = start
        while true {
            index = runEnd(base, count: count, from: index)
            guard index < count else { return nil }
            switch base[index] {
            case quote: return index
            // Whatever follows a backslash is escaped, a quote included.
            case backslash: index += 2
            default: index += 1
            }
        }
    }

    /// The offset of the first of the eight bytes at `index` that is `"`, `\` or below 0x20; nil
    /// when none is. Uses the standard "has a zero byte" and "has a byte less than n" bit tricks:
    /// a borrow only ever runs upwards from a flagged byte, so the lowest flag is exact.
    @inline(__always)
    static func firstSpecialByte(_ base: UnsafePointer<UInt8>, at index: Int) -> Int? {
        // Little-endian order puts the first byte in the lowest bits on every machine.
        let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(quote))
        let backslashes = word ^ (ones &* UInt64(backslash))
        let flags =
            ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & highs
        return flags == 0 ? nil : flags.trailingZeroBitCount / 8
    }

    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == quote || byte == backslash || byte < 0x20
    }

    // MARK: - Decoding

    /// Hands a string's decoded contents, from `start` (just after its opening quote), to `sink`
    /// and returns the index after its closing quote; nil (with a partial hand-over) for anything
    /// a strict parser would reject — a raw control byte, an unknown escape, a short `\u`, a run
    /// `sink` refuses — and, under ``Escapes/strict``, a lone surrogate.
    ///
    /// Raw runs reach the sink as they are (not checked as UTF-8 here), escapes one byte or scalar
    /// at a time.
    @inline(__always)
    package static func decode<Sink: JSONStringSink>(
        _ base: UnsafePointer<UInt8>, count: Int, from start: Int, escapes: Escapes, into sink: inout Sink
    ) -> Int? {
        var index = start
        while true {
            let end = runEnd(base, count: count, from: index)
            guard end < count else { return nil }
            if end > index, !sink.appendRun(UnsafeBufferPointer(start: base + index, count: end - index)) {
                return nil
            }
            switch base[end] {
            case quote:
                return end + 1
            case backslash:
                guard let next = decodeEscape(base, count: count, at: end, escapes: escapes, into: &sink) else {
                    return nil
                }
                index = next
            default:
                return nil
            }
        }
    }

    /// Decodes the escape whose backslash is at `index` into `sink`; the index after it, or nil.
    @inline(__always)
    private static func decodeEscape<Sink: JSONStringSink>(
        _ base: UnsafePointer<UInt8>, count: Int, at index: Int, escapes: Escapes, into sink: inout Sink
    ) -> Int? {
        guard index + 1 < count else { return nil }
        let escaped = base[index + 1]
        switch escaped {
        case quote, backslash, slash: sink.appendByte(escaped)
        case UInt8(ascii: "b"): sink.appendByte(0x08)
        case UInt8(ascii: "f"): sink.appendByte(0x0C)
        case UInt8(ascii: "n"): sink.appendByte(0x0A)
        case UInt8(ascii: "r"): sink.appendByte(0x0D)
        case UInt8(ascii: "t"): sink.appendByte(0x09)
        case letterU:
            guard let escape = unicodeEscape(base, count: count, at: index) else { return nil }
            switch (escape.scalar, escapes) {
            case (0, .replacing), (nil, .replacing): sink.appendScalar(replacementScalar)
            case (let scalar?, _): sink.appendScalar(scalar)
            case (nil, .strict): return nil
            }
            return escape.end
        default:
            return nil
        }
        return index + 2
    }

    /// The `\uXXXX` escape (with its low half when it is a high surrogate followed by one) whose
    /// backslash is at `index`: the scalar, nil for a lone surrogate, and the index after it. Nil
    /// when four hex digits do not follow. A high surrogate pairs only with a low one written
    /// right after it.
    @inline(__always)
    static func unicodeEscape(
        _ base: UnsafePointer<UInt8>, count: Int, at index: Int
    ) -> (scalar: UInt32?, end: Int)? {
        guard let unit = hex4(base, count: count, from: index + 2) else { return nil }
        let end = index + 6
        switch unit {
        case 0xD800...0xDBFF:
            guard end + 1 < count, base[end] == backslash, base[end + 1] == letterU,
                let low = hex4(base, count: count, from: end + 2), (0xDC00...0xDFFF).contains(low)
            else { return (nil, end) }
            return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), end + 6)
        case 0xDC00...0xDFFF:
            return (nil, end)
        default:
            return (unit, end)
        }
    }

    /// The value of the four hex digits at `start`, or nil when they are not all there.
    static func hex4(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> UInt32? {
        guard start + 4 <= count else { return nil }
        var value: UInt32 = 0
        for index in start..<(start + 4) {
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Appends the UTF-8 bytes of a Unicode scalar value.
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: - Repairs for the full decoders

    /// JSON text with every escaped lone surrogate replaced by `\uFFFD`, so a strict parser reads
    /// the rest of it; nil when there was none. Reads escapes in order exactly as ``decode`` does
    /// under ``Escapes/replacing``, so the full decoder and the fast path agree.
    package static func replacingLoneSurrogates(_ json: String) -> String? {
        var bytes = Array(json.utf8)
        var changed = false
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var index = 0
            while index + 1 < count {
                guard base[index] == backslash else {
                    index += 1
                    continue
                }
                guard base[index + 1] == letterU, let escape = unicodeEscape(base, count: count, at: index) else {
                    index += 2
                    continue
                }
                if escape.scalar == nil {
                    for (offset, byte) in "FFFD".utf8.enumerated() { base[index + 2 + offset] = byte }
                    changed = true
                }
                index = escape.end
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// `text` with every NUL replaced by U+FFFD, as ``decode`` reads `\u0000` under ``Escapes/replacing``.
    package static func replacingNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let slash = UInt8(ascii: "/")
    private static let letterU = UInt8(ascii: "u")
}

/// Where ``JSONStringScanner/decode(_:count:from:escapes:into:)`` puts a string's contents.
package protocol JSONStringSink {
    /// Takes a run of raw bytes (no quote, backslash or control byte); false rejects the string.
    mutating func appendRun(_ run: UnsafeBufferPointer<UInt8>) -> Bool
    /// Takes the byte a one-letter escape stands for.
    mutating func appendByte(_ byte: UInt8)
    /// Takes the scalar a `\u` escape stands for.
    mutating func appendScalar(_ scalar: UInt32)
}

/// Bytes collect the decoded UTF-8; raw runs are taken as they are.
extension Array: JSONStringSink where Element == UInt8 {
    @inline(__always)
    package mutating func appendRun(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        append(contentsOf: run)
        return true
    }

    @inline(__always)
    package mutating func appendByte(_ byte: UInt8) { append(byte) }

    @inline(__always)
    package mutating func appendScalar(_ scalar: UInt32) { JSONStringScanner.appendUTF8(scalar, to: &self) }
}

/// Checks a string without building it: every raw run must be valid UTF-8. That is the same as
/// checking the whole text, since escapes are ASCII, which never falls inside a multi-byte
/// sequence, and a `\u` escape is only taken when it makes a scalar.
package struct JSONStringUTF8Check: JSONStringSink {
    package init() {}

    @inline(__always)
    package mutating func appendRun(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        (try? UTF8Span(validating: run.span)) != nil
    }

    @inline(__always)
    package mutating func appendByte(_ byte: UInt8) {}

    @inline(__always)
    package mutating func appendScalar(_ scalar: UInt32) {}
}
