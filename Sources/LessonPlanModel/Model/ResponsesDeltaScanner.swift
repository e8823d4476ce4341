import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `response.output_text.delta` event straight from its bytes, because a general JSON
/// parser costs microseconds per token and a long answer is hundreds of thousands of tokens.
///
/// It is deliberately narrow: whatever it does not fully understand makes it return nil, and the
/// caller then asks the full decoder. See ``ResponsesEventDecoder/textDeltaFastPath(_:)``.
enum ResponsesDeltaScanner {
    /// The decoded `delta`, or nil when the bytes are not a plainly written text-delta event.
    static func textDelta(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var text: [UInt8] = []
        guard scan(bytes, appendingDeltaTo: &text) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the UTF-8 of the decoded `delta` to `text`, so a run of deltas becomes one string
    /// without one per token; false, with `text` as it was, when the bytes are not a plainly
    /// written text-delta event.
    static func appendTextDelta(in bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) -> Bool {
        let mark = text.count
        if scan(bytes, appendingDeltaTo: &text) { return true }
        text.removeSubrange(mark...)
        return false
    }

    /// Where the value of a leading `"type"` member lies: the bytes start `{"type":"`, and the
    /// plain string (no escapes, no control characters) that follows ends before a `,` or `}`.
    static func leadingType(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = bytes.baseAddress else { return nil }
        let prefix = leadingTypePrefix.utf8CodeUnitCount
        guard bytes.count > prefix, memcmp(base, leadingTypePrefix.utf8Start, prefix) == 0,
            let end = plainStringEnd(base, count: bytes.count, from: prefix), end + 1 < bytes.count,
            base[end + 1] == comma || base[end + 1] == closeBrace
        else { return nil }
        return prefix..<end
    }

    /// Whether `range` of `bytes` reads `response.output_text.delta`.
    static func isTextDeltaType(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return matches(base, range, deltaType)
    }

    /// Whether every byte is below 0x80, checked eight at a time. For ASCII, decoding as UTF-8
    /// changes nothing, so reading the bytes is reading the string.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            bits |= UInt64(base[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Reads the event, appending the delta to `text` as it goes; false when it is not a plainly
    /// written text-delta event (the caller then drops whatever was appended).
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, appendingDeltaTo text: inout [UInt8]) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let count = bytes.count
        guard count >= 2, base[0] == openBrace, base[count - 1] == closeBrace else { return false }

        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: maxKeys) { keys -> Bool in
            var keyCount = 0
            var sawType = false
            var sawDelta = false
            var index = 1
            while true {
                guard index < count, base[index] == quote else { return false }
                let keyStart = index + 1
                guard let keyEnd = plainStringEnd(base, count: count, from: keyStart) else { return false }
                let key = keyStart..<keyEnd
                // Distinct keys only: duplicates are where JSON parsers disagree.
                guard keyCount < maxKeys else { return false }
                for seen in keys[0..<keyCount] where seen.count == key.count {
                    if memcmp(base + seen.lowerBound, base + key.lowerBound, key.count) == 0 { return false }
                }
                keys[keyCount] = key
                keyCount += 1

                index = keyEnd + 1
                guard index < count, base[index] == colon else { return false }
                index += 1
                guard index < count else { return false }

                if matches(base, key, typeKey) {
                    guard base[index] == quote,
                        let valueEnd = plainStringEnd(base, count: count, from: index + 1),
                        matches(base, (index + 1)..<valueEnd, deltaType)
                    else { return false }
                    sawType = true
                    index = valueEnd + 1
                } else if matches(base, key, deltaKey) {
                    // A lone surrogate or NUL becomes U+FFFD, as the full decoder reads them
                    // (see JSONStringScanner.replacingLoneSurrogates and replacingNUL): the text stays.
                    guard base[index] == quote,
                        let end = JSONStringScanner.decode(
                            base, count: count, from: index + 1, escapes: .replacing, into: &text)
                    else { return false }
                    sawDelta = true
                    index = end
                } else {
                    guard let end = simpleValueEnd(base, count: count, from: index) else { return false }
                    index = end
                }

                guard index < count else { return false }
                if base[index] == comma {
                    index += 1
                } else if base[index] == closeBrace && index == count - 1 {
                    break
                } else {
                    return false
                }
            }
            return sawType && sawDelta
        }
    }

    // MARK: - Pieces

    /// Index of the closing quote of a string that has no escapes or control characters.
    @inline(__always)
    private static func plainStringEnd(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        JSONStringScanner.plainStringEnd(base, count: count, from: start)
    }

    /// The index after a value that needs no decoding: a plain string, an integer, `true`,
    /// `false`, `null` or `[]`. Anything else (nested values, fractions) ends the fast path.
    private static func simpleValueEnd(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        let byte = base[start]
        switch byte {
        case quote:
            return plainStringEnd(base, count: count, from: start + 1).map { $0 + 1 }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var index = byte == UInt8(ascii: "-") ? start + 1 : start
            guard index < count else { return nil }
            if base[index] == UInt8(ascii: "0") { return index + 1 }
            let digitsStart = index
            while index < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(base[index]) { index += 1 }
            // The caller demands `,` or `}` next, which rejects fractions, exponents and `01`.
            let digits = index - digitsStart
            return digits > 0 && digits <= 15 ? index : nil
        case UInt8(ascii: "t"):
            return literalEnd(base, count: count, from: start, literal: trueLiteral)
        case UInt8(ascii: "f"):
            return literalEnd(base, count: count, from: start, literal: falseLiteral)
        case UInt8(ascii: "n"):
            return literalEnd(base, count: count, from: start, literal: nullLiteral)
        case UInt8(ascii: "["):
            return start + 1 < count && base[start + 1] == UInt8(ascii: "]") ? start + 2 : nil
        default:
            return nil
        }
    }

    private static func literalEnd(
        _ base: UnsafePointer<UInt8>, count: Int, from start: Int, literal: StaticString
    ) -> Int? {
        let length = literal.utf8CodeUnitCount
        guard start + length <= count, memcmp(base + start, literal.utf8Start, length) == 0 else { return nil }
        return start + length
    }

    private static func matches(_ base: UnsafePointer<UInt8>, _ range: Range<Int>, _ expected: StaticString) -> Bool {
        range.count == expected.utf8CodeUnitCount
            && memcmp(base + range.lowerBound, expected.utf8Start, range.count) == 0
    }

    private static let maxKeys = 16
    private static let typeKey: StaticString = "type"
    private static let deltaKey: StaticString = "delta"
    private static let deltaType: StaticString = "response.output_text.delta"
    private static let leadingTypePrefix: StaticString = #"{"type":""#
    private static let trueLiteral: StaticString = "true"
    private static let falseLiteral: StaticString = "false"
    private static let nullLiteral: StaticString = "null"
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let quote = UInt8(ascii: "\"")
    private static let colon = UInt8(ascii: ":")
    private static let comma = UInt8(ascii: ",")
}
