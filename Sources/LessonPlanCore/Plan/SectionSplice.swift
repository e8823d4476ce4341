import Foundation

/// One section of a plan rewritten on its own (`/redo`): the model's answer for that section put in its place,
/// every other section kept byte for byte, and proved so by code before the plan is kept.
package struct SectionSplice: Equatable, Sendable {
    /// The plan the section is replaced in, as it was sent.
    package let plan: String
    /// The section's heading as the framework spells it.
    package let heading: String
    /// The framework's headings, which the plan and the answer are read with.
    package let headings: [String]

    package init(plan: String, heading: String, headings: [String]) {
        self.plan = plan
        self.heading = heading
        self.headings = headings
    }

    /// Why an answer could not be put in: one sentence each.
    package enum Failure: Error, Equatable, Sendable {
        case noSection(String)
        case emptyAnswer(String)
        case othersChanged([String])
        case unchanged(String)

        package var sentence: String {
            switch self {
            case .noSection(let heading):
                "The plan has no \(heading) section to replace; /revise asks for the whole plan instead."
            case .emptyAnswer(let heading):
                "The answer held nothing for \(heading); the plan is unchanged. Try /redo again, or say more of what to change."
            case .othersChanged(let headings):
                "Putting the answer in would have changed \(headings.joined(separator: ", ")) too; the plan is unchanged."
            case .unchanged(let heading):
                "The answer's \(heading) is the one the plan has already, so no new version was made; say more of what to change."
            }
        }
    }

    /// The plan with the section replaced by the answer's: the answer's own section under that heading when it
    /// writes one (anything else it wrote is left out), else the whole answer under the plan's heading line.
    /// - Throws: ``Failure`` when the plan lacks the section, the answer is empty, or any other section would
    ///   differ by a byte (checked on the result, not assumed).
    package func splice(_ answer: String) throws(Failure) -> String {
        let old = PlanDocument(parsing: plan, headings: headings)
        guard let section = old.section(heading) else { throw .noSection(heading) }
        let lines = Self.linesKeepingEnds(plan)
        guard section.lineRange.upperBound <= lines.count else { throw .noSection(heading) }
        let replacement = Self.sectionLines(of: answer, heading: heading, headings: headings, titleLine: lines[section.lineRange.lowerBound])
        guard !replacement.dropFirst().isEmpty else { throw .emptyAnswer(heading) }
        // The blank lines that ended the section before the next heading stay as they were.
        let oldRange = section.lineRange
        let trailingBlanks = lines[oldRange].reversed().prefix { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.count
        let ending = lines[oldRange.lowerBound].hasSuffix("\r\n") ? "\r\n" : "\n"
        var middle = replacement.map { $0 + ending }
        if trailingBlanks > 0 {
            middle += Array(lines[(oldRange.upperBound - trailingBlanks)..<oldRange.upperBound])
        } else if oldRange.upperBound == lines.count, let last = lines.last, !last.hasSuffix("\n") {
            // The section ended the plan without a final newline: so does its replacement.
            middle[middle.count - 1].removeLast(ending.count)
        }
        let result = (lines[..<oldRange.lowerBound] + middle + lines[oldRange.upperBound...]).joined()
        let changed = Self.changedSections(from: plan, to: result, headings: headings).filter { $0 != heading }
        guard changed.isEmpty else { throw .othersChanged(changed) }
        guard result != plan else { throw .unchanged(heading) }
        return result
    }

    /// The headings whose sections differ between two plans (their lines from heading to the next one, blank
    /// lines at the end aside), in the framework's order; a section only one plan has counts as changed.
    package static func changedSections(from old: String, to new: String, headings: [String]) -> [String] {
        let before = sectionTexts(old, headings: headings)
        let after = sectionTexts(new, headings: headings)
        return headings.filter { before[$0] != after[$0] }
    }

    /// Each section's exact text, by heading (the first section of a heading only).
    static func sectionTexts(_ plan: String, headings: [String]) -> [String: String] {
        let document = PlanDocument(parsing: plan, headings: headings)
        let lines = linesKeepingEnds(plan)
        var texts: [String: String] = [:]
        for section in document.sections where texts[section.heading] == nil && section.lineRange.upperBound <= lines.count {
            let kept = Array(lines[section.lineRange])
            let content = kept.reversed().drop { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.reversed()
            texts[section.heading] = content.joined().trimmingCharacters(in: .newlines)
        }
        return texts
    }

    /// The section's new lines: the plan's own heading line (its numbering and times as the plan writes them),
    /// then the body of the answer's section under that heading, or the whole answer when it wrote no heading;
    /// blank edges trimmed, no line endings.
    static func sectionLines(of answer: String, heading: String, headings: [String], titleLine: String) -> [String] {
        let document = PlanDocument(parsing: answer, headings: headings)
        let lines = PlanDocument.lines(of: answer)
        let title = titleLine.trimmingCharacters(in: .newlines)
        if let section = document.section(heading) {
            return [title] + section.body
        }
        // An answer that starts with another section's heading is not this section.
        guard document.sections.isEmpty else { return [title] }
        return [title] + PlanDocument.trimmedBlankEdges(lines)
    }

    /// A text's lines each with its own line ending (`\n`, `\r\n`), indexed as ``PlanDocument/lines(of:)`` indexes
    /// them, so that joining them gives the text back byte for byte.
    static func linesKeepingEnds(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character.isNewline {
                lines.append(current)
                current = ""
            }
        }
        lines.append(current)
        return lines
    }
}
