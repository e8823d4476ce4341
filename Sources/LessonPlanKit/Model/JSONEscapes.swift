import Foundation

/// The byte-level pieces of decoding a JSON string escape, shared by the hand-written fast paths
/// (stream deltas and transcript lines) so both read `\uXXXX` exactly alike.
enum JSONEscapes {
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

    /// A lone surrogate (`\ud800` without its pair) or NUL decodes to this: text that says
    /// something was there, rather than a dropped delta or a C string cut short.
    static let replacementScalar: UInt32 = 0xFFFD

    /// JSON text with every escaped lone surrogate replaced by `\uFFFD`, so a strict parser
    /// reads the rest of it; nil when there was none. Reads escapes in order exactly as the
    /// delta scanner does: a high surrogate pairs only with a low one written right after it.
    static func replacingLoneSurrogates(_ json: String) -> String? {
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
                guard base[index + 1] == letterU, let unit = hex4(base, count: count, from: index + 2) else {
                    index += 2
                    continue
                }
                if (0xD800...0xDBFF).contains(unit), index + 7 < count, base[index + 6] == backslash,
                    base[index + 7] == letterU, let low = hex4(base, count: count, from: index + 8),
                    (0xDC00...0xDFFF).contains(low)
                {
                    index += 12
                    continue
                }
                if (0xD800...0xDFFF).contains(unit) {
                    for (offset, byte) in Array("FFFD".utf8).enumerated() { base[index + 2 + offset] = byte }
                    changed = true
                }
                index += 6
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// `text` with every NUL replaced by U+FFFD, as the delta scanner decodes `\u0000`.
    static func replacingNUL(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        return text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
    }

    private static let backslash = UInt8(ascii: "\\")
    private static let letterU = UInt8(ascii: "u")
}
