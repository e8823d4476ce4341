import Foundation
import LessonPlanKit

/// `lessonplan generate`: one plan and its `--then` refinements, no questions asked.
struct OneShot {
    let app: App
    var console: Console { app.console }

    static let flags = Flags.lesson + Flags.framework + Flags.followUps + Flags.connection + Flags.common + [
        FlagSpec(name: "then", value: "COMMAND", help: "", repeatable: true)
    ]

    func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        let engine: SessionEngine
        let steps: [String]
        do {
            parsed = try ParsedArguments.parse(arguments, specs: Self.flags, command: "generate")
            if parsed.has("help") {
                console.prose(Help.subcommand("generate") ?? "")
                return 0
            }
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "generate: unexpected “\(parsed.positionals[0])”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            steps = try checkedSteps(parsed.all("then"))
            let (settings, prompts) = try app.settings(from: parsed)
            let inputs = try app.inputs(from: parsed, ask: nil)
            let framework = try app.framework(from: parsed, prompts: prompts)
            engine = try makeEngine(
                inputs: inputs, name: app.sessionName(parsed), settings: settings, prompts: prompts, framework: framework)
        } catch {
            console.error(error.message)
            return 2
        }
        let interrupts = Interrupts(whenIdle: {})
        let id = await engine.state.header.id
        let options = Flags.followUps(from: parsed)
        var handouts: String?
        for command in ["/generate"] + steps {
            let action: CommandAction
            do {
                action = try CommandTable.parse(command, context: await engine.commandContext)
            } catch {
                console.error("\(command): \(error.message)")
                return 1
            }
            let console = self.console
            switch action {
            case .refine(let refinement):
                console.note("→ \(command)")
                let result = await interrupts.run {
                    await engine.request(command: command, refinement: refinement, options: options) { update in
                        Self.report(update, console: console)
                    }
                }
                if let levels = Footer.levels(before: result.levelBefore, after: result.levelAfter) {
                    console.note(levels)
                }
                guard result.first.status == .completed else {
                    console.error(result.first.message ?? "The turn did not complete.")
                    console.note("Session \(id.prefix(8)) is saved; `lessonplan resume \(id.prefix(8))` continues it.")
                    return 1
                }
                handouts = refinement.kind == .materials ? result.first.text : nil
            case .retry, .continueDraft:
                let turn: Turn
                if case .retry = action { turn = .retry } else { turn = .continueDraft }
                console.note("→ \(command)")
                let outcome = await interrupts.run {
                    let outcome = await turn.run(on: engine) { progress in Self.report(.turn(progress), console: console) }
                    Self.report(.ended(outcome), console: console)
                    return outcome
                }
                guard outcome.status == .completed else {
                    console.error(outcome.message ?? "The turn did not complete.")
                    console.note("Session \(id.prefix(8)) is saved; `lessonplan resume \(id.prefix(8))` continues it.")
                    return 1
                }
                handouts = nil
            case .repair:
                console.note("→ \(command)")
                let outcome = await interrupts.run {
                    await engine.repair(command: command) { update in Self.report(update, console: console) }
                }
                if outcome == nil { console.note("The plan passes the check; there is nothing to repair.") }
                handouts = nil
            case .undo:
                do { try await engine.undo() } catch {
                    console.error("\(command): \(error.localizedDescription)")
                    return 1
                }
                handouts = nil
            default:
                break
            }
        }
        // The result of the last step: the handouts when it was /materials, else the current plan.
        let plan = await engine.state.current?.text
        if let text = handouts ?? plan {
            console.out(text.hasSuffix("\n") ? text : text + "\n")
        }
        // The plan is printed either way; a session that could not be written is not reported saved.
        if await engine.unsavedRecords > 0 {
            do { try await engine.save() } catch {
                console.error(error.message)
                console.error("Session \(id.prefix(8)) is missing its last change(s), which could not be written; the plan above is the only copy.")
                return 1
            }
        }
        console.note("Saved session \(id.prefix(8)); `lessonplan resume \(id.prefix(8))` continues it.")
        return 0
    }

    /// Progress goes to stderr so stdout holds only the final plan: footers, problems, follow-ups.
    private static func report(_ update: RequestProgress, console: Console) {
        switch update {
        case .turn(.notice(let message)): console.note(message)
        case .turn(.retrying(let wait)): console.note(wait.description)
        case .turn: break
        case .ended(let outcome):
            for line in Footer.lines(for: outcome) { console.note(line) }
        case .followUp(let followUp):
            console.note(Footer.text(for: followUp))
        }
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

    private func makeEngine(
        inputs: LessonInputs, name: String?, settings: ResolvedSettings, prompts: PromptLibrary, framework: String
    ) throws(UsageError) -> SessionEngine {
        do {
            return try SessionEngine(
                newSessionWith: inputs, name: name, store: SessionStore(directory: settings.dataDirectory),
                prompts: prompts, client: app.client(for: settings), toolVersion: App.version, framework: framework)
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

/// A turn that repeats or finishes an earlier one rather than sending a new command.
enum Turn: Sendable {
    case retry
    case continueDraft

    func run(on engine: SessionEngine, progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        switch self {
        case .retry: await engine.retry(progress: progress)
        case .continueDraft: await engine.continueDraft(progress: progress)
        }
    }
}
