import Foundation
import LessonPlanCore

/// `/undo`: back to the version the current one was made from.
package struct UndoCommand: Command, Equatable {
    package static let name = "undo"
    package static let usage = "/undo"
    package static let summary = "go back to the previous version (kept in the transcript)"

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        do {
            let target = try await run.engine.undo()
            // Automatic turns are recorded as "(auto repair)"; do not wrap them in a second pair.
            let command = target.command.hasPrefix("(") ? String(target.command.dropFirst().dropLast()) : target.command
            run.host.show(StyledText("Back to v\(target.number) (\(TerminalSanitizer.cleanLine(command, limit: 60))); /show prints it."))
            run.host.deliver(.plan)
            return .done
        } catch {
            run.host.error(error.message)
            return .failed
        }
    }
}
