import Foundation

/// Text as the XML and HTML fields of the platforms' formats carry it: escaped so that what a quiz says is what
/// the student reads, never markup.
enum LMSText {
    /// `text` with `& < > " '` as entities, for an XML element or attribute.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 has no place for other control characters: they become a visible replacement.
                if scalar.value < 0x20, scalar != "\n", scalar != "\t" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` as an HTML fragment a browser shows exactly: entities for `& < > " '` and a tab, `<br>` for a line break.
    static func html(_ text: String) -> String {
        lines(text).map { line in
            xml(line).replacingOccurrences(of: "&apos;", with: "&#39;").replacingOccurrences(of: "\t", with: "&#9;")
        }.joined(separator: "<br>")
    }

    /// The lines of `text`, with CRLF and CR read as line breaks.
    static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether `text` holds a line break.
    static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }
}
