import Foundation

/// `/quit`: leave; everything is already saved.
package struct QuitCommand: Command, Equatable {
    package static let name = "quit"
    package static let usage = "/quit"
    package static let summary = "leave (Ctrl-D too); the session is already saved"
    package static let needsPlan = false

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        CommandOutcome(status: .quit)
    }
}
