import Foundation
import LessonPlanKit
import Synchronization

/// The REPL: writes the first plan, then reads slash commands until /quit or Ctrl-D.
final class InteractiveSession: @unchecked Sendable {
    let app: App
    var console: Console { app.console }
    private var lastInterrupt: Date?
    /// Which automatic turns follow a request; `--no-repair` and `/repair on|off` change it.
    private var followUps = FollowUpOptions()
    /// Whether the teacher was told that quitting now loses changes a full disk kept in memory.
    private var warnedUnsaved = false

    static let flags = Flags.lesson + Flags.framework + Flags.followUps + Flags.connection + Flags.common

    init(app: App) { self.app = app }

    func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        let settings: ResolvedSettings
        let prompts: PromptLibrary
        let framework: String
        do {
            parsed = try ParsedArguments.parse(arguments, specs: Self.flags, command: "lessonplan")
            if parsed.has("help") {
                console.prose(Help.overview())
                return 0
            }
            if let extra = parsed.positionals.first {
                throw UsageError(message: "Unexpected “\(extra)”; quote values with spaces, e.g. --topic \"The water cycle\".")
            }
            (settings, prompts) = try app.settings(from: parsed)
            framework = try app.framework(from: parsed, prompts: prompts)
        } catch {
            console.error(error.message)
            return 2
        }
        followUps = Flags.followUps(from: parsed)
        let directory = settings.dataDirectory
        try? directory.prepare()
        let frameworks = prompts.frameworkNames
        let reader = makeLineReader(historyFile: console.stdinIsTTY ? directory.historyFile : nil) { line in
            CommandTable.completions(for: line, frameworks: frameworks)
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
                client: app.client(for: settings), toolVersion: App.version, framework: framework)
        } catch {
            console.error(error.message)
            return 1
        }
        let interrupts = makeInterrupts()
        if settings.model.requiresKey, (settings.model.apiKey ?? "").isEmpty {
            console.error(SessionAdvice.noKeyAtStart(in: await engine.state))
        } else {
            await runRequest(
                engine: engine, command: "/generate", refinement: Refinement(template: "generate", inputs: inputs),
                interrupts: interrupts)
            if console.stdinIsTTY, await engine.state.current != nil {
                console.note(console.dim("Type /help for commands, or a plain sentence to revise the plan."))
            }
        }
        return await loop(engine: engine, reader: reader, interrupts: interrupts)
    }

    /// `lessonplan resume <session>`: the REPL at the session's current version, undo and history intact.
    func resume(_ arguments: [String]) async -> Int32 {
        let engine: SessionEngine
        let directory: DataDirectory
        do {
            let parsed = try ParsedArguments.parse(
                arguments, specs: Flags.followUps + Flags.connection + Flags.common, command: "resume")
            followUps = Flags.followUps(from: parsed)
            if parsed.has("help") {
                console.prose(Help.subcommand("resume") ?? "")
                return 0
            }
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: "resume needs one session: an id, an id prefix or a name (see `lessonplan sessions`).")
            }
            var (settings, prompts) = try app.settings(from: parsed)
            directory = settings.dataDirectory
            let store = SessionStore(directory: directory)
            let url = try store.locate(parsed.positionals[0])
            // Without --model the session goes on with the model it was started with.
            if parsed.value("model") == nil, let session = TranscriptReader.header(of: url) {
                settings.model.model = session.model
            }
            engine = try SessionEngine(resuming: url, store: store, prompts: prompts, client: app.client(for: settings))
        } catch {
            console.error(error.message)
            return 2
        }
        for warning in engine.openingWarnings { console.note(warning) }
        let state = await engine.state
        console.note(SessionReview.resumeNote(state))
        if let current = state.current { show(current) }
        let frameworks = engine.prompts.frameworkNames
        let reader = makeLineReader(historyFile: console.stdinIsTTY ? directory.historyFile : nil) { line in
            CommandTable.completions(for: line, frameworks: frameworks)
        }
        return await loop(engine: engine, reader: reader, interrupts: makeInterrupts())
    }

    private func makeInterrupts() -> Interrupts {
        Interrupts(whenIdle: { [console] in
            // Only reached when stdin is not a terminal: at a terminal prompt Ctrl-C is a key.
            console.note("Interrupted.")
            exit(130)
        })
    }

    /// Asks for one missing input until the answer is valid (on a terminal) or fails once (piped).
    private func ask(_ question: Question, reader: LineReader) throws(UsageError) -> String {
        while true {
            switch reader.readLine(prompt: question.prompt) {
            case .cleared:
                continue
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
                return await leave(engine: engine, again: true) ?? 1
            case .interrupted:
                if let last = lastInterrupt, Date().timeIntervalSince(last) < 2 {
                    if let status = await leave(engine: engine, again: false) { return status }
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
                    let action: CommandAction
                    do {
                        action = try CommandTable.parse(line, context: await engine.commandContext)
                    } catch {
                        console.error(error.message)
                        break
                    }
                    let unsavedBefore = await engine.unsavedRecords
                    if await perform(action, line: line, engine: engine, interrupts: interrupts) == false {
                        if let status = await leave(engine: engine, again: false) { return status }
                        break
                    }
                    await reportSaving(engine: engine, before: unsavedBefore, action: action)
                }
            }
        }
    }

    /// The commands in one input: itself, unless it is a paste of several slash commands, which
    /// run one after another only when the teacher says so (each may be a paid request).
    private func commands(in input: String, reader: LineReader) -> [String] {
        let lines = input.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard lines.count > 1, lines.allSatisfy({ $0.hasPrefix("/") }) else { return [input] }
        console.note("You pasted \(lines.count) commands: \(lines.joined(separator: ", ")).")
        guard case .line(let answer) = reader.readLine(prompt: "Run them one after another? [y/N] "),
            ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        else {
            console.line("Nothing sent.")
            return []
        }
        return lines
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
            show(version)
        case .history:
            console.out(History.render(state))
        case .undo:
            do {
                let target = try await engine.undo()
                // Automatic turns are recorded as "(auto repair)"; do not wrap them in a second pair.
                let command = target.command.hasPrefix("(") ? String(target.command.dropFirst().dropLast()) : target.command
                console.line("Back to v\(target.number) (\(command)); /show prints it.")
            } catch {
                console.error(error.message)
            }
        case .refine(let refinement):
            await runRequest(
                engine: engine, command: line.trimmingCharacters(in: .whitespaces), refinement: refinement,
                interrupts: interrupts)
        case .repair:
            await repair(engine: engine, command: line.trimmingCharacters(in: .whitespaces), interrupts: interrupts)
        case .autoRepair(let on):
            followUps.repair = on
            console.line(
                on
                    ? "Automatic repair is on: a plan that fails the check is repaired once."
                    : "Automatic repair is off: plans that fail the check are shown as they are; /repair fixes one.")
        case .check:
            await QualityViews(console: console).check(engine: engine)
        case .pacing:
            await QualityViews(console: console).pacing(engine: engine)
        case .level:
            await QualityViews(console: console).level(engine: engine)
        case .frameworks:
            await QualityViews(console: console).frameworks(engine: engine)
        case .exportMaterials(let format, let path):
            Exporter(console: console, prompts: engine.prompts).exportMaterials(state, format: format, to: path, force: false)
        case .save(let name):
            do {
                let written = try await engine.save()
                if written > 0 {
                    console.line("Wrote the \(written) change(s) that could not be saved before; nothing is lost.")
                }
                if let name {
                    try await engine.rename(name)
                    console.line("Saved as “\(name)”; `lessonplan resume \"\(name)\"` reopens it.")
                } else if written == 0 {
                    console.line("Everything is saved already; /save <name> also names the session.")
                }
            } catch {
                console.error(error.message)
            }
        case .export(let format, let path):
            Exporter(console: console, prompts: engine.prompts).export(state, format: format, to: path, force: false)
        case .diff(let from, let to):
            diff(state, from: from, to: to)
        case .edit:
            await HandEditor(console: console, environment: app.environment, interrupts: interrupts).edit(engine: engine, line: line)
        case .copy:
            copy(state)
        case .retry:
            await runSingle(.retry, engine: engine, interrupts: interrupts)
        case .continueDraft:
            await runSingle(.continueDraft, engine: engine, interrupts: interrupts)
        }
        return true
    }

    /// Prints one version under a one-line label.
    private func show(_ version: PlanVersion) {
        let lost = version.parentLost ? " · made from v\(version.parent ?? 0), whose line is damaged" : ""
        console.line(console.dim("── v\(version.number) · \(version.command) · \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(lost)"))
        console.out(version.text.hasSuffix("\n") ? version.text : version.text + "\n")
    }

    /// `/diff [A [B]]`: defaults to the current version against the one it was made from.
    private func diff(_ state: SessionState, from: Int?, to: Int?) {
        guard let current = state.current else {
            console.error("There is no plan yet; type /generate to write one.")
            return
        }
        let new = to.flatMap(state.version) ?? current
        guard let old = from.flatMap(state.version) ?? new.parent.flatMap(state.version) else {
            console.error("v\(new.number) is the first version, so there is nothing to compare it with; try /diff 1 \(state.versions.count).")
            return
        }
        console.line(console.dim("── v\(old.number) → v\(new.number)"))
        console.out(DiffRendering.render(old: old.text, new: new.text) + "\n")
    }

    /// `/copy`: OSC 52 asks the terminal to put the text on the clipboard, even over SSH.
    private func copy(_ state: SessionState) {
        guard let current = state.current else {
            console.error("There is no plan to copy yet; type /generate to write one.")
            return
        }
        guard console.stdoutIsTTY else {
            console.error("/copy needs a terminal; use /export md FILE to save the plan instead.")
            return
        }
        console.copyToClipboard(current.text)
        console.line("Copied v\(current.number) to the clipboard (through the terminal's OSC 52; if nothing arrives, your terminal may need clipboard access turned on).")
    }

    /// Streams a request and its automatic follow-ups to the terminal, each turn ending with its footer.
    private func runRequest(
        engine: SessionEngine, command: String, refinement: Refinement, interrupts: Interrupts
    ) async {
        let console = self.console
        let printed = Printed()
        let options = followUps
        let result = await interrupts.run {
            await engine.request(command: command, refinement: refinement, options: options) { update in
                Self.render(update, console: console, printed: printed, waiting: refinement.kind == .materials ? "writing the handouts…" : "writing the plan…")
            }
        }
        if let levels = Footer.levels(before: result.levelBefore, after: result.levelAfter) {
            console.line(levels)
        }
        let first = result.first
        guard first.status == .completed else { return }
        if refinement.template == StandardsCommand.templates[0] {
            let standards = StandardsAlignment.items(refinement.inputs.standards)
            let final = await engine.state.current?.text ?? first.text
            let missing = StandardsAlignment.unquoted(standards, in: final)
            if missing.isEmpty {
                console.line("✓ Every standard is quoted word for word.")
            } else {
                for standard in missing { console.line("✗ Not quoted word for word: “\(standard)”") }
            }
        }
        if refinement.kind == .materials {
            let plan = await engine.state.current
            let headings = (try? await engine.framework(of: plan).headings) ?? []
            let notes = StudentMaterials.teacherNotes(first.text, headings: headings)
            if notes.isEmpty {
                console.line(
                    "✓ Checked the handouts for \(StudentMaterials.checkedFor): none found. /export materials html FILE writes a printable page.")
            } else {
                for note in notes { console.line("✗ \(MaterialsNotes.describe(note))") }
                console.line("The printable page (/export materials html FILE) leaves these out; /materials makes new handouts.")
            }
        }
    }

    /// `/repair`: one request to fix what the check found in the current plan.
    private func repair(engine: SessionEngine, command: String, interrupts: Interrupts) async {
        let console = self.console
        let printed = Printed()
        let outcome = await interrupts.run {
            await engine.repair(command: command) { update in
                Self.render(update, console: console, printed: printed, waiting: "repairing the plan…")
            }
        }
        if outcome == nil, let current = await engine.state.current {
            console.line("v\(current.number) passes the plan check; there is nothing to repair.")
        }
    }

    /// Shows one piece of progress: streamed text, a turn's footer, or the line before an automatic turn.
    /// `/retry` and `/continue`: one turn, shown like any other.
    private func runSingle(_ turn: Turn, engine: SessionEngine, interrupts: Interrupts) async {
        let console = self.console
        let printed = Printed()
        _ = await interrupts.run {
            let outcome = await turn.run(on: engine) { progress in
                Self.render(.turn(progress), console: console, printed: printed, waiting: "writing the plan…")
            }
            Self.render(.ended(outcome), console: console, printed: printed, waiting: "")
            return outcome
        }
    }

    private static func render(_ update: RequestProgress, console: Console, printed: Printed, waiting: String) {
        switch update {
        case .turn(.waiting): console.startWaiting(waiting)
        case .turn(.retrying(let wait)):
            console.stopWaiting()
            if printed.needsNewline { console.out("\n") }
            console.note(wait.description)
        case .turn(.text(let text)):
            printed.record(text)
            console.stream(text)
        case .turn(.notice(let message)): console.note(message)
        case .ended(let outcome):
            console.stopWaiting()
            console.endStream()
            if printed.needsNewline { console.out("\n") }
            printed.reset()
            if outcome.status != .completed, let message = outcome.message {
                console.error(message)
            }
            if outcome.status != .failed || outcome.seconds > 0 {
                for line in Footer.lines(for: outcome) { console.line(console.dim(line)) }
            }
        case .followUp(let followUp):
            console.line(console.dim(Footer.text(for: followUp)))
        }
    }

    private func promptText(_ state: SessionState) -> String {
        let inputs = state.currentInputs
        let version = state.currentVersion.map { "v\($0)" } ?? "no plan"
        let framework = state.currentFramework == Framework.defaultName ? "" : " · \(state.currentFramework)"
        return "lessonplan [\(inputs.grade.rawValue) · \(inputs.minutes) min · \(version)\(framework)]> "
    }

    /// Says once when a command left changes unwritten (a full disk), and when earlier ones got written.
    private func reportSaving(engine: SessionEngine, before: Int, action: CommandAction) async {
        let after = await engine.unsavedRecords
        if after > before, let problem = await engine.saveProblem {
            console.error(problem.message)
        } else if before > 0, after == 0, !action.isSave {
            console.note("The \(before) change(s) that could not be saved before are written now; nothing is lost.")
        }
    }

    /// Ends the session, unless changes are still unwritten: those are written if the disk
    /// allows; if not, at a terminal the first /quit only warns, and otherwise the exit is 1.
    /// - Parameter again: whether there is no second chance (input ended).
    /// - Returns: the exit status, or nil to stay in the session.
    private func leave(engine: SessionEngine, again: Bool) async -> Int32? {
        let unsaved = await engine.unsavedRecords
        guard unsaved > 0 else {
            farewell(await engine.state)
            return 0
        }
        if (try? await engine.save()) != nil {
            console.note("The \(unsaved) change(s) that could not be saved before are written now; nothing is lost.")
            farewell(await engine.state)
            return 0
        }
        let reason = await engine.saveProblem.map { " (\($0.message))" } ?? ""
        let path = engine.transcriptURL.path
        if console.stdinIsTTY, !again, !warnedUnsaved {
            warnedUnsaved = true
            console.error("\(unsaved) change(s) could not be written to \(path) and are lost if you quit now; free some space and type /save, or /export md FILE to keep the plan elsewhere, or /quit again to leave without them.")
            return nil
        }
        console.error("\(unsaved) change(s) could not be written to \(path) and are lost\(reason).")
        return 1
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

    /// Forgets the last character, for the next turn's text.
    func reset() {
        last.withLock { $0 = nil }
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
            let from = version.parent.map { version.parentLost ? " (from v\($0), whose line is damaged)" : " (from v\($0))" } ?? ""
            let replacing = version.draft.map { ", replacing v\($0)" } ?? ""
            let framework = version.framework == Framework.defaultName ? "" : " · \(version.framework)"
            lines.append(
                "\(marker) v\(version.number)  \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(framework)  \(TerminalSanitizer.cleanLine(version.command, limit: 60))\(replacing)\(from)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CommandAction {
    /// `/save` reports what it wrote itself.
    var isSave: Bool {
        if case .save = self { return true }
        return false
    }
}
