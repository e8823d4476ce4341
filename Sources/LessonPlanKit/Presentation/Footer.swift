import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore

/// Formats the lines after a turn: version, tokens, seconds and the plan check, then one line per problem and note.
package enum Footer {
    /// The footer line of a turn.
    package static func text(for outcome: TurnOutcome) -> String {
        let still = outcome.current.map { "still v\($0)" } ?? "no plan yet"
        var parts: [String] = []
        switch outcome.status {
        case .completed:
            if let made = outcome.made {
                parts.append("\(made.kind.noun) \(made.number)")
            } else if outcome.kind.keptKind != nil {
                parts.append("not kept")
            } else if outcome.kind == .overview {
                parts.append("unit overview")
            } else if let version = outcome.version {
                parts.append("v\(version)")
            } else {
                parts.append("not kept, \(still)")
            }
        case .incomplete: parts.append("incomplete, \(still)")
        case .failed: parts.append("failed, \(still)")
        case .cancelled: parts.append("cancelled, \(still); /retry sends it again")
        }
        if let usage = outcome.usage {
            parts.append("\(grouped(usage.inputTokens)) in / \(grouped(usage.outputTokens)) out")
        }
        parts.append(String(format: "%.1f s", outcome.seconds))
        if outcome.notSaved != nil { parts.append("not saved") }
        if !outcome.streamed { parts.append("not streamed") }
        if let check = outcome.check, outcome.kept != false {
            parts.append(check.summary)
        }
        if let quotes = outcome.quotes?.footer, outcome.kept != false { parts.append(quotes) }
        if outcome.status == .completed, outcome.kept != false { parts += outcome.kind.product.footer(outcome) }
        return "── " + parts.joined(separator: " · ")
    }

    /// The footer, then the plan check's problems one short line each, then why a follow-up was kept or not.
    package static func lines(for outcome: TurnOutcome) -> [String] {
        // A follow-up not kept is one line: it was tried, and why it did not replace the draft.
        if outcome.kept == false, outcome.status == .completed, let note = outcome.keepNote {
            return [text(for: outcome) + " · " + note]
        }
        var lines = [text(for: outcome)]
        if outcome.kept != false {
            lines += (outcome.problems + outcome.assessmentProblems).map { "   ✗ \($0)" }
            lines += (outcome.quotes?.problems ?? []).map { "   ✗ \($0.sentence)" }
            lines += outcome.notes.map { "   ✗ \($0)" }
            lines += outcome.advice.map { "   • \($0)" }
        }
        lines += outcome.sourceCuts.map { "   source \($0)" }
        if let note = outcome.keepNote { lines.append("   \(note)") }
        return lines
    }

    /// The line announcing an automatic turn.
    package static func text(for followUp: FollowUp) -> String {
        switch followUp {
        case .repair(let draft, let problems):
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "── repairing v\(draft) once: asking for the same plan without its \(count)…"
        case .assessmentRepair(let kind, let number, let problems):
            return
                "── repairing \(kind.rawValue) \(number) once: asking for the same \(kind.rawValue) without its \(counted(problems.count, "problem"))…"
        case .readingLevel(let draft, let measure):
            return
                "── v\(draft) reads at grade \(measure.gradeText); grades \(measure.band.rawValue) expect \(measure.expectedText). Asking once more…"
        case .reask:
            return "── the answer did not fit the plan's parts; asking once more, automatically…"
        }
    }

    /// The reading levels of the plan a /regrade started from and of the one it ended with, a line each.
    package static func levels(before: ReadingMeasure?, after: ReadingMeasure?) -> String? {
        guard let after else { return nil }
        func describe(_ measure: ReadingMeasure) -> String {
            let mark = measure.grade == nil ? "" : measure.inRange ? " ✓" : " ✗"
            return "grade \(measure.gradeText) (\(measure.band.rawValue) expects \(measure.expectedText))\(mark)"
        }
        var lines = ["Reading level of what students read (Flesch–Kincaid):"]
        if let before { lines.append("   before: \(describe(before))") }
        lines.append("   after:  \(describe(after))")
        return lines.joined(separator: "\n")
    }

    package static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
