import Foundation

/// `/check`: the full plan check of the current plan, as the footer only summarises it.
public enum CheckCommand: SlashCommand {
    public static let name = "check"
    public static let usage = "/check"
    public static let summary = "the full plan check: headings, pacing, warm-up, CFU questions, exit ticket"
    public static let details = "The check runs after every turn and is saved with it; the footer lists its problems in one line each."

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .check
    }
}
