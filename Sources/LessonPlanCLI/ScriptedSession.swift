import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Terminal

/// A new session run without questions (`generate`, `unit`): the engine made from the flags, the sources they name
/// added, and a runner whose host is the terminal as a script sees it.
struct ScriptedSession {
    let engine: SessionEngine
    let host: ConsoleHost
    let runner: CommandRunner

    /// What starting one came to: the session, or the exit status after the sentence that says why not.
    enum Start {
        case ready(ScriptedSession)
        case exit(Int32)
    }

    /// Makes the session from `parsed`: 1 without a key (with the ways to set one), 2 for flags that cannot be used.
    static func start(_ parsed: ParsedArguments, app: App) async -> Start {
        let console = app.console
        let engine: SessionEngine
        let sources: [SourceDocument]
        do {
            let (settings, prompts) = try app.invocation.settings(from: parsed)
            if settings.model.lacksKey {
                console.note(SessionAdvice.noKeyWaysOn(settingsFile: SettingsFile.location(environment: app.environment).path))
                return .exit(1)
            }
            let inputs = try app.invocation.inputs(from: parsed, ask: nil)
            let framework = try app.invocation.framework(from: parsed, prompts: prompts)
            sources = try await Flags.sources(from: parsed, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            engine = try SessionEngine(
                newSessionWith: inputs, name: app.invocation.sessionName(parsed), store: SessionStore(directory: settings.dataDirectory),
                prompts: prompts, client: try app.invocation.sessionClient(for: settings, parsed: parsed, inputs: inputs, prompts: prompts, ask: nil),
                toolVersion: App.version, framework: framework)
        } catch {
            console.error(error.message)
            return .exit(2)
        }
        for source in sources { await engine.addSource(source) }
        let model = await engine.client.settings
        if model.isLocal { console.note(SessionAdvice.offlineIntro(model: model.model)) }
        let host = ConsoleHost(place: .then, console: console, interrupts: Interrupts(whenIdle: {}), environment: app.environment)
        let runner = CommandRunner(
            engine: engine, host: host, settings: SessionSettings(followUps: Flags.followUps(from: parsed), sendsNamesAsTyped: parsed.has("yes")))
        return .ready(ScriptedSession(engine: engine, host: host, runner: runner))
    }
}
