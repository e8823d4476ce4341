import Foundation

/// `/pacing`: the lesson as a timeline, one bar per timed section.
public enum PacingCommand: SlashCommand {
    public static let name = "pacing"
    public static let usage = "/pacing"
    public static let summary = "draw the lesson as a timeline: one bar per section, labelled with its minutes"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .pacing
    }
}
