import Foundation

extension SessionState {
    /// The command context for parsing what the teacher types next.
    package var commandContext: CommandContext {
        var context = CommandContext(
            inputs: currentInputs, currentVersion: currentVersion, versionCount: versions.count,
            framework: currentFramework, retryCommand: retryTarget?.command,
            draftCommand: draft?.command)
        context.unitLessons = unit?.lessons
        context.lessonsMissing = lessonsMissing
        return context
    }
}

extension SessionEngine {
    /// The command context for what the teacher types next, with the frameworks the templates offer.
    package var commandContext: CommandContext {
        var context = state.commandContext
        context.frameworks = prompts.frameworkNames
        context.canSend = !client.settings.lacksKey
        return context
    }
}
