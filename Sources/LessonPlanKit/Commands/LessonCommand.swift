import Foundation
import LessonPlanCore

/// `/lesson N`: in a unit, makes lesson N the current plan, so every other command (`/shorten`, `/quiz`,
/// `/export` …) works on that lesson alone; `resume` reopens at it.
package struct LessonCommand: Command, Equatable {
    package static let name = "lesson"
    package static let usage = "/lesson N"
    package static let summary = "in a unit: make lesson N the current plan and print it"
    package static let details =
        "Every command then works on lesson N; the other lessons keep their versions. /unit lists the lessons."
    package static let needsPlan = false

    package let number: Int

    package init(number: Int) {
        self.number = number
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard let total = context.unitLessons else {
            throw CommandError("This session is a single lesson, not a unit; /unit N writes a unit of N lessons.")
        }
        guard let number = Int(arguments.trimmingCharacters(in: .whitespaces)), (1...total).contains(number) else {
            throw CommandError("The unit has lessons 1 to \(total); type /lesson followed by one of them, e.g. /lesson 2.")
        }
        return Self(number: number)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        do {
            let version = try await run.engine.selectLesson(number)
            let title = await run.engine.state.unit.flatMap { $0.outline.indices.contains(number - 1) ? $0.outline[number - 1].title : nil } ?? ""
            run.host.note(StyledText("Lesson \(number): \(TerminalSanitizer.cleanLine(title, limit: 120)) is the current plan."))
            run.host.show(ShowCommand.render(version))
            run.host.deliver(.plan)
            return .done
        } catch {
            run.host.error(error.message)
            return .failed
        }
    }
}
