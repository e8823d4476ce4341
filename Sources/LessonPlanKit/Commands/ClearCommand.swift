import Foundation

/// `/clear`: clears the screen as Ctrl-L does; `clear` and `cls` typed alone run it, never a revision.
package struct ClearCommand: Command, Equatable {
    package static let name = "clear"
    package static let usage = "/clear"
    package static let summary = "clear the screen (Ctrl-L too; `clear` and `cls` alone do the same)"
    package static let needsPlan = false

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        run.host.clearScreen()
        return .done
    }
}
