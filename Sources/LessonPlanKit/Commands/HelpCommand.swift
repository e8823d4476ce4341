import Foundation

/// `/help [command]`: the command table, or one command in detail.
public enum HelpCommand: SlashCommand {
    public static let name = "help"
    public static let usage = "/help [command]"
    public static let summary = "list the commands, or explain one"
    public static let needsPlan = false
    public static var argumentCompletions: [String] { CommandTable.all.map { $0.name } }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else { return .help(command: nil) }
        _ = try CommandTable.helpText(for: arguments)
        return .help(command: arguments.hasPrefix("/") ? String(arguments.dropFirst()) : arguments)
    }
}
