import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import Terminal

/// `sessions`, `sessions rm`, `replay` and `export`: looking back at saved sessions. None needs a key.
struct SessionCommands {
    let app: App
    var console: Console { app.console }

    private var store: SessionStore {
        SessionStore(directory: DataDirectory.resolve(environment: app.environment))
    }

    /// `lessonplan sessions [--json]` and `lessonplan sessions rm <session> [--yes]`.
    func sessions(_ parsed: ParsedArguments) -> Int32 {
        if parsed.positionals.first == "rm" { return remove(parsed) }
        if parsed.positionals.first == "prune" { return prune(parsed) }
        if let extra = parsed.positionals.first {
            console.error(
                "sessions: unexpected “\(extra)”; use `lessonplan sessions`, `lessonplan sessions rm <session>` or `lessonplan sessions prune`.")
            return 2
        }
        let list: SessionList
        do { list = try store.listAll() } catch {
            console.error(error.message)
            return 1
        }
        if parsed.has("json") {
            // Byte-exact for a program reading it; a terminal still gets the sanitiser.
            let data = SessionsListing.json(list)
            if console.stdoutIsTTY { console.out(String(decoding: data, as: UTF8.self)) } else { console.raw(data) }
            return 0
        }
        // A terminal gets the table fitted to its width; a pipe whole tab-separated rows, the notes on stderr.
        guard console.stdoutIsTTY else {
            console.out(SessionsListing.rows(list))
            for note in SessionsListing.notes(list, folder: store.directory.sessions.path) { console.note(note) }
            return 0
        }
        console.out(SessionsListing.text(list, folder: store.directory.sessions.path, width: console.columns))
        return 0
    }

    private func remove(_ parsed: ParsedArguments) -> Int32 {
        guard parsed.positionals.count == 2 else {
            console.error("sessions rm needs one session: an id, an id prefix or a name.")
            return 2
        }
        do {
            let url = try store.locate(parsed.positionals[1])
            let id = url.deletingPathExtension().lastPathComponent
            guard url.deletingLastPathComponent().standardizedFileURL == store.directory.sessions.standardizedFileURL else {
                console.error("sessions rm only removes sessions in \(store.directory.sessions.path); delete other files yourself.")
                return 2
            }
            let topic = store.summary(id: id)?.topic ?? ""
            if let status = confirm(
                "Remove session \(id.prefix(8)) (\(topic))? It cannot be undone. [y/N] ", yes: parsed.has("yes"),
                refusal: "Not removing session \(id.prefix(8)) without confirmation; pass --yes when not at a terminal.",
                declined: "Kept.")
            {
                return status
            }
            try store.remove(id: id)
            console.line("Removed session \(id.prefix(8)) (\(topic)).")
            return 0
        } catch {
            console.error(error.message)
            return 1
        }
    }

    /// `lessonplan sessions prune [--yes]`: removes the sessions that never got a plan.
    private func prune(_ parsed: ParsedArguments) -> Int32 {
        guard parsed.positionals.count == 1 else {
            console.error("sessions prune takes no session; it removes every session without a plan.")
            return 2
        }
        let empty: [SessionSummary]
        do { empty = try store.listAll().summaries.filter { $0.versions == 0 }.sorted { $0.id < $1.id } } catch {
            console.error(error.message)
            return 1
        }
        guard !empty.isEmpty else {
            console.line("Every saved session has a plan; nothing to prune.")
            return 0
        }
        let described = empty.map { "\($0.id.prefix(8)) (\(SessionsTable.clip($0.topic, 40)))" }.joined(separator: ", ")
        if !parsed.has("yes") {
            guard console.stdinIsTTY else {
                console.error("Not removing \(counted(empty.count, "session")) without a plan unless asked; pass --yes when not at a terminal.")
                return 2
            }
            console.out("Remove \(counted(empty.count, "session")) that never got a plan: \(described)? [y/N] ")
            guard ReplInput.isYes(readLine() ?? "") else {
                console.line("Kept.")
                return 0
            }
        }
        let outcome = store.prune(empty.map(\.id))
        if !outcome.removed.isEmpty {
            console.line(
                "Removed \(counted(outcome.removed.count, "session")) without a plan: \(outcome.removed.map { String($0.prefix(8)) }.joined(separator: ", "))."
            )
        }
        for (id, error) in outcome.kept { console.error("Kept \(id.prefix(8)): \(error.message)") }
        return outcome.kept.isEmpty ? 0 : 1
    }

    /// Loads a session read-only, reporting skipped lines once on stderr.
    private func load(_ reference: String, prompts: TranscriptReader.Prompts = .kept) throws -> SessionState {
        let url = try store.locate(reference)
        let loaded = try store.read(url, prompts: prompts)
        for warning in loaded.warnings { console.note(warning) }
        guard let state = TranscriptReader.state(of: loaded) else { throw StoreError.notATranscript(path: url.path) }
        return state
    }

    /// `lessonplan replay <session> [--full] [--turn N] [--plain] [--step]`, or `--rerun`.
    func replay(_ parsed: ParsedArguments) async -> Int32 {
        let state: SessionState
        var options = ReplayOptions()
        do {
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: "replay needs one session: an id, an id prefix, a name, or a .jsonl file.")
            }
            options.full = parsed.has("full")
            if let text = parsed.value("turn") {
                guard let turn = Int(text), turn > 0 else {
                    throw UsageError(message: "--turn “\(text)” must be a turn number such as 2.")
                }
                options.turn = turn
            }
            // Replaying shows commands, outcomes and plans, never the prompts sent; --rerun keeps them.
            state = try load(parsed.positionals[0], prompts: parsed.has("rerun") ? .kept : .skipped)
        } catch {
            console.error(error.message)
            return 2
        }
        let label = state.name.map { "“\($0)”" } ?? String(state.header.id.prefix(8))
        // The error comes alone, before any header: nothing is replayed or re-run.
        if let turn = options.turn, !state.turns.contains(where: { $0.started.turn == turn }) {
            console.error("Session \(label) has no turn \(turn); it has turns 1 to \(state.turns.count).")
            return 2
        }
        if parsed.has("rerun") { return await rerun(state, parsed: parsed, only: options.turn) }
        let inputs = state.header.inputs
        let blocks = SessionReview.replay(state, options: options)
        console.line(
            "Session \(label) · started \(SessionReview.timestamp(state.header.created)) · \(inputs.grade.rawValue) · \(inputs.minutes) min · \(inputs.topic)"
        )
        let step = parsed.has("step") && console.stdinIsTTY && console.stdoutIsTTY
        let plain = parsed.has("plain")
        for (index, block) in blocks.enumerated() {
            console.out(plain ? StyledText(block.plain) : block)
            if step, index < blocks.count - 1 {
                console.out(console.dim("[Enter: next turn, q: stop] "))
                if readLine()?.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("q") == true { break }
            }
        }
        return 0
    }

    /// `replay --rerun`: the requests behind the session's versions sent again into a new session
    /// through the same runner as the REPL, each compared with what was recorded.
    private func rerun(_ recorded: SessionState, parsed: ParsedArguments, only: Int?) async -> Int32 {
        let engine: SessionEngine
        let model: String
        do {
            var (settings, prompts) = try app.invocation.settings(from: parsed)
            // Without --model the re-run uses the recorded model, as `resume` does (LESSONPLAN_MODEL included).
            if parsed.value("model") == nil, !recorded.header.model.isEmpty {
                settings.model.model = recorded.header.model
            }
            model = settings.model.model
            // No session is made for a re-run that could not send anything.
            if settings.model.lacksKey {
                throw UsageError(message: ModelError.noKey.errorDescription ?? "No API key.")
            }
            if let refusal = rerunRefusal(recorded, only: only, model: model, yes: parsed.has("yes")) { return refusal }
            engine = try SessionEngine(
                newSessionWith: recorded.header.inputs, name: nil, store: SessionStore(directory: settings.dataDirectory),
                prompts: prompts, client: try app.invocation.client(for: settings, className: recorded.className, prompts: prompts),
                toolVersion: App.version,
                framework: recorded.header.framework ?? Framework.defaultName)
        } catch {
            console.error(error.message)
            return 2
        }
        let id = await engine.state.header.id
        let scope = only.map { "turn \($0) (after the turns it revised)" } ?? counted(recorded.turns.count, "turn")
        console.note(
            "Re-running \(scope) of \(recorded.header.id.prefix(8)) with \(TerminalSanitizer.cleanLine(model, limit: 40)) into new session \(id.prefix(8))…"
        )
        let interrupts = Interrupts(whenIdle: {})
        let console = self.console
        let host = ConsoleHost(place: .rerun, console: console, interrupts: interrupts, environment: app.environment)
        // The recorded session's `/repair off` holds for the re-run, and is saved with the new session.
        let followUps = Flags.followUps(from: parsed, saved: recorded.automaticRepair)
        if recorded.automaticRepair == false { await engine.setAutomaticRepair(false) }
        let runner = CommandRunner(engine: engine, host: host, settings: SessionSettings(followUps: followUps))
        let steps = await interrupts.run {
            await SessionRerun.run(recorded, runner: runner, only: only) { turn, command in
                console.note("→ turn \(turn) · \(TerminalSanitizer.cleanLine(command, limit: 60))")
            }
        }
        let report = RerunReport(steps, whole: !console.stdoutIsTTY)
        console.out(report.text)
        console.note("New session \(id.prefix(8)) holds the re-run; `lessonplan replay \(id.prefix(8))` walks it.")
        return report.failures == 0 && runner.exitStatus == 0 ? 0 : 1
    }

    /// Nil when a re-run may go ahead: it sends at most ``SessionRerun/sendsWithoutAsking`` requests, or `--yes`
    /// was given, or the teacher said yes at the terminal. A transcript someone sent can hold hundreds of turns, each
    /// a paid request: more than a few are counted and asked about first. Otherwise the status to exit with.
    private func rerunRefusal(_ recorded: SessionState, only: Int?, model: String, yes: Bool) -> Int32? {
        let requests = SessionRerun.requestCount(recorded, through: only)
        guard requests > SessionRerun.sendsWithoutAsking else { return nil }
        let what = "\(counted(requests, "request")) to \(TerminalSanitizer.cleanLine(model, limit: 40)), each paid for (and any repair one calls for)"
        return confirm(
            "This re-run sends \(what). Send them? [y/N] ", yes: yes,
            refusal: "This re-run would send \(what); nothing was sent. Pass --yes to send them when not at a terminal.",
            declined: "Nothing was sent.")
    }

    /// Asks before what cannot be undone or is paid for: nil to go on (`--yes`, or yes at a terminal), else the
    /// status to exit with (2 when no one can be asked, 0 when the answer was no).
    func confirm(_ question: String, yes: Bool, refusal: String, declined: String) -> Int32? {
        guard !yes else { return nil }
        guard console.stdinIsTTY else {
            console.error(refusal)
            return 2
        }
        console.out(question)
        guard ReplInput.isYes(readLine() ?? "") else {
            console.line(declined)
            return 0
        }
        return nil
    }

    /// `lessonplan export <session> --format md|html|json|docx|odt|pptx [-o FILE] [--force]`.
    func export(_ parsed: ParsedArguments) async -> Int32 {
        do {
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: "export needs one session and a format, e.g. lessonplan export photosynthesis --format html -o plan.html.")
            }
            if parsed.value("format")?.lowercased() == "pdf" {
                throw UsageError(message: ExportCommand.noPDF("--format html -o plan.html"))
            }
            let subject: ExportSubject =
                parsed.has("quiz") ? .quiz : parsed.has("unit") ? .unit : parsed.has("materials") ? .materials : .plan
            guard let entry = ExportTable.entry(subject, parsed.value("format") ?? "") else {
                let flag = subject == .plan ? "" : " --\(subject.rawValue)"
                throw UsageError(message: "export\(flag) needs --format \(ExportTable.names(subject)).")
            }
            let path = parsed.value("o") ?? parsed.value("output")
            if let path, let misnamed = entry.misnamed(path) { throw UsageError(message: misnamed) }
            var asked = ExportAsked.none
            if let with = parsed.value("with") {
                guard let read = ExportAsked(text: with) else {
                    throw UsageError(message: "--with takes what to print although it did not pass its check: \(ExportAsked.names).")
                }
                asked = read
            }
            let state = try load(parsed.positionals[0])
            let prompts = (try? app.invocation.settings(from: parsed).1) ?? .builtIn
            let written = await Exporter(console: console, prompts: prompts, environment: app.environment).export(
                entry, of: state, to: path, force: parsed.has("force"), showModel: parsed.has("show-model"), asked: asked,
                quiz: parsed.value("quiz").flatMap(QuizChoice.init(text:)))
            return written ? 0 : 1
        } catch {
            console.error(error.message)
            return 2
        }
    }
}
