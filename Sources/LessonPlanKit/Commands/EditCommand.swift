import Foundation

/// `/edit`: fix the plan by hand in `$VISUAL` / `$EDITOR`.
public enum EditCommand: SlashCommand {
    public static let name = "edit"
    public static let usage = "/edit"
    public static let summary = "edit the plan yourself in $VISUAL / $EDITOR (vi); saving makes a new version"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .edit
    }
}
