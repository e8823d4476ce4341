/// Makes text the tool did not write safe for a terminal: it can show, but never command.
///
/// Model answers, server errors and transcript fields may carry escape sequences (OSC 52 writes
/// the clipboard, `ESC[2J` clears the screen), C1 controls or bidi overrides. The rule, the same
/// for every path that prints:
/// - `\n` and `\t` are kept; a CR directly before a LF is dropped (CRLF reads as LF).
/// - Every other C0 control and DEL is shown as its Unicode control picture (`␛` for ESC, `␍` for a
///   bare CR, `␇` for BEL, `␈` for BS, `␡` for DEL), so an escape sequence prints as harmless text.
/// - C1 controls (U+0080–U+009F) and bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E,
///   U+2066–U+2069) are shown as `<U+XXXX>`.
/// Everything else passes unchanged. A value carries the one piece of state streaming needs: a CR
/// at the end of one piece, held until the next piece says whether it starts a CRLF.
package struct TerminalSanitizer: Sendable {
    private var heldCarriageReturn = false

    package init() {}

    /// The whole of `text`, safe to print.
    package static func clean(_ text: String) -> String {
        guard needsWork(text) else { return text }
        var sanitizer = TerminalSanitizer()
        return sanitizer.feed(text) + sanitizer.finish()
    }

    /// One line of a listing (a name, a topic, a command): also shows line breaks as `⏎` and keeps
    /// at most `limit` characters, so a hostile transcript cannot flood or reshape a table.
    package static func cleanLine(_ text: String, limit: Int = 200) -> String {
        var shortened = text
        if text.utf8.count > limit {
            let prefix = text.prefix(limit)
            shortened = prefix.count < text.count ? prefix + "…" : String(prefix)
        }
        let oneLine =
            shortened.contains(where: \.isNewline)
            ? String(shortened.map { $0.isNewline ? "⏎" : $0 }) : shortened
        return clean(oneLine)
    }

    /// The next streamed piece, safe to print; an escape split across pieces is caught because
    /// each control character is neutralised on its own.
    package mutating func feed(_ piece: String) -> String {
        guard !piece.isEmpty else { return "" }
        var out = ""
        if heldCarriageReturn {
            heldCarriageReturn = false
            if piece.utf8.first != UInt8(ascii: "\n") { out += "␍" }
        }
        if !Self.needsWork(piece) { return out.isEmpty ? piece : out + piece }
        out.reserveCapacity(out.utf8.count + piece.utf8.count + 16)
        let scalars = Array(piece.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0x0A, 0x09:
                out.unicodeScalars.append(scalar)
            case 0x0D:
                if index + 1 < scalars.count {
                    if scalars[index + 1].value != 0x0A { out += "␍" }
                } else {
                    heldCarriageReturn = true
                }
            case 0x00..<0x20:
                out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F:
                out += "␡"
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += Self.codePoint(scalar)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// What is still held at the end of a stream (a bare CR shown as `␍`), or "".
    package mutating func finish() -> String {
        defer { heldCarriageReturn = false }
        return heldCarriageReturn ? "␍" : ""
    }

    /// `<U+202E>`: how a C1 or bidi control is shown.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// Whether any byte of `text` starts something to neutralise: the fast path for plain plan text,
    /// which has en dashes and curly quotes (also 0xE2 …) but no controls.
    static func needsWork(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte < 0x20 {
                    if byte != 0x0A && byte != 0x09 { return true }
                } else if byte >= 0x7F {
                    switch byte {
                    case 0x7F: return true
                    case 0xC2:  // U+0080–U+009F
                        if index + 1 < count, bytes[index + 1] < 0xA0 { return true }
                    case 0xD8:  // U+061C
                        if index + 1 < count, bytes[index + 1] == 0x9C { return true }
                    case 0xE2:  // U+200E, U+200F, U+202A–U+202E, U+2066–U+2069
                        if index + 2 < count {
                            let second = bytes[index + 1]
                            let third = bytes[index + 2]
                            if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) {
                                return true
                            }
                            if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                        }
                    default: break
                    }
                }
                index += 1
            }
            return false
        }
    }
}
