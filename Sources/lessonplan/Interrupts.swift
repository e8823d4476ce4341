import Dispatch
import Foundation
import LessonPlanKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C into cancelling the turn in flight, without killing the process.
///
/// SIGINT is ignored and watched through a dispatch source instead; at the libedit prompt the
/// terminal's `isig` is off, so Ctrl-C there reaches the line editor as a key, not a signal.
/// Unchecked: `source` is set once in `init` and never mutated; `current` is behind a mutex.
final class Interrupts: @unchecked Sendable {
    /// Cancels the operation in flight, if any.
    private let current = Mutex<(@Sendable () -> Void)?>(nil)
    private let source: any DispatchSourceSignal
    private let whenIdle: @Sendable () -> Void

    /// - Parameter whenIdle: what SIGINT does when no turn is running (piped input, say).
    init(whenIdle: @escaping @Sendable () -> Void) {
        self.whenIdle = whenIdle
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.interrupt() }
        source.resume()
    }

    /// Runs one turn (or the doctor's check) so that Ctrl-C cancels it.
    func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        let task = Task { await operation() }
        current.withLock { $0 = { task.cancel() } }
        let outcome = await task.value
        current.withLock { $0 = nil }
        return outcome
    }

    private func interrupt() {
        if let cancel = current.withLock({ $0 }) { cancel() } else { whenIdle() }
    }
}
