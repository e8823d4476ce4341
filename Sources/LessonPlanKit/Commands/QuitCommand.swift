import Foundation

/// `/quit`: leave; everything is already saved.
public struct QuitCommand: Command, Equatable {
    public static let name = "quit"
    public static let usage = "/quit"
    public static let summary = "leave (Ctrl-D too); the session is already saved"
    public static let needsPlan = false

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        CommandOutcome(status: .quit)
    }
}
