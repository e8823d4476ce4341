import Foundation
import LessonPlanCore

/// `/lengthen [minutes]`: the same lesson with more time.
public struct LengthenCommand: RequestCommand, Equatable {
    public let refinement: Refinement

    public init(refinement: Refinement) { self.refinement = refinement }

    public static let name = "lengthen"
    public static let templates = ["lengthen"]
    public static let usage = "/lengthen [minutes]"
    public static let summary = "the same lesson in more minutes (default: about half as long again)"
    public static let details =
        "Without a number the new length is one and a half times the current one, rounded to 5 and at most 180."

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
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
