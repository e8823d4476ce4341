import Foundation
import LessonPlanCore

/// `/regrade <band>`: the same lesson for another grade band.
package struct RegradeCommand: RequestCommand, Equatable {
    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static let name = "regrade"
    package static let templates = ["regrade", "level"]
    package static let usage = "/regrade <band>"
    package static let summary = "rewrite for another grade band: objective, vocabulary, tasks, examples, questions"
    package static let details = "The band is written as K–2, 3–5, 6–8 or 9–12 (3-5, 3 to 5 or a single grade such as 4 work too)."
    package static var argumentCompletions: [String] { GradeBand.allCases.map(\.rawValue) }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
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
