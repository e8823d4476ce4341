import Foundation

/// How a fixture writes JSON strings, so tests can cover the escapes different servers choose.
package struct JSONEscaping: Sendable, Equatable {
    /// Writes every non-ASCII character as `\uXXXX` (surrogate pairs above U+FFFF), as Python does.
    package var nonASCII: Bool
    /// Writes `/` as `\/`, as PHP does.
    package var slash: Bool
    /// Uses `ABCDEF` rather than `abcdef` in `\u` escapes.
    package var uppercaseHex: Bool
    /// Uses `\b` and `\f` rather than `\u0008` and `\u000c`.
    package var shortControls: Bool

    package init(nonASCII: Bool = false, slash: Bool = false, uppercaseHex: Bool = false, shortControls: Bool = false) {
        self.nonASCII = nonASCII
        self.slash = slash
        self.uppercaseHex = uppercaseHex
        self.shortControls = shortControls
    }

    /// The minimal escaping that OpenAI's servers use.
    package static let minimal = JSONEscaping()
}

/// Builders for server-sent event streams as OpenAI and servers that imitate it send them, so each
/// test states only what it varies. Here, the JSON strings they carry, which the scanners below the model read
/// too; the streams themselves are ModelTestSupport's.
package enum SSEFixtures {
    // MARK: - JSON

    /// `text` as a JSON string literal, quotes included.
    package static func jsonString(_ text: String, escaping: JSONEscaping = .minimal) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where escaping.slash: out += "\\/"
            case "\u{08}" where escaping.shortControls: out += "\\b"
            case "\u{0C}" where escaping.shortControls: out += "\\f"
            case _ where scalar.value < 0x20 || (escaping.nonASCII && scalar.value >= 0x80):
                for unit in String(scalar).utf16 {
                    out += "\\u" + hex4(unit, uppercase: escaping.uppercaseHex)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func hex4(_ unit: UInt16, uppercase: Bool) -> String {
        let digits = String(unit, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
