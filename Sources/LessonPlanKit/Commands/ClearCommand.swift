import Foundation

/// `/clear`: clears the screen as Ctrl-L does; `clear` and `cls` typed alone run it, never a revision.
public struct ClearCommand: Command, Equatable {
    public static let name = "clear"
    public static let usage = "/clear"
    public static let summary = "clear the screen (Ctrl-L too; `clear` and `cls` alone do the same)"
    public static let needsPlan = false

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        run.host.clearScreen()
        return .done
    }
}
