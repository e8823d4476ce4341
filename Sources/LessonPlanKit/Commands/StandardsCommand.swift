import Foundation

/// `/standards <text>`: align the plan to standards, quoted word for word, each tied to an activity.
public enum StandardsCommand: SlashCommand {
    public static let name = "standards"
    public static let templates = ["standards"]
    public static let usage = "/standards <text>"
    public static let summary = "align the plan to these standards, quoted word for word, each with its activity"
    public static let details = """
        Separate several standards with “;” or put each on its own line. They become the lesson's standards for
        later refinements too, and the footer says whether each is quoted word for word.
        """

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else {
            throw CommandError("/standards needs the standards' text, e.g. /standards CCSS.MATH.4.NF.A.1 Explain why a fraction a/b is equivalent to (n × a)/(n × b).")
        }
        var inputs = context.inputs
        do {
            inputs.standards = try LessonInputs.validOptional(arguments, field: "standards")
        } catch {
            throw CommandError(error.message)
        }
        return .refine(Refinement(template: templates[0], inputs: inputs))
    }
}
