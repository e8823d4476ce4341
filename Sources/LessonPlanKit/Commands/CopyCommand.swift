import Foundation

/// `/copy`: the plan onto the clipboard through the terminal (OSC 52).
public enum CopyCommand: SlashCommand {
    public static let name = "copy"
    public static let usage = "/copy"
    public static let summary = "copy the plan to the clipboard (OSC 52; works over SSH in most terminals)"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .copy
    }
}
