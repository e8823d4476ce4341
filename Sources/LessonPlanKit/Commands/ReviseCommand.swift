import Foundation
import LessonPlanCore

/// `/revise <text>`, and any line without a slash: a change asked for in the teacher's own words.
public struct ReviseCommand: RequestCommand, Equatable {
    public let refinement: Refinement

    public init(refinement: Refinement) { self.refinement = refinement }

    public static let name = "revise"
    public static let templates = ["revise"]
    public static let usage = "/revise <text>"
    public static let summary = "ask for any change in your own words"
    /// Longest request accepted, the same limit as the optional inputs.
    static let limit = LessonInputs.optionalFieldLimit

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError("/revise needs the change you want, e.g. /revise add a think-pair-share.")
        }
        guard arguments.count <= limit else {
            throw CommandError("That request is \(arguments.count) characters long; keep it to \(limit).")
        }
        return Self(refinement: Refinement(.revise(.revise), inputs: context.inputs, values: ["request": arguments]))
    }
}
