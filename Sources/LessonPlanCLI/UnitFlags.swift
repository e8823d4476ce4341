import Foundation
import LessonPlanCore
import LessonPlanKit

extension Flags {
    /// The flag only `lessonplan unit` has.
    package static let unit: [FlagSpec] = [
        FlagSpec(name: "lessons", value: "N", help: "how many lessons the unit has, 2 to 15 (each is --minutes long)")
    ]

    /// `--lessons N`, checked: the unit's size.
    /// - Throws: ``UsageError`` when it is missing or outside 2–15.
    package static func lessons(from parsed: ParsedArguments) throws(UsageError) -> Int {
        guard let text = parsed.value("lessons") else {
            throw UsageError(message: "unit: --lessons is required, e.g. --lessons 5 (a unit has 2 to 15 lessons).")
        }
        guard let count = Int(text.trimmingCharacters(in: .whitespaces)), UnitPlan.lessonRange.contains(count) else {
            throw UsageError(message: "unit: --lessons must be a number from 2 to 15, e.g. --lessons 5.")
        }
        return count
    }
}
