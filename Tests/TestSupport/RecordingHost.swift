import Foundation
import LessonPlanKit
import LessonPlanCore
import Synchronization

/// A ``CommandHost`` that keeps what commands print, for tests of the runner in any place.
public final class RecordingHost: CommandHost {
    public let place: CommandPlace
    public let columns: Int
    /// Whether shown text reaches a terminal; false stands for a pipe.
    public let showsOnTerminal: Bool
    public let workingDirectory: URL
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
    public init(
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

    public var shown: [String] { log.withLock { $0.shown } }
    public var notes: [String] { log.withLock { $0.notes } }
    public var errors: [String] { log.withLock { $0.errors } }
    public var products: [CommandProduct] { log.withLock { $0.products } }
    public var copied: [String] { log.withLock { $0.copied } }
    public var questions: [String] { log.withLock { $0.questions } }
    /// Everything printed, errors included, as plain text.
    public var transcript: String { log.withLock { ($0.shown + $0.notes + $0.errors).joined(separator: "\n") } }

    public func show(_ text: StyledText) { log.withLock { $0.shown.append(text.plain) } }
    public func note(_ text: StyledText) { log.withLock { $0.notes.append(text.plain) } }
    public func error(_ message: String) { log.withLock { $0.errors.append(message) } }

    public func confirm(_ question: String) -> Bool {
        log.withLock {
            $0.questions.append(question)
            return $0.answers.isEmpty ? false : $0.answers.removeFirst()
        }
    }

    public func answer(_ question: String) -> String? {
        log.withLock {
            $0.questions.append(question)
            return $0.typed.isEmpty ? nil : $0.typed.removeFirst()
        }
    }

    public func progress(_ update: RequestProgress, waiting: String) {}
    public func deliver(_ product: CommandProduct) { log.withLock { $0.products.append(product) } }

    public func cancellable<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T { await work() }

    public func edit(_ text: String, fileName: String) async throws(CommandError) -> String {
        let next = log.withLock { $0.edits.isEmpty ? nil : $0.edits.removeFirst() }
        guard let next else { throw CommandError("No editor in this test.") }
        return next
    }

    public func copy(_ text: String) { log.withLock { $0.copied.append(text) } }
    public func clearScreen() { log.withLock { $0.clears += 1 } }
    /// How many times a command cleared the screen.
    public var clears: Int { log.withLock { $0.clears } }
}
