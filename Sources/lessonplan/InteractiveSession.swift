import Foundation
import LessonPlanKit
import Synchronization

/// The REPL: writes the first plan, then reads slash commands until /quit or Ctrl-D.
final class InteractiveSession: @unchecked Sendable {
    let app: App
    var console: Console { app.console }
    private var lastInterrupt: Date?

    static let flags = Flags.lesson + Flags.connection + Flags.common

    init(app: App) { self.app = app }

    func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        let settings: ResolvedSettings
        let prompts: PromptLibrary
        do {
            parsed = try ParsedArguments.parse(arguments, specs: Self.flags, command: "lessonplan")
            if parsed.has("help") {
                console.out(Help.overview())
                return 0
            }
            if let extra = parsed.positionals.first {
                throw UsageError(message: "Unexpected “\(extra)”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            (settings, prompts) = try app.settings(from: parsed)
        } catch {
            console.error(error.message)
            return 2
        }
        let directory = settings.dataDirectory
        try? directory.prepare()
        let reader = makeLineReader(historyFile: console.stdinIsTTY ? directory.historyFile : nil) { line in
            CommandTable.completions(for: line)
        }

        let inputs: LessonInputs
        let name: String?
        do {
            name = try app.sessionName(parsed)
            inputs = try app.inputs(from: parsed) { question throws(UsageError) in
                try self.ask(question, reader: reader)
            }
        } catch {
            if !error.message.isEmpty { console.error(error.message) }
            return error.message.isEmpty ? 0 : 2
        }
        let engine: SessionEngine
        do {
            engine = try SessionEngine(
                newSessionWith: inputs, name: name, store: SessionStore(directory: directory), prompts: prompts,
                client: app.client(for: settings), toolVersion: App.version)
        } catch {
            console.error(error.message)
            return 1
        }
        let interrupts = Interrupts(whenIdle: { [console] in
            // Only reached when stdin is not a terminal: at a terminal prompt Ctrl-C is a key.
            console.note("Interrupted.")
            exit(130)
        })
        if settings.model.requiresKey, (settings.model.apiKey ?? "").isEmpty {
            console.error(ModelError.noKey.errorDescription ?? "")
        } else {
            await runTurn(
                .command("/generate", Refinement(template: "generate", inputs: inputs)), engine: engine,
                interrupts: interrupts)
        }
        return await loop(engine: engine, reader: reader, interrupts: interrupts)
    }

    /// Asks for one missing input until the answer is valid (on a terminal) or fails once (piped).
    private func ask(_ question: Question, reader: LineReader) throws(UsageError) -> String {
        while true {
            switch reader.readLine(prompt: question.prompt) {
            case .endOfInput, .interrupted:
                if !console.stdinIsTTY {
                    throw UsageError(message: "Input ended before the \(question) was given; pass --\(question) on the command line.")
                }
                throw UsageError(message: "")
            case .line(let text):
                let answer = text.trimmingCharacters(in: .whitespaces).isEmpty ? (question.defaultAnswer ?? "") : text
                do {
                    try question.check(answer)
                    return answer
                } catch {
                    if !console.stdinIsTTY { throw UsageError(message: error.message) }
                    console.error(error.message)
                }
            }
        }
    }

    private func loop(engine: SessionEngine, reader: LineReader, interrupts: Interrupts) async -> Int32 {
        while true {
            let state = await engine.state
            switch reader.readLine(prompt: promptText(state)) {
            case .endOfInput:
                if console.stdinIsTTY { console.line() }
                farewell(state)
                return 0
            case .interrupted:
                if let last = lastInterrupt, Date().timeIntervalSince(last) < 2 {
                    farewell(state)
                    return 0
                }
                lastInterrupt = Date()
                console.note(console.dim("(Ctrl-C again or Ctrl-D to quit)"))
            case .line(let line):
                lastInterrupt = nil
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let action: CommandAction
                do {
                    action = try CommandTable.parse(line, context: state.commandContext)
                } catch {
                    console.error(error.message)
                    continue
                }
                if await perform(action, line: line, engine: engine, interrupts: interrupts) == false {
                    farewell(await engine.state)
                    return 0
                }
            }
        }
    }

    /// Carries out one command; returns false when the session should end.
    private func perform(_ action: CommandAction, line: String, engine: SessionEngine, interrupts: Interrupts) async -> Bool {
        let state = await engine.state
        switch action {
        case .quit:
            return false
        case .help(let command):
            if let command, let text = try? CommandTable.helpText(for: command) {
                console.line(text)
            } else {
                console.line(CommandTable.helpText())
            }
        case .show(let number):
            guard let version = number.flatMap(state.version) ?? state.current else {
                console.error("There is no plan yet; type /generate to write one.")
                return true
            }
            console.line(console.dim("── v\(version.number) · \(version.command) · \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min"))
            console.out(version.text.hasSuffix("\n") ? version.text : version.text + "\n")
        case .history:
            console.out(History.render(state))
        case .undo:
            do {
                let target = try await engine.undo()
                console.line("Back to v\(target.number) (\(target.command)); /show prints it.")
            } catch {
                console.error(error.message)
            }
        case .refine(let refinement):
            await runTurn(.command(line.trimmingCharacters(in: .whitespaces), refinement), engine: engine, interrupts: interrupts)
        case .retry:
            await runTurn(.retry, engine: engine, interrupts: interrupts)
        case .continueDraft:
            await runTurn(.continueDraft, engine: engine, interrupts: interrupts)
        }
        return true
    }

    /// Streams one turn to the terminal and ends with the footer line.
    private func runTurn(_ turn: Turn, engine: SessionEngine, interrupts: Interrupts) async {
        let console = self.console
        let printed = Printed()
        let outcome = await interrupts.run {
            await turn.run(on: engine) { progress in
                switch progress {
                case .waiting: console.startWaiting("writing the plan…")
                case .text(let text):
                    printed.record(text)
                    console.out(text)
                case .notice(let message): console.note(message)
                case .retrying(let wait):
                    if printed.needsNewline { console.out("\n") }
                    console.note(wait.description)
                }
            }
        }
        console.stopWaiting()
        if printed.needsNewline { console.out("\n") }
        let state = await engine.state
        if outcome.status != .completed, let message = outcome.message {
            console.error(message)
        }
        if outcome.status != .failed || outcome.seconds > 0 {
            console.line(console.dim(Footer.text(for: outcome, currentVersion: state.currentVersion)))
        }
    }

    private func promptText(_ state: SessionState) -> String {
        let inputs = state.currentInputs
        let version = state.currentVersion.map { "v\($0)" } ?? "no plan"
        return "lessonplan [\(inputs.grade.rawValue) · \(inputs.minutes) min · \(version)]> "
    }

    private func farewell(_ state: SessionState) {
        guard console.stdinIsTTY else { return }
        let id = state.header.id.prefix(8)
        console.note(console.dim("Session \(id) is saved; `lessonplan resume \(id)` continues it."))
    }
}

/// Remembers whether streamed text ended mid-line, so the footer starts on its own line.
final class Printed: Sendable {
    private let last = Mutex<Character?>(nil)

    func record(_ text: String) {
        last.withLock { $0 = text.last ?? $0 }
    }

    var needsNewline: Bool {
        last.withLock { $0 != nil && $0 != "\n" }
    }
}

/// `/history`: one line per version, the current one marked.
enum History {
    static func render(_ state: SessionState) -> String {
        guard !state.versions.isEmpty else { return "No versions yet; type /generate to write the first plan.\n" }
        var lines: [String] = []
        for version in state.versions {
            let marker = version.number == state.currentVersion ? "→" : " "
            let from = version.parent.map { " (from v\($0))" } ?? ""
            lines.append(
                "\(marker) v\(version.number)  \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min  \(version.command)\(from)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
