import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// What a command hands a program once it is done, beside what it shows (``CommandHost/deliver(_:)``).
package enum CommandProduct: Sendable, Equatable {
    /// The current plan changed (or was shown).
    case plan
    /// Text made beside the plan, for a program to keep: student handouts, a quiz with its key, a rubric.
    case text(String)
    /// An export the teacher asked for without a file name: text for a terminal, bytes for a program.
    case document(Data, ExportFormat)
}

/// How `/show` prints what a turn made beside the plan: a label, the text, its check, and how it stands with the
/// current plan.
enum ProductText {
    /// The current version as the stale warning compares it: the quiz's own version when the current plan is
    /// still its lesson (a hand edit or repair of it), so no warning shows.
    static func lessonVersion(_ state: SessionState, madeFrom: Int?, quiz: Quiz? = nil) -> Int? {
        guard let current = state.currentVersion, let madeFrom else { return state.currentVersion }
        return state.standing(madeFrom: madeFrom, quiz: quiz, plan: current).isCarried ? madeFrom : current
    }

    /// For what was written for an earlier version of the current plan: that it still fits, or why it does not.
    static func standingLine(_ state: SessionState, madeFrom: Int?, quiz: Quiz?, noun: String) -> String? {
        guard let current = state.currentVersion else { return nil }
        switch state.standing(madeFrom: madeFrom, quiz: quiz, plan: current) {
        case .fits(let made):
            return "Written for v\(made) and checked against v\(current) by code: it still fits, so it goes with v\(current)."
        case .doesNotFit(_, let reasons):
            return "It does not fit v\(current): \(reasons.joined(separator: "; ")); /\(noun) again writes it again."
        case .sameLesson, .elsewhere:
            return nil
        }
    }

    /// A footer part for a check of what a turn made: `✓ quiz check`, or how many problems it found.
    static func check(_ kind: TurnKind, problems: [String]) -> String {
        problems.isEmpty ? "✓ \(kind.rawValue) check" : "✗ \(kind.rawValue) check: \(counted(problems.count, "problem"))"
    }

    /// A label, the body, the check's problems, and the stale warning, as one block without a final newline.
    static func labelled(_ label: String, _ body: String, problems: [String], stale: String?) -> StyledText {
        var text = StyledText(label + "\n", style: .dim)
        var lines = [body.hasSuffix("\n") ? String(body.dropLast()) : body]
        lines += problems.map { "✗ \($0)" }
        if let stale { lines.append(stale) }
        text.append(lines.joined(separator: "\n"))
        return text
    }

    /// When the plan has moved on from the version a `noun` was made from: that it was, and the command that makes
    /// one from the current version.
    static func stale(_ noun: String, madeFrom: Int?, current: Int?) -> String? {
        guard let made = madeFrom, let current, made != current else { return nil }
        return "This \(noun) was made from v\(made), but the plan is now v\(current); type /\(noun) to make one from v\(current)."
    }
}
