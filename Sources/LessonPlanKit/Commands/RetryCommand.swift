import Foundation

/// `/retry`: send the last request again after it failed, was cancelled or stopped early.
package struct RetryCommand: Command, Equatable {
    package static let name = "retry"
    package static let asksTheModel = true
    package static let usage = "/retry"
    package static let summary = "send the last request again after it failed, was cancelled or stopped early"
    package static let details =
        "The same prompt goes out again, built from the same plan version; nothing is retried automatically once text has been shown."
    package static let needsPlan = false

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        guard context.retryCommand != nil else {
            throw CommandError("Nothing to retry: the last request completed (or none was sent yet).")
        }
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        await run.single { engine, progress in await engine.retry(progress: progress) }
    }
}
