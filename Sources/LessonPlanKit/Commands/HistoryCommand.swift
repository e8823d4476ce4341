import Foundation

/// `/history`: every version with the command that made it.
public enum HistoryCommand: SlashCommand {
    public static let name = "history"
    public static let usage = "/history"
    public static let summary = "list the versions, each with the command that made it"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .history
    }
}
