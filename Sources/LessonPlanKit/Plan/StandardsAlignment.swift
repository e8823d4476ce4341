import Foundation

/// Whether a plan quotes the standards it was aligned to word for word, since a paraphrase is not the standard.
public enum StandardsAlignment {
    /// The standards in a teacher's text: one per line, or separated by `;`.
    public static func items(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == ";" || $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The standards `plan` does not contain word for word, in the order given.
    ///
    /// Runs of whitespace, quote styles (straight or curly) and dash styles (`-`, `–`, `—`) count as equal,
    /// since models retype them; letters, digits, case and punctuation must match exactly.
    public static func unquoted(_ standards: [String], in plan: String) -> [String] {
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
public enum StudentMaterials {
    /// Lines that look meant for the teacher: answers, answer keys, look-fors and teacher notes.
    ///
    /// List markers are ignored, so `- Answer: 3/4` is found; a multiple-choice option such as `A: 1/2`
    /// is not, since students read those.
    public static func teacherOnlyLines(_ text: String) -> [String] {
        PlanStructure.lines(of: text).compactMap { line in
            let trimmed = line.replacingOccurrences(of: "**", with: "").trimmingCharacters(in: .whitespaces)
            let item = trimmed.replacing(listMarker, with: "")
                .trimmingCharacters(in: .whitespaces)
            return item.prefixMatch(of: label) != nil ? trimmed : nil
        }
    }

    // Compiled once: every line of every handout is tested (see ``SharedRegex``).
    private static let label = SharedRegex(
        /(?i)^(?:sample |expected |possible |model |suggested )?(?:answers?|answer key|look[- ]fors?|teacher(?:'s|’s)? notes?|notes? (?:for|to) (?:the )?teacher|teacher|differentiation|pacing)\s*[:\-–—(]/)
    private static let listMarker = SharedRegex(/^(?:\(?\d{1,2}[.):]|[-–*•‣◦▪+·])\s*/)
}
