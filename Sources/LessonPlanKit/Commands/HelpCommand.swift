import Foundation
import LessonPlanCore

/// `/help [command]`: the command table, or one command in detail.
public struct HelpCommand: Command, Equatable {
    public static let name = "help"
    public static let usage = "/help [command]"
    public static let summary = "list the commands, or explain one"
    public static let needsPlan = false
    public static var argumentCompletions: [String] { CommandTable.all.map { $0.name } }

    /// The command to explain; nil for the table.
    public let command: String?

    public init(command: String?) { self.command = command }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(command: nil) }
        _ = try CommandTable.helpText(for: arguments)
        return Self(command: arguments.hasPrefix("/") ? String(arguments.dropFirst()) : arguments)
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        let text = command.flatMap { try? CommandTable.helpText(for: $0) } ?? CommandTable.helpText()
        // Wrapped to the width the output is read at (the terminal's, else COLUMNS, else 80), piped or not.
        run.host.show(TextWrapper.wrap(StyledText(text), width: run.host.columns))
        return .done
    }
}
