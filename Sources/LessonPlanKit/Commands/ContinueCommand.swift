import Foundation

/// `/continue`: finish a plan that stopped at the output limit, joining the two parts into one version.
package struct ContinueCommand: Command, Equatable {
    package static let name = "continue"
    package static let asksTheModel = true
    package static let templates = ["continue"]
    package static let usage = "/continue"
    package static let summary = "finish a plan that stopped early (at the output limit) from where it stopped"
    package static let details =
        "The model is shown the draft and asked to write only the rest; draft and rest become one new version."
    package static let needsPlan = false

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        // In a unit with lessons still missing (after Ctrl-C, say), /continue writes them.
        guard context.draftCommand != nil || !context.lessonsMissing.isEmpty else {
            throw CommandError("Nothing to continue: /continue finishes a plan that stopped early, and the last answer did not.")
        }
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        if await run.engine.state.draft == nil, !(await run.engine.state.lessonsMissing.isEmpty) {
            return await UnitCommand.writeLessons(await run.engine.state.lessonsMissing, run: run)
        }
        return await run.single { engine, progress in await engine.continueDraft(progress: progress) }
    }
}
