import Foundation
import LessonPlanCore
import LessonPlanStore
import Synchronization

/// Runs commands the same way wherever they come from: the REPL, a piped script,
/// `generate --then` and `replay --rerun`. What differs between those is the ``CommandHost``.
package final class CommandRunner: Sendable {
    package let engine: SessionEngine
    package let host: any CommandHost
    package let settings: SessionSettings
    private let tally = Tally()

    package init(engine: SessionEngine, host: any CommandHost, settings: SessionSettings) {
        self.engine = engine
        self.host = host
        self.settings = settings
    }

    /// Checks lines before anything is sent: each must name a command, and one that needs a terminal
    /// cannot run where there is none. Nothing about the session is assumed (it changes as lines run).
    /// - Returns: one sentence per line that cannot run, naming the line.
    package static func precheck(_ lines: [String], place: CommandPlace) -> [String] {
        var problems: [String] = []
        for line in lines {
            let shown = TerminalSanitizer.cleanLine(line, limit: 60)
            do {
                _ = try CommandTable.resolve(line, in: place)
            } catch {
                problems.append("“\(shown)”: \(error.message)")
            }
        }
        return problems
    }

    /// Parses and runs one line; says what was wrong when it cannot run.
    @discardableResult
    package func run(_ line: String) async -> CommandOutcome {
        var trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        // `thanks`, `ok`, `ls`: a teacher is asked before such a line becomes a paid revision.
        if host.place.isTerminal, SmallTalk.matches(trimmed), CommandTable.bareWords[trimmed.lowercased()] == nil {
            guard host.confirm(SmallTalk.question(trimmed)) else {
                host.note(StyledText("Not sent."))
                return .done
            }
            trimmed = "/revise " + trimmed
        }
        // "make the warm-up more hands-on": a sentence that names one section is offered as /redo of it alone. No
        // (or Enter) keeps it a revision of the whole plan; anything else (a command, Ctrl-C) sends nothing.
        if host.place.isTerminal, !trimmed.hasPrefix("/"), let (number, heading) = await sectionNamed(in: trimmed) {
            let answer = host.answer("Write only the \(heading) again, keeping the rest as it is? [y/N] ")
            switch answer?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": trimmed = "/redo \(number) \(trimmed)"
            case "", "n", "no": break
            default:
                host.note(StyledText("Not sent: the question had no yes or no. Type the sentence again to send it."))
                return .done
            }
        }
        let command: any Command
        do {
            let resolved = try CommandTable.resolve(trimmed, in: host.place)
            command = try CommandTable.parse(resolved, line: trimmed, context: await engine.commandContext)
        } catch {
            host.error(host.place == .terminal ? error.message : "\(TerminalSanitizer.cleanLine(trimmed, limit: 60)): \(error.message)")
            tally.add(rejected: 1)
            return .failed
        }
        if type(of: command).asksTheModel, host.place != .rerun, !(await namesCleared(in: trimmed)) {
            tally.add(rejected: 1)
            return .failed
        }
        let mark = await engine.mark
        let outcome = await command.run(CommandRun(engine: engine, host: host, line: trimmed, settings: settings))
        if outcome.status == .failed { tally.add(failed: 1) }
        say(await engine.aftermath(since: mark, reportsSaving: type(of: command).reportsSaving))
        return outcome
    }

    /// What the command left to say, whichever it was (``SessionAftermath``).
    private func say(_ aftermath: SessionAftermath) {
        for (sentence, quiet) in aftermath.notes { host.note(StyledText(sentence, style: quiet ? .dim : .yellow)) }
        if let problem = aftermath.saveProblem {
            host.error(problem)
        } else if aftermath.writtenNow > 0 {
            host.note(StyledText("Written now: the \(counted(aftermath.writtenNow, "change")) that could not be saved before; nothing is lost."))
        }
    }

    /// Whether `line` may be sent: it holds no word that looks like an unlisted student's name, or the teacher
    /// chose to send it as written or to add the names to the class; a script stops unless `--yes`.
    private func namesCleared(in line: String) async -> Bool {
        let names = engine.client.names
        let found = UnlistedNames.spotted(in: line, names: names, prompts: engine.prompts)
        guard !found.isEmpty, !settings.sendsNamesAsTyped else { return true }
        let className = names.value?.name
        guard host.place.isTerminal else {
            host.error(UnlistedNames.scriptRefusal(found, className: className))
            return false
        }
        host.show(StyledText(UnlistedNames.sentence(found, className: className)))
        let answer = host.answer(UnlistedNames.question(className: className)) ?? ""
        do {
            switch try UnlistedNames.settle(
                answer, found: found, names: names, store: ClassStore(directory: engine.store.directory), prompts: engine.prompts)
            {
            case .send:
                return true
            case .add:
                host.note(StyledText("Added to class \(className ?? ""): they go out as pseudonyms."))
                return true
            case .cancel:
                host.note(StyledText("Not sent."))
                return false
            }
        } catch {
            host.error(error.localizedDescription)
            return false
        }
    }

    /// The one section of the current plan a sentence names by its heading's words (`the warm-up`, `exit
    /// ticket`), as its number and its name; nil when it names none or several.
    private func sectionNamed(in sentence: String) async -> (Int, String)? {
        guard let current = await engine.state.current, let framework = try? await engine.framework(of: current) else { return nil }
        let said = " " + ContentText.words(sentence).joined(separator: " ") + " "
        let named = framework.headings.enumerated().filter { _, heading in
            let words = ContentText.words(RedoCommand.shown(heading)).filter { $0 != "optional" }
            return !words.isEmpty && said.contains(" " + words.joined(separator: " ") + " ")
        }
        guard named.count == 1, let only = named.first else { return nil }
        return (only.offset + 1, RedoCommand.shown(only.element))
    }

    /// How the run went: 0 when every line ran and every turn completed, 1 otherwise.
    package var exitStatus: Int32 { tally.counts.failed + tally.counts.rejected == 0 ? 0 : 1 }

    /// Lines that could not run, and commands that failed.
    package var counts: (rejected: Int, failed: Int) { tally.counts }
}

/// Counts kept across a run, behind a lock (commands run one at a time, but hosts are shared).
private final class Tally: Sendable {
    private let state = Mutex<(rejected: Int, failed: Int)>((0, 0))

    func add(rejected: Int = 0, failed: Int = 0) {
        state.withLock {
            $0.rejected += rejected
            $0.failed += failed
        }
    }

    var counts: (rejected: Int, failed: Int) { state.withLock { $0 } }
}
