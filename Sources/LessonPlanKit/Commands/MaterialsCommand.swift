import Foundation

/// `/materials`: the plan's student handouts, with nothing meant only for the teacher.
public enum MaterialsCommand: SlashCommand {
    public static let name = "materials"
    public static let templates = ["materials"]
    public static let usage = "/materials"
    public static let summary = "student handouts from the plan (tasks, questions, exit ticket), no teacher notes"
    public static let details = "The handouts are kept beside the plan, not as a version of it; /export materials md|html|json [FILE] writes them."

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .refine(Refinement(template: templates[0], inputs: context.inputs, kind: .materials))
    }
}
