import Foundation

/// `/differentiate [ell|iep|advanced|all]`: stronger supports for some learners, same objective.
public enum DifferentiateCommand: SlashCommand {
    public static let name = "differentiate"
    public static let templates = ["differentiate"]
    public static let usage = "/differentiate [ell|iep|advanced|all]"
    public static let summary = "strengthen supports for those learners (default all) without lowering the objective"

    /// The focuses and how the prompt names them.
    static let focuses: [(key: String, description: String)] = [
        ("ell", "English language learners"),
        ("iep", "students with IEPs or 504 plans"),
        ("advanced", "advanced learners who need more challenge"),
        ("all", "English language learners, students with IEPs or 504 plans, and advanced learners"),
    ]
    public static var argumentCompletions: [String] { focuses.map(\.key) }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        let key = arguments.isEmpty ? "all" : arguments.lowercased()
        guard let focus = focuses.first(where: { $0.key == key }) else {
            throw CommandError("“\(arguments)” is not a focus for /differentiate; use ell, iep, advanced or all.")
        }
        return .refine(
            Refinement(template: templates[0], inputs: context.inputs, values: ["focus": focus.description]))
    }
}
