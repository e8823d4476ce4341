import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import Terminal

#if canImport(Glibc)
    import Glibc
#endif

/// The REPL: writes the first plan, then reads commands until /quit or Ctrl-D. At a terminal it
/// reads line by line; from a pipe or file it reads the whole script, checks every line, then runs them.
final class InteractiveSession: @unchecked Sendable {
    let app: App
    var console: Console { app.console }
    private var lastInterrupt: Date?
    /// Whether the teacher was told that quitting now loses changes a full disk kept in memory.
    private var warnedUnsaved = false
    /// Whether Ctrl-C ended a question before the session began.
    private var interruptedAtQuestion = false

    init(app: App) { self.app = app }

    /// `lessonplan` without a subcommand, with the flags ``SubcommandTable/session`` declares.
    func run(_ parsed: ParsedArguments) async -> Int32 {
        let settings: ResolvedSettings
        let prompts: PromptLibrary
        let framework: String
        let sources: [SourceDocument]
        do {
            if let extra = parsed.positionals.first {
                throw UsageError(message: "Unexpected “\(extra)”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            (settings, prompts) = try app.invocation.settings(from: parsed)
            framework = try app.invocation.framework(from: parsed, prompts: prompts)
            sources = try await Flags.sources(from: parsed, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        } catch {
            console.error(error.message)
            return 2
        }
        // As gh checks its auth first: without a key, say so and how to get one before any question,
        // and write no session that could never get a plan.
        if settings.model.lacksKey {
            console.note(SessionAdvice.noKeyWaysOn(settingsFile: SettingsFile.location(environment: app.environment).path))
            return 1
        }
        let directory = settings.dataDirectory
        try? directory.prepare()
        let reader = lineReader(historyFile: directory.historyFile, frameworks: prompts.frameworkNames)
        let atTerminal = console.stdinIsTTY

        let inputs: LessonInputs
        let name: String?
        let script: [String]?
        let client: ModelClient
        // Heard from before the first question: a Ctrl-C in the moment before the line editor has the terminal
        // ends the run with 130 as one at the question does, never by the signal.
        let interrupts = sessionInterrupts()
        do {
            name = try app.invocation.sessionName(parsed)
            // Questions are asked only at a terminal; a script gets the defaults, so its first line stays a command.
            let ask: ((Question) throws(UsageError) -> String)? =
                atTerminal ? { question throws(UsageError) in try self.ask(question, reader: reader) } : nil
            inputs = try app.invocation.inputs(from: parsed, ask: ask)
            client = try app.invocation.sessionClient(for: settings, parsed: parsed, inputs: inputs, prompts: prompts, ask: ask)
            script = try checkedScript(reader)
        } catch {
            if !error.message.isEmpty { console.error(error.message) }
            if interruptedAtQuestion {
                console.line()
                return 130
            }
            return error.message.isEmpty ? 0 : 2
        }
        let engine: SessionEngine
        do {
            engine = try SessionEngine(
                newSessionWith: inputs, name: name, store: SessionStore(directory: directory), prompts: prompts,
                client: client, toolVersion: App.version, framework: framework)
        } catch {
            console.error(error.message)
            return 1
        }
        for source in sources { await engine.addSource(source) }
        let model = await engine.client.settings
        if model.isLocal { console.note(console.dim(SessionAdvice.offlineIntro(model: model.model))) }
        let runner = makeRunner(
            engine: engine, reader: reader, followUps: Flags.followUps(from: parsed), sendsNamesAsTyped: parsed.has("yes"),
            interrupts: interrupts)
        await runner.run("/generate")
        if atTerminal, await engine.state.current != nil {
            console.note(console.dim("Type /help for commands, or a plain sentence to revise the plan."))
        }
        return atTerminal ? await loop(runner, reader: reader) : await play(script, reader: reader, runner: runner)
    }

    /// `lessonplan resume <session>`: the REPL at the session's current version, undo and history intact.
    func resume(_ parsed: ParsedArguments) async -> Int32 {
        let engine: SessionEngine
        let reader: any LineReader
        let script: [String]?
        do {
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: "resume needs one session: an id, an id prefix or a name (see `lessonplan sessions`).")
            }
            var (settings, prompts) = try app.invocation.settings(from: parsed)
            let store = SessionStore(directory: settings.dataDirectory)
            // A transcript from elsewhere (one someone sent) goes on as a copy in the data directory.
            let imported = try store.importIfOutside(try store.locate(parsed.positionals[0]))
            if let note = imported.note { console.note(note) }
            let url = imported.url
            // Without --model the session goes on with the model it was started with.
            if parsed.value("model") == nil, let session = TranscriptReader.header(of: url) {
                settings.model.model = session.model
            }
            engine = try SessionEngine(resuming: url, store: store, prompts: prompts, client: app.invocation.client(for: settings))
            reader = lineReader(historyFile: settings.dataDirectory.historyFile, frameworks: prompts.frameworkNames)
            script = try checkedScript(reader)
        } catch {
            console.error(error.message)
            return 2
        }
        for warning in engine.openingWarnings { console.note(warning) }
        let state = await engine.state
        // The sources come from the transcript; say when a file on disk is no longer the one kept.
        for note in state.sources.compactMap({ $0.fileOnDiskNote() }) { console.note(note) }
        let lacksKey = await engine.client.settings.lacksKey
        if lacksKey {
            console.note(
                SessionAdvice.noKeyWaysOn(settingsFile: SettingsFile.location(environment: app.environment).path, resuming: state))
        }
        console.note(SessionReview.resumeNote(state, canSend: !lacksKey))
        if let current = state.current { console.line(ShowCommand.render(current)) }
        let runner = makeRunner(
            engine: engine, reader: reader, followUps: Flags.followUps(from: parsed, saved: state.automaticRepair))
        return console.stdinIsTTY ? await loop(runner, reader: reader) : await play(script, reader: reader, runner: runner)
    }

    private func lineReader(historyFile: URL, frameworks: [String]) -> any LineReader {
        makeLineReader(historyFile: console.stdinIsTTY ? historyFile : nil) { line in
            CommandTable.completions(for: line, frameworks: frameworks)
        }
    }

    /// Ctrl-C as the session hears it outside a turn: at a terminal prompt it is a key, so this is reached only
    /// with piped input, or in the moment before the line editor has the terminal.
    private func sessionInterrupts() -> Interrupts {
        Interrupts(whenIdle: { [console] in
            console.note("Interrupted.")
            exit(130)
        })
    }

    private func makeRunner(
        engine: SessionEngine, reader: any LineReader, followUps: FollowUpOptions, sendsNamesAsTyped: Bool = false,
        interrupts: Interrupts? = nil
    ) -> CommandRunner {
        let interrupts = interrupts ?? sessionInterrupts()
        let host = ConsoleHost(
            place: console.stdinIsTTY ? .terminal : .script, console: console, interrupts: interrupts,
            environment: app.environment, reader: reader)
        return CommandRunner(engine: engine, host: host, settings: SessionSettings(followUps: followUps, sendsNamesAsTyped: sendsNamesAsTyped))
    }

    /// A script in a file (`lessonplan … < lesson.txt`), read whole and checked before anything is
    /// sent: a line that names no command, or needs a terminal, stops the run before a request is paid
    /// for. A pipe is not read ahead (the program writing it may wait for answers); its lines are
    /// checked one by one as they arrive, before each runs.
    /// - Returns: the script's lines, or nil when stdin is a terminal or a pipe.
    private func checkedScript(_ reader: any LineReader) throws(UsageError) -> [String]? {
        var status = stat()
        guard !console.stdinIsTTY, fstat(0, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var lines: [String] = []
        while case .line(let line) = reader.readLine(prompt: "") {
            if !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { lines.append(line) }
        }
        let problems = CommandRunner.precheck(lines, place: .script)
        guard problems.isEmpty else {
            throw UsageError(message: (problems + ["Nothing was sent; fix the script and run it again."]).joined(separator: "\n"))
        }
        return lines
    }

    /// Runs a script line by line; a failed line does not stop the rest, but the exit status says so.
    private func play(_ script: [String]?, reader: any LineReader, runner: CommandRunner) async -> Int32 {
        var remaining = script ?? []
        while true {
            let line: String
            if script != nil {
                guard !remaining.isEmpty else { break }
                line = remaining.removeFirst()
            } else {
                guard case .line(let next) = reader.readLine(prompt: "") else { break }
                line = next
            }
            guard !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            if await runner.run(line).status == .quit { break }
        }
        let left = await leave(runner.engine, again: true) ?? 1
        return left != 0 ? left : runner.exitStatus
    }

    /// Asks for one missing input until the answer is valid.
    private func ask(_ question: Question, reader: any LineReader) throws(UsageError) -> String {
        if let preamble = question.preamble { console.note(preamble) }
        while true {
            switch reader.readLine(prompt: question.prompt) {
            case .cleared:
                continue
            case .endOfInput:
                throw UsageError(message: "")
            case .interrupted:
                // Ctrl-C ends the run as an interrupt, exit status 130, as everywhere else.
                interruptedAtQuestion = true
                throw UsageError(message: "")
            case .line(let text):
                let answer = text.trimmingCharacters(in: .whitespaces).isEmpty ? (question.defaultAnswer ?? "") : text
                do {
                    try question.check(answer)
                    return answer
                } catch {
                    console.error(error.message)
                }
            }
        }
    }

    private func loop(_ runner: CommandRunner, reader: any LineReader) async -> Int32 {
        let engine = runner.engine
        while true {
            let state = await engine.state
            switch reader.readLine(prompt: ReplInput.prompt(state)) {
            case .endOfInput:
                console.line()
                return await leave(engine, again: true) ?? 1
            case .interrupted:
                if let last = lastInterrupt, Date().timeIntervalSince(last) < 2 {
                    if let status = await leave(engine, again: false) { return status }
                    continue
                }
                lastInterrupt = Date()
                console.note(console.dim("(Ctrl-C again or Ctrl-D to quit)"))
            case .cleared:
                // Ctrl-C on a line with text clears it, as in bash; only an empty prompt counts toward quitting.
                lastInterrupt = nil
            case .line(let input):
                lastInterrupt = nil
                guard !input.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
                for line in commands(in: input, reader: reader) {
                    let outcome = await runner.run(line)
                    if outcome.status == .quit {
                        if let status = await leave(engine, again: false) { return status }
                        break
                    }
                    if outcome.status == .failed { break }
                }
            }
        }
    }

    /// The commands in one input: itself, unless it is a paste of several slash commands, which
    /// run one after another only when the teacher says so (each may be a paid request).
    private func commands(in input: String, reader: any LineReader) -> [String] {
        guard let lines = ReplInput.pastedCommands(in: input) else { return [input] }
        console.note("You pasted \(lines.count) commands: \(lines.joined(separator: ", ")).")
        let answer = reader.readLine(prompt: "Run them one after another? [y/N] ")
        if case .line(let typed) = answer, let sentence = ReplInput.commandAtQuestion(typed) { console.note(sentence) }
        guard case .line(let typed) = answer, ReplInput.isYes(typed) else {
            console.line("Nothing sent.")
            return []
        }
        return lines
    }

    /// Ends the session, unless changes are still unwritten: those are written if the disk
    /// allows; if not, at a terminal the first /quit only warns, and otherwise the exit is 1.
    /// - Parameter again: whether there is no second chance (input ended).
    /// - Returns: the exit status, or nil to stay in the session.
    private func leave(_ engine: SessionEngine, again: Bool) async -> Int32? {
        let unsaved = await engine.unsavedRecords
        guard unsaved > 0 else {
            farewell(await engine.state)
            return 0
        }
        if (try? await engine.save()) != nil {
            console.note("Written now: the \(counted(unsaved, "change")) that could not be saved before; nothing is lost.")
            farewell(await engine.state)
            return 0
        }
        let reason = await engine.saveProblem.map { " (\($0.message))" } ?? ""
        let path = engine.transcriptURL.path
        if console.stdinIsTTY, !again, !warnedUnsaved {
            warnedUnsaved = true
            console.error(
                "Could not write \(counted(unsaved, "change")) to \(path), lost if you quit now; free some space and type /save, or /export md FILE to keep the plan elsewhere, or /quit again to leave without them."
            )
            return nil
        }
        console.error("Could not write \(counted(unsaved, "change")) to \(path)\(reason); \(unsaved == 1 ? "it is" : "they are") lost.")
        return 1
    }

    private func farewell(_ state: SessionState) {
        guard console.stdinIsTTY else { return }
        let id = state.header.id.prefix(8)
        console.note(console.dim("Session \(id) is saved; `lessonplan resume \(id)` continues it."))
    }
}
