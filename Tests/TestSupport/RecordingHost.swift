import Foundation
import LessonPlanCore
import LessonPlanKit
import Synchronization

/// A ``CommandHost`` that keeps what commands print, for tests of the runner in any place.
package final class RecordingHost: CommandHost {
    package let place: CommandPlace
    package let columns: Int
    /// Whether shown text reaches a terminal; false stands for a pipe.
    package let showsOnTerminal: Bool
    package let workingDirectory: URL
    private let log = Mutex(Log())

    struct Log {
        var shown: [String] = []
        var notes: [String] = []
        var errors: [String] = []
        var products: [CommandProduct] = []
        var copied: [String] = []
        var questions: [String] = []
        var answers: [Bool] = []
        var typed: [String] = []
        var edits: [String] = []
        var clears = 0
    }

    /// - Parameters:
    ///   - answers: what the teacher answers to yes/no questions, in order (then no).
    ///   - edits: what the teacher saves in the editor, in order.
    ///   - typed: what the teacher types at questions with a typed answer, in order (then nothing).
    package init(
        place: CommandPlace, workingDirectory: URL, columns: Int = 80, answers: [Bool] = [], edits: [String] = [],
        typed: [String] = [], showsOnTerminal: Bool = true
    ) {
        self.showsOnTerminal = showsOnTerminal
        self.place = place
        self.columns = columns
        self.workingDirectory = workingDirectory
        log.withLock {
            $0.answers = answers
            $0.typed = typed
            $0.edits = edits
        }
    }

    package var shown: [String] { log.withLock { $0.shown } }
    package var notes: [String] { log.withLock { $0.notes } }
    package var errors: [String] { log.withLock { $0.errors } }
    package var products: [CommandProduct] { log.withLock { $0.products } }
    package var copied: [String] { log.withLock { $0.copied } }
    package var questions: [String] { log.withLock { $0.questions } }
    /// Everything printed, errors included, as plain text.
    package var transcript: String { log.withLock { ($0.shown + $0.notes + $0.errors).joined(separator: "\n") } }

    package func show(_ text: StyledText) { log.withLock { $0.shown.append(text.plain) } }
    package func note(_ text: StyledText) { log.withLock { $0.notes.append(text.plain) } }
    package func error(_ message: String) { log.withLock { $0.errors.append(message) } }

    package func confirm(_ question: String) -> Bool {
        log.withLock {
            $0.questions.append(question)
            return $0.answers.isEmpty ? false : $0.answers.removeFirst()
        }
    }

    package func answer(_ question: String) -> String? {
        log.withLock {
            $0.questions.append(question)
            return $0.typed.isEmpty ? nil : $0.typed.removeFirst()
        }
    }

    package func progress(_ update: RequestProgress, waiting: String) {}
    package func deliver(_ product: CommandProduct) { log.withLock { $0.products.append(product) } }

    package func cancellable<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T { await work() }

    package func edit(_ text: String, fileName: String) async throws(CommandError) -> String {
        let next = log.withLock { $0.edits.isEmpty ? nil : $0.edits.removeFirst() }
        guard let next else { throw CommandError("No editor in this test.") }
        return next
    }

    package func copy(_ text: String) { log.withLock { $0.copied.append(text) } }
    package func clearScreen() { log.withLock { $0.clears += 1 } }
    /// How many times a command cleared the screen.
    package var clears: Int { log.withLock { $0.clears } }
}
