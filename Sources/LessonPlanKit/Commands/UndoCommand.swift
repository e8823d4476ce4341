import Foundation

/// `/undo`: back to the version the current one was made from.
public enum UndoCommand: SlashCommand {
    public static let name = "undo"
    public static let usage = "/undo"
    public static let summary = "go back to the previous version (kept in the transcript)"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .undo
    }
}
