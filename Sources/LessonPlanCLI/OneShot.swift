import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Terminal

/// `lessonplan generate`: one plan and its `--then` commands, no questions asked. Every step is
/// checked before the first request; the run stops at the first step that fails and exits 1.
struct OneShot {
    let app: App
    var console: Console { app.console }

    /// Runs what ``SubcommandTable`` parsed with the flags it declares for `generate`.
    func run(_ parsed: ParsedArguments) async -> Int32 {
        let engine: SessionEngine
        let steps: [String]
        let sources: [SourceDocument]
        do {
            guard parsed.positionals.isEmpty else {
                throw UsageError(
                    message: "generate: unexpected “\(parsed.positionals[0])”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            steps = parsed.all("then")
            let problems = CommandRunner.precheck(steps, place: .then)
            guard problems.isEmpty else {
                throw UsageError(message: problems.map { "--then \($0)" }.joined(separator: "\n") + "\nNothing was sent.")
            }
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
        for step in ["/generate"] + steps {
            console.note("→ \(TerminalSanitizer.cleanLine(step, limit: 80))")
            let outcome = await runner.run(step)
            if outcome.status == .quit { break }
            if outcome.status == .failed {
                console.note(
                    "Stopped at “\(TerminalSanitizer.cleanLine(step, limit: 60))”; session \(id) is saved and `lessonplan resume \(id)` continues it."
                )
                return 1
            }
        }
        // The result of the last step that made one: an export without a file, handouts, a quiz or rubric, else the plan.
        switch host.product {
        case .document(let data, let format):
            console.document(data, format: format)
        case .text(let text):
            console.out(text.hasSuffix("\n") ? text : text + "\n")
        case .plan, nil:
            if let plan = await engine.state.current?.text { console.out(plan.hasSuffix("\n") ? plan : plan + "\n") }
        }
        // The plan is printed either way; a session that could not be written is not reported saved.
        if await engine.unsavedRecords > 0 {
            do { try await engine.save() } catch {
                console.error(error.message)
                console.error("Session \(id) is missing its last changes, which could not be written; the plan above is the only copy.")
                return 1
            }
        }
        console.note("Saved session \(id); `lessonplan resume \(id)` continues it.")
        return console.outputFailed ? 1 : 0
    }
}
