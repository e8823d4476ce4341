import Foundation
import LessonPlanCore

/// `/help [command]`: the command table, or one command in detail.
package struct HelpCommand: Command, Equatable {
    package static let name = "help"
    package static let usage = "/help [command]"
    package static let summary = "list the commands, or explain one"
    package static let needsPlan = false
    package static var argumentCompletions: [String] { CommandTable.all.map { $0.name } }

    /// The command to explain; nil for the table.
    package let command: String?

    package init(command: String?) { self.command = command }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(command: nil) }
        _ = try CommandTable.helpText(for: arguments)
        return Self(command: arguments.hasPrefix("/") ? String(arguments.dropFirst()) : arguments)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let text = command.flatMap { try? CommandTable.helpText(for: $0) } ?? CommandTable.helpText()
        // Wrapped to the width the output is read at (the terminal's, else COLUMNS, else 80), piped or not.
        run.host.show(TextWrapper.wrap(StyledText(text), width: run.host.columns))
        return .done
    }
}
