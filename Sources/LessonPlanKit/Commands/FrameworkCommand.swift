import Foundation

/// `/framework [name]`: which lesson structure the plan follows, and converting it to another.
public enum FrameworkCommand: SlashCommand {
    public static let name = "framework"
    public static let templates = ["convert"]
    public static let usage = "/framework [name]"
    public static let summary = "rewrite the plan in another lesson structure; without a name, list them"
    public static let details = """
        Without a name it lists the frameworks and marks the current one. Before the first plan it writes one
        in that framework. Each framework is a folder under prompts/frameworks/ (the default is prompts/headings.txt).
        """
    public static let needsPlan = false

    public static func argumentCompletions(frameworks: [String]) -> [String] { frameworks }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else { return .frameworks }
        let name = arguments.lowercased()
        guard context.frameworks.contains(name) else {
            throw CommandError(
                "“\(arguments)” is not a framework; use \(context.frameworks.joined(separator: ", ")).")
        }
        guard context.currentVersion != nil else {
            return .refine(Refinement(template: GenerateCommand.templates[0], inputs: context.inputs, framework: name))
        }
        guard name != context.framework else {
            throw CommandError("The plan already follows the \(name) framework; name another one (/framework lists them).")
        }
        return .refine(Refinement(template: templates[0], inputs: context.inputs, framework: name))
    }
}
