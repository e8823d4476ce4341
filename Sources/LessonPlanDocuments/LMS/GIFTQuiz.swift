import Foundation

/// Moodle's GIFT text format: one question per paragraph, `=` for the key, `~` for a wrong answer and `#` for the
/// feedback the student who picks it reads (its student feedback, never the teacher's misconception).
///
/// Text is written in GIFT's `[plain]` format, so Moodle shows `<`, `&` and quotes as they are, and every character
/// GIFT reserves (`~ = # { } :` and the backslash) is escaped with a backslash, a line break as `\n` (the escapes
/// Moodle's own GIFT exporter writes).
package enum GIFTQuiz {
    package static func render(_ quiz: LMSQuiz) -> String {
        var out = ["// \(quiz.title.oneLine): written by lessonplan, one multiple-choice question per paragraph.", ""]
        for item in quiz.items {
            out.append("::\(escape("\(quiz.kindTitle) \(item.number)"))::[plain]\(escape(item.stem)) {")
            for option in item.options {
                var line = "\t" + (option.isKey ? "=" : "~") + text(option.text)
                if !option.feedback.isEmpty { line += " #" + text(option.feedback) }
                out.append(line)
            }
            out.append("}")
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// An answer's or feedback's text: escaped, and marked `[plain]` when it starts with what GIFT would read as a
    /// format tag (`[`) or an answer weight (`%`).
    static func text(_ value: String) -> String {
        let escaped = escape(value)
        return value.hasPrefix("[") || value.hasPrefix("%") ? "[plain]" + escaped : escaped
    }

    /// GIFT's escapes: a backslash before `\ ~ = # { } :`, `\n` for a line break.
    static func escape(_ value: String) -> String {
        var out = ""
        for line in LMSText.lines(value).enumerated() {
            if line.offset > 0 { out += "\\n" }
            for character in line.element {
                if "\\~=#{}:".contains(character) { out.append("\\") }
                out.append(character)
            }
        }
        return out
    }
}
