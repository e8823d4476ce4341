import Foundation
import LessonPlanCore

/// `/standards <text>`: align the plan to standards, quoted word for word, each tied to an activity.
public struct StandardsCommand: RequestCommand, Equatable {
    public static let name = "standards"
    public static let templates = ["standards"]
    public static let usage = "/standards <text>"
    public static let summary = "align the plan to these standards, quoted word for word, each with its activity"
    public static let details = """
        Separate several standards with “;” or put each on its own line. They become the lesson's standards for
        later refinements too, and the footer says whether each is quoted word for word.
        """

    public let refinement: Refinement

    public init(refinement: Refinement) { self.refinement = refinement }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError("/standards needs the standards' text, e.g. /standards CCSS.MATH.4.NF.A.1 Explain why a fraction a/b is equivalent to (n × a)/(n × b).")
        }
        var inputs = context.inputs
        do {
            inputs.standards = try LessonInputs.validOptional(arguments, field: "standards")
        } catch {
            throw CommandError(error.message)
        }
        return Self(refinement: Refinement(.revise(.standards), inputs: inputs))
    }

    /// Sends the request, then says whether every standard is quoted word for word in the plan it left.
    public func run(_ run: CommandRun) async -> CommandOutcome {
        let (outcome, result) = await run.requestResult(refinement)
        guard result.first.status == .completed else { return outcome }
        let standards = StandardsAlignment.items(refinement.inputs.standards)
        let final = await run.engine.state.current?.text ?? result.first.text
        let missing = StandardsAlignment.unquoted(standards, in: final)
        if missing.isEmpty {
            run.host.show(StyledText("✓ Every standard is quoted word for word."))
        } else {
            for standard in missing { run.host.show(StyledText("✗ Not quoted word for word: “\(standard)”")) }
        }
        return outcome
    }
}
