import Foundation
import LessonPlanCore

/// `/shorten [minutes]`: the same lesson in less time.
package struct ShortenCommand: RequestCommand, Equatable {
    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static let name = "shorten"
    package static let templates = ["shorten"]
    package static let usage = "/shorten [minutes]"
    package static let summary = "the same lesson in fewer minutes (default: about two thirds)"
    package static let details =
        "Without a number the new length is two thirds of the current one, rounded to 5 and at least 10. All headings stay and the pacing re-sums to the new length."

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let current = context.inputs.minutes
        let target: Int
        if arguments.isEmpty {
            target = max(LessonInputs.minutesRange.lowerBound, roundedToFive(Double(current) * 2 / 3))
        } else {
            do { target = try LessonInputs.parseMinutes(arguments) } catch { throw CommandError(error.message) }
        }
        guard target < current else {
            throw CommandError(
                current <= LessonInputs.minutesRange.lowerBound
                    ? "The lesson is already \(current) minutes, the shortest allowed."
                    : "/shorten needs fewer minutes than the current \(current); try /shorten \(max(10, current - 10)) or /lengthen \(target).")
        }
        var inputs = context.inputs
        inputs.minutes = target
        return Self(refinement: Refinement(.revise(.shorten), inputs: inputs))
    }
}
