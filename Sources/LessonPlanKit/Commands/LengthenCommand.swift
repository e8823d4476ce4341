import Foundation
import LessonPlanCore

/// `/lengthen [minutes]`: the same lesson with more time.
package struct LengthenCommand: RequestCommand, Equatable {
    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static let name = "lengthen"
    package static let templates = ["lengthen"]
    package static let usage = "/lengthen [minutes]"
    package static let summary = "the same lesson in more minutes (default: about half as long again)"
    package static let details =
        "Without a number the new length is one and a half times the current one, rounded to 5 and at most 180."

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let current = context.inputs.minutes
        let target: Int
        if arguments.isEmpty {
            target = min(LessonInputs.minutesRange.upperBound, roundedToFive(Double(current) * 1.5))
        } else {
            do { target = try LessonInputs.parseMinutes(arguments) } catch { throw CommandError(error.message) }
        }
        guard target > current else {
            throw CommandError(
                current >= LessonInputs.minutesRange.upperBound
                    ? "The lesson is already \(current) minutes, the longest allowed."
                    : "/lengthen needs more minutes than the current \(current); try /lengthen \(min(180, current + 15)) or /shorten \(target).")
        }
        var inputs = context.inputs
        inputs.minutes = target
        return Self(refinement: Refinement(.revise(.lengthen), inputs: inputs))
    }
}
