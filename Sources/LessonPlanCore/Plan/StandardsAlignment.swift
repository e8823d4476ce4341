import Foundation

/// Whether a plan quotes the standards it was aligned to word for word, since a paraphrase is not the standard.
package enum StandardsAlignment {
    /// The standards in a teacher's text: one per line, or separated by `;`.
    package static func items(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == ";" || $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The standards `plan` does not contain word for word, in the order given.
    ///
    /// Runs of whitespace, quote styles (straight or curly) and dash styles (`-`, `–`, `—`) count as equal,
    /// since models retype them; letters, digits, case and punctuation must match exactly.
    package static func unquoted(_ standards: [String], in plan: String) -> [String] {
        let text = normalized(plan)
        return standards.filter { !text.contains(normalized($0)) }
    }

    static func normalized(_ text: String) -> String {
        var out = ""
        var lastWasSpace = false
        for character in text {
            let mapped: Character
            switch character {
            case "“", "”", "„", "«", "»": mapped = "\""
            case "‘", "’", "‚": mapped = "'"
            case "–", "—", "‒", "−", "‐", "‑": mapped = "-"
            default: mapped = character
            }
            if mapped.isWhitespace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(mapped)
                lastWasSpace = false
            }
        }
        return out
    }
}

/// Student handouts checked for what only the teacher should see.
package enum StudentMaterials {
    /// What the check looks for, as the ✓ says it.
    package static let checkedFor =
        "answers and answer keys, look-fors, teacher notes, teacher-only sections (differentiation, materials, pacing) and minute stamps"

    /// The teacher-only parts of handouts, read as a plan document with the plan's framework headings.
    ///
    /// A teacher heading such as `7) Differentiation` stands for the lines under it; labelled lines follow
    /// ``TeacherLabel`` (so a multiple-choice option `A: 1/2 B: 1/3` is left alone); minute stamps are times
    /// that open or close a line (`0–5 min:`, `(10 min)`), not times in a sentence.
    package static func teacherNotes(_ text: String, headings: [String]) -> [TeacherNote] {
        PlanDocument(parsing: text, headings: headings).teacherNotes
    }

    /// The teacher-only lines of handouts, as written.
    package static func teacherOnlyLines(_ text: String, headings: [String] = []) -> [String] {
        teacherNotes(text, headings: headings).map(\.line)
    }
}
