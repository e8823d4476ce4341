import Foundation

/// `/revise <text>`, and any line without a slash: a change asked for in the teacher's own words.
public enum ReviseCommand: SlashCommand {
    public static let name = "revise"
    public static let templates = ["revise"]
    public static let usage = "/revise <text>"
    public static let summary = "ask for any change in your own words"
    /// Longest request accepted, the same limit as the optional inputs.
    static let limit = LessonInputs.optionalFieldLimit

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else {
            throw CommandError("/revise needs the change you want, e.g. /revise add a think-pair-share.")
        }
        guard arguments.count <= limit else {
            throw CommandError("That request is \(arguments.count) characters long; keep it to \(limit).")
        }
        return .refine(Refinement(template: templates[0], inputs: context.inputs, values: ["request": arguments]))
    }
}
