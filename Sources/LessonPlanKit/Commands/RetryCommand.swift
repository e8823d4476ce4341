import Foundation

/// `/retry`: send the last request again after it failed, was cancelled or stopped early.
public struct RetryCommand: Command, Equatable {
    public static let name = "retry"
    public static let asksTheModel = true
    public static let usage = "/retry"
    public static let summary = "send the last request again after it failed, was cancelled or stopped early"
    public static let details =
        "The same prompt goes out again, built from the same plan version; nothing is retried automatically once text has been shown."
    public static let needsPlan = false

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        guard context.retryCommand != nil else {
            throw CommandError("Nothing to retry: the last request completed (or none was sent yet).")
        }
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        await run.single { engine, progress in await engine.retry(progress: progress) }
    }
}
