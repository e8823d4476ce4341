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
                // A character XML 1.0 has no place for would make the whole file unreadable: it is left out.
                if isXMLCharacter(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Whether XML 1.0 allows `scalar` in a file (its `Char` production): not the C0 controls other than tab and
    /// line feed (a carriage return would be read back as a line feed, so it is left out too), not U+FFFE or U+FFFF.
    /// Swift strings hold no lone surrogates, so the rest of Unicode is allowed.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// The XML comment text for `text`: one line, only characters XML allows, and no `--` (which would end or break
    /// the comment), however many dashes in a row it held.
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.oneLine.unicodeScalars where isXMLCharacter(scalar) {
            if scalar == "-", out.unicodeScalars.last == "-" { out += " " }
            out.unicodeScalars.append(scalar)
        }
        return out.hasSuffix("-") ? out + " " : out
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
