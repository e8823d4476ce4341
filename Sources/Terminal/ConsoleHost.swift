import Foundation
import LessonPlanCore
import LessonPlanKit
import Synchronization

/// Where commands run in this process: the REPL (at a terminal or reading a script), `generate --then`
/// and `replay --rerun`. Everything reaches the terminal through ``Console``, so through the sanitiser.
/// Unchecked: the line reader is used only by the one command running at a time.
package final class ConsoleHost: CommandHost, @unchecked Sendable {
    package let place: CommandPlace
    package let console: Console
    private let interrupts: Interrupts
    private let environment: [String: String]
    private let reader: (any LineReader)?
    private let printed = Printed()
    /// An automatic follow-up's answer, held back until its verdict: shown whole when kept, never when not.
    private let held = Mutex<String?>(nil)
    private let lastProduct = Mutex<CommandProduct?>(nil)

    package init(place: CommandPlace, console: Console, interrupts: Interrupts, environment: [String: String], reader: (any LineReader)? = nil) {
        self.place = place
        self.console = console
        self.interrupts = interrupts
        self.environment = environment
        self.reader = reader
    }

    package var columns: Int { console.columns }
    package var showsOnTerminal: Bool { showsOnStdout ? console.stdoutIsTTY : console.stderrIsTTY }
    package var workingDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true) }

    /// Whether output the teacher asked for goes to stdout (the REPL) or stays off it (`--then` prints
    /// only its result there; a re-run prints its own comparison).
    private var showsOnStdout: Bool { place == .terminal || place == .script }

    package func show(_ text: StyledText) {
        if showsOnStdout { console.line(text) } else if place == .then { console.note(text) }
    }

    package func note(_ text: StyledText) { console.note(text) }

    package func error(_ message: String) { console.error(message) }

    package func answer(_ question: String) -> String? {
        guard place.isTerminal, let reader, case .line(let answer) = reader.readLine(prompt: question) else { return nil }
        if let sentence = ReplInput.commandAtQuestion(answer) { console.note(sentence) }
        return answer
    }

    package func confirm(_ question: String) -> Bool {
        guard place.isTerminal, let reader, case .line(let answer) = reader.readLine(prompt: question) else { return false }
        if let sentence = ReplInput.commandAtQuestion(answer) { console.note(sentence) }
        return ReplInput.isYes(answer)
    }

    package func deliver(_ product: CommandProduct) {
        switch place {
        case .terminal, .script:
            if case .document(let data, let format) = product { console.document(data, format: format) }
        case .then:
            lastProduct.withLock { $0 = product }
        case .rerun:
            break
        }
    }

    /// The last result a `--then` step produced, which `generate` prints at the end.
    package var product: CommandProduct? { lastProduct.withLock { $0 } }

    package func cancellable<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        await interrupts.run(work)
    }

    package func edit(_ text: String, fileName: String) async throws(CommandError) -> String {
        do {
            return try HandEditor(environment: environment, interrupts: interrupts).edit(text, fileName: fileName)
        } catch {
            throw CommandError(error.message)
        }
    }

    package func copy(_ text: String) { console.copyToClipboard(text) }

    package func clearScreen() {
        if place == .terminal { console.clearScreen() }
    }

    package func progress(_ update: RequestProgress, waiting: String) {
        if showsOnStdout { stream(update, waiting: waiting) } else { report(update) }
    }

    /// The REPL streams the answer as it arrives and ends each turn with its footer.
    private func stream(_ update: RequestProgress, waiting: String) {
        switch update {
        case .turn(.waiting): console.startWaiting(waiting)
        case .turn(.received(let characters)): console.waitingDetail("\(characters) characters received")
        case .turn(.retrying(let wait)):
            console.stopWaiting()
            if printed.needsNewline { console.out("\n") }
            console.note(wait.description)
        case .turn(.text(let text)):
            let holding = held.withLock { buffer -> Bool in
                guard buffer != nil else { return false }
                buffer?.append(text)
                return true
            }
            if holding {
                console.waitingDetail("\(held.withLock { $0?.count ?? 0 }) characters received")
                return
            }
            printed.record(text)
            console.stream(text)
        case .turn(.notice(let message)): console.note(message)
        case .ended(let outcome):
            console.stopWaiting()
            if let answer = held.withLock({ buffer -> String? in
                defer { buffer = nil }
                return buffer
            }),
                outcome.kept != false, !answer.isEmpty
            {
                printed.record(answer)
                console.stream(answer)
            }
            console.endStream()
            if printed.needsNewline { console.out("\n") }
            printed.reset()
            if outcome.status != .completed, let message = outcome.message {
                console.error(message)
            }
            if outcome.status != .failed || outcome.wentOut {
                for line in Footer.lines(for: outcome) { console.line(console.dim(line)) }
            }
        case .followUp(let followUp):
            if followUp.isJudged { held.withLock { $0 = "" } }
            console.line(console.dim(Footer.text(for: followUp)))
        }
    }

    /// `--then` and re-runs keep stdout for their result: progress, footers and problems go to stderr.
    private func report(_ update: RequestProgress) {
        switch update {
        case .turn(.notice(let message)): console.note(message)
        case .turn(.retrying(let wait)): console.note(wait.description)
        case .turn: break
        case .ended(let outcome):
            if outcome.status != .completed, let message = outcome.message { console.error(message) }
            for line in Footer.lines(for: outcome) { console.note(line) }
        case .followUp(let followUp):
            console.note(Footer.text(for: followUp))
        }
    }
}

/// Remembers whether streamed text ended mid-line, so the footer starts on its own line.
package final class Printed: Sendable {
    private let last = Mutex<Character?>(nil)

    package func record(_ text: String) {
        last.withLock { $0 = text.last ?? $0 }
    }

    /// Forgets the last character, for the next turn's text.
    package func reset() {
        last.withLock { $0 = nil }
    }

    package var needsNewline: Bool {
        last.withLock { $0 != nil && $0 != "\n" }
    }
}
