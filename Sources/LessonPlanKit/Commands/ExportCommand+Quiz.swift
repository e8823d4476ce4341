import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export quiz [N|starter|exit] FORMAT [FILE] [--force]`: a quiz of the current plan, for a learning platform.
extension ExportCommand {
    static func parseQuiz(_ words: [String], force: Bool) throws(CommandError) -> Self {
        var words = words
        // A quiz named as /show quiz names it: its number, or starter or exit (a format's name is never one).
        let choice = words.first.flatMap { ExportTable.entry(.quiz, $0) == nil ? QuizChoice(text: $0) : nil }
        if choice != nil { words.removeFirst() }
        guard let first = words.first, let entry = ExportTable.entry(.quiz, first) else {
            throw CommandError(
                "/export quiz needs a platform format: \(ExportTable.names(.quiz)), e.g. /export quiz gift or /export quiz exit moodle, then an optional file name."
            )
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export quiz; use --force to replace the file.")
        }
        if !rest.isEmpty, let misnamed = entry.misnamed(rest) { throw CommandError(misnamed) }
        return Self(entry, path: rest.isEmpty ? nil : rest, force: force, quizChoice: choice)
    }
}
