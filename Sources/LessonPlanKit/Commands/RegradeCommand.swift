import Foundation
import LessonPlanCore

/// `/regrade <band>`: the same lesson for another grade band.
public struct RegradeCommand: RequestCommand, Equatable {
    public let refinement: Refinement

    public init(refinement: Refinement) { self.refinement = refinement }

    public static let name = "regrade"
    public static let templates = ["regrade", "level"]
    public static let usage = "/regrade <band>"
    public static let summary = "rewrite for another grade band: objective, vocabulary, tasks, examples, questions"
    public static let details = "The band is written as K–2, 3–5, 6–8 or 9–12 (3-5, 3 to 5 or a single grade such as 4 work too)."
    public static var argumentCompletions: [String] { GradeBand.allCases.map(\.rawValue) }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError("/regrade needs a grade band; type e.g. /regrade 3–5 (K–2, 3–5, 6–8 or 9–12).")
        }
        let (band, given): (GradeBand, Int?)
        do { (band, given) = try GradeBand.parseGiven(arguments) } catch { throw CommandError(error.message) }
        guard band != context.inputs.grade else {
            throw CommandError("The plan is already for grades \(band.rawValue); name another band.")
        }
        var inputs = context.inputs
        inputs.setGrade(band, given: given)
        return Self(refinement: Refinement(.revise(.regrade), inputs: inputs))
    }
}
