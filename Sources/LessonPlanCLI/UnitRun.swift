import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Terminal

/// `lessonplan unit`: a unit of lessons in one saved session, no questions asked: the overview, then each lesson
/// as a whole plan, progress on stderr and the overview with each lesson's check on stdout.
struct UnitRun {
    let app: App
    var console: Console { app.console }

    /// Runs what ``SubcommandTable`` parsed with the flags it declares for `unit`.
    func run(_ parsed: ParsedArguments) async -> Int32 {
        let engine: SessionEngine
        let lessons: Int
        let sources: [SourceDocument]
        do {
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "unit: unexpected “\(parsed.positionals[0])”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            lessons = try Flags.lessons(from: parsed)
            let (settings, prompts) = try app.invocation.settings(from: parsed)
            if settings.model.lacksKey {
                console.note(SessionAdvice.noKeyWaysOn(settingsFile: SettingsFile.location(environment: app.environment).path))
                return 1
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
            return 2
        }
        for source in sources { await engine.addSource(source) }
        let model = await engine.client.settings
        if model.isLocal { console.note(SessionAdvice.offlineIntro(model: model.model)) }
        let host = ConsoleHost(place: .then, console: console, interrupts: Interrupts(whenIdle: {}), environment: app.environment)
        let runner = CommandRunner(
            engine: engine, host: host, settings: SessionSettings(followUps: Flags.followUps(from: parsed), sendsNamesAsTyped: parsed.has("yes")))
        let id = await engine.state.header.id.prefix(8)
        let outcome = await runner.run("/unit \(lessons)")
        if await engine.unsavedRecords > 0 {
            do { try await engine.save() } catch {
                console.error(error.message)
                console.error("Session \(id) is missing its last changes, which could not be written.")
                return 1
            }
        }
        if await engine.state.unit != nil { console.line(await UnitCommand.view(engine)) }
        guard outcome.status == .done else {
            let missing = await engine.state.lessonsMissing
            if await engine.state.unit != nil, !missing.isEmpty {
                console.note("Session \(id) is saved with the lessons written so far; `lessonplan resume \(id)` and then /continue writes the rest.")
            } else {
                console.note(
                    "Session \(id) is saved, but nothing was written as a unit; `lessonplan sessions prune` removes it, or run `lessonplan unit` again."
                )
            }
            return 1
        }
        console.note("Saved session \(id); `lessonplan resume \(id)` reopens it, and /lesson N makes lesson N the current plan.")
        return console.outputFailed ? 1 : 0
    }
}
