import Foundation
import LessonPlanCore

/// `/revise <text>`, and any line without a slash: a change asked for in the teacher's own words.
package struct ReviseCommand: RequestCommand, Equatable {
    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static let name = "revise"
    package static let templates = ["revise"]
    package static let usage = "/revise <text>"
    package static let summary = "ask for any change in your own words"
    /// Longest request accepted, the same limit as the optional inputs.
    static let limit = LessonInputs.optionalFieldLimit

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError("/revise needs the change you want, e.g. /revise add a think-pair-share.")
        }
        guard arguments.count <= limit else {
            throw CommandError("That request is \(arguments.count) characters long; keep it to \(limit).")
        }
        return Self(refinement: Refinement(.revise(.revise), inputs: context.inputs, values: ["request": arguments]))
    }
}
