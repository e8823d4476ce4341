/// The tool's own emphasis on the terminal: the only escape sequences `lessonplan` ever writes.
package enum TextStyle: Sendable, Hashable {
    case bold, dim, red, green, yellow, blue, magenta, cyan

    /// The SGR parameter that turns the style on.
    var code: String {
        switch self {
        case .bold: "1"
        case .dim: "2"
        case .red: "31"
        case .green: "32"
        case .yellow: "33"
        case .blue: "34"
        case .magenta: "35"
        case .cyan: "36"
        }
    }
}

/// Text for the terminal as runs of plain text with the tool's own styles beside them, never inside.
///
/// Styles are values, not bytes in the text, so rendering can sanitise every run (see
/// ``TerminalSanitizer``) and still colour it: untrusted text can be shown but cannot emit a sequence.
package struct StyledText: Sendable, Equatable, ExpressibleByStringLiteral {
    /// A stretch of text in one style (nil: the terminal's default).
    package struct Run: Sendable, Equatable {
        package var text: String
        package var style: TextStyle?
    }

    package private(set) var runs: [Run] = []

    package init(_ text: String = "", style: TextStyle? = nil) {
        if !text.isEmpty { runs = [Run(text: text, style: style)] }
    }

    package init(stringLiteral value: String) { self.init(value) }

    /// Adds text in a style at the end.
    package mutating func append(_ text: String, style: TextStyle? = nil) {
        guard !text.isEmpty else { return }
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].text += text
        } else {
            runs.append(Run(text: text, style: style))
        }
    }

    /// Adds another styled text at the end.
    package mutating func append(_ other: StyledText) {
        for run in other.runs { append(run.text, style: run.style) }
    }

    package static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var joined = lhs
        joined.append(rhs)
        return joined
    }

    /// The text without styles, for a file or a test.
    package var plain: String { runs.map(\.text).joined() }

    /// What the terminal receives: every run sanitised, each styled run wrapped in its SGR
    /// sequence and a reset when `colour` is on.
    package func rendered(colour: Bool) -> String {
        var out = ""
        for run in runs {
            let text = TerminalSanitizer.clean(run.text)
            if colour, let style = run.style {
                out += "\u{1B}[\(style.code)m" + text + "\u{1B}[0m"
            } else {
                out += text
            }
        }
        return out
    }
}
