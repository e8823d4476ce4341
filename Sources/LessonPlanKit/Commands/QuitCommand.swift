import Foundation

/// `/quit`: leave; everything is already saved.
public enum QuitCommand: SlashCommand {
    public static let name = "quit"
    public static let usage = "/quit"
    public static let summary = "leave (Ctrl-D too); the session is already saved"
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .quit
    }
}
