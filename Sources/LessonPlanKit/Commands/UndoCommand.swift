import Foundation
import LessonPlanCore

/// `/undo`: back to the version the current one was made from.
public struct UndoCommand: Command, Equatable {
    public static let name = "undo"
    public static let usage = "/undo"
    public static let summary = "go back to the previous version (kept in the transcript)"

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
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
