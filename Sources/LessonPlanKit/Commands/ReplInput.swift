import Foundation
import LessonPlanCore

/// What the REPL reads: its prompt, and pastes of several commands.
package enum ReplInput {
    /// The prompt, naming the band, the length, in a unit the lesson that is current, the version and any
    /// framework but the default.
    package static func prompt(_ state: SessionState) -> String {
        let inputs = state.currentInputs
        let version = state.currentVersion.map { "v\($0)" } ?? "no plan"
        let framework = state.currentFramework == Framework.defaultName ? "" : " · \(state.currentFramework)"
        let lesson =
            state.unit.map { unit in
                state.currentLesson.map { "lesson \($0) of \(unit.lessons) · " } ?? "unit of \(unit.lessons) · "
            } ?? ""
        return "lessonplan [\(inputs.grade.rawValue) · \(inputs.minutes) min · \(lesson)\(version)\(framework)]> "
    }

    /// One sentence when an answer to a `[y/N]` question is a slash command: it is taken as no and not run, so
    /// the teacher types it again at the prompt; nil for any other answer.
    package static func commandAtQuestion(_ answer: String) -> String? {
        let typed = answer.trimmingCharacters(in: .whitespaces)
        guard typed.hasPrefix("/") else { return nil }
        return
            "“\(TerminalSanitizer.cleanLine(typed, limit: 60))” is not a yes or no, so it was taken as no and not run; type it again at the prompt to run it."
    }

    /// The slash commands of a paste of several, which run only when the teacher says so; nil for one
    /// input (a single line, or several lines that are one command's text, such as `/standards`).
    package static func pastedCommands(in input: String) -> [String]? {
        let lines = input.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard lines.count > 1, lines.allSatisfy({ $0.hasPrefix("/") }) else { return nil }
        return lines
    }

    /// Whether an answer to a `[y/N]` question is yes.
    package static func isYes(_ answer: String) -> Bool {
        ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
