import Foundation
import LessonPlanKit

/// `lessonplan generate`: one plan and its `--then` refinements, no questions asked.
struct OneShot {
    let app: App
    var console: Console { app.console }

    static let flags = Flags.lesson + Flags.connection + Flags.common + [
        FlagSpec(name: "then", value: "COMMAND", help: "", repeatable: true)
    ]

    func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        let engine: SessionEngine
        let steps: [String]
        do {
            parsed = try ParsedArguments.parse(arguments, specs: Self.flags, command: "generate")
            if parsed.has("help") {
                console.out(Help.subcommand("generate") ?? "")
                return 0
            }
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "generate: unexpected “\(parsed.positionals[0])”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            steps = try checkedSteps(parsed.all("then"))
            let (settings, prompts) = try app.settings(from: parsed)
            let inputs = try app.inputs(from: parsed, ask: nil)
            engine = try makeEngine(inputs: inputs, name: app.sessionName(parsed), settings: settings, prompts: prompts)
        } catch {
            console.error(error.message)
            return 2
        }
        let interrupts = Interrupts(whenIdle: {})
        let id = await engine.state.header.id
        for command in ["/generate"] + steps {
            let action: CommandAction
            do {
                action = try CommandTable.parse(command, context: await engine.state.commandContext)
            } catch {
                console.error("\(command): \(error.message)")
                return 1
            }
            switch action {
            case .refine, .retry, .continueDraft:
                let turn: Turn
                switch action {
                case .refine(let refinement): turn = .command(command, refinement)
                case .retry: turn = .retry
                default: turn = .continueDraft
                }
                console.note("→ \(command)")
                // Only the final plan goes to stdout; waits and warnings go to stderr as they happen.
                let outcome = await interrupts.run {
                    await turn.run(on: engine) { [console] progress in
                        switch progress {
                        case .notice(let message): console.note(message)
                        case .retrying(let wait): console.note(wait.description)
                        case .waiting, .text: break
                        }
                    }
                }
                let current = await engine.state.currentVersion
                console.note(Footer.text(for: outcome, currentVersion: current))
                guard outcome.status == .completed else {
                    console.error(outcome.message ?? "The turn did not complete.")
                    console.note("Session \(id.prefix(8)) is saved; `lessonplan resume \(id.prefix(8))` continues it.")
                    return 1
                }
            case .undo:
                do { try await engine.undo() } catch {
                    console.error("\(command): \(error.localizedDescription)")
                    return 1
                }
            default:
                break
            }
        }
        if let plan = await engine.state.current?.text {
            console.out(plan.hasSuffix("\n") ? plan : plan + "\n")
        }
        console.note("Saved session \(id.prefix(8)); `lessonplan resume \(id.prefix(8))` continues it.")
        return 0
    }

    /// Rejects `--then` commands that can never work before any request is paid for.
    private func checkedSteps(_ steps: [String]) throws(UsageError) -> [String] {
        for step in steps {
            let trimmed = step.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("/") else { continue }
            let name = String(trimmed.dropFirst().prefix { !$0.isWhitespace })
            guard CommandTable.command(named: name) != nil else {
                throw UsageError(message: "--then “\(step)”: /\(name) is not a command; run `lessonplan help` to list them.")
            }
        }
        return steps
    }

    private func makeEngine(inputs: LessonInputs, name: String?, settings: ResolvedSettings, prompts: PromptLibrary)
        throws(UsageError) -> SessionEngine
    {
        do {
            return try SessionEngine(
                newSessionWith: inputs, name: name, store: SessionStore(directory: settings.dataDirectory),
                prompts: prompts, client: app.client(for: settings), toolVersion: App.version)
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
    }
}

extension Error {
    /// The one sentence to show for any error this tool raises.
    var message: String {
        if let usage = self as? UsageError { return usage.message }
        return (self as? LocalizedError)?.errorDescription ?? String(describing: self)
    }
}

/// One turn the executable asks the engine for, whichever way it was typed.
enum Turn: Sendable {
    /// A slash command or free-form request, as typed, with what it asks for.
    case command(String, Refinement)
    case retry
    case continueDraft

    func run(on engine: SessionEngine, progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        switch self {
        case .command(let line, let refinement): await engine.run(command: line, refinement: refinement, progress: progress)
        case .retry: await engine.retry(progress: progress)
        case .continueDraft: await engine.continueDraft(progress: progress)
        }
    }
}
