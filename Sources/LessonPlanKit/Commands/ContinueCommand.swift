import Foundation

/// `/continue`: finish a plan that stopped at the output limit, joining the two parts into one version.
public enum ContinueCommand: SlashCommand {
    public static let name = "continue"
    public static let templates = ["continue"]
    public static let usage = "/continue"
    public static let summary = "finish a plan that stopped early (at the output limit) from where it stopped"
    public static let details =
        "The model is shown the draft and asked to write only the rest; draft and rest become one new version."
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        guard context.draftCommand != nil else {
            throw CommandError("Nothing to continue: /continue finishes a plan that stopped early, and the last answer did not.")
        }
        return .continueDraft
    }
}
