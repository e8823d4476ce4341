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
package final class Interrupts: @unchecked Sendable {
    private let cancelCurrent = Mutex<(@Sendable () -> Void)?>(nil)
    private let source: any DispatchSourceSignal
    private let whenIdle: @Sendable () -> Void

    /// - Parameter whenIdle: what SIGINT does when no turn is running (piped input, say).
    package init(whenIdle: @escaping @Sendable () -> Void) {
        self.whenIdle = whenIdle
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.interrupt() }
        source.resume()
    }

    /// Runs one operation (a turn, a re-run) so that Ctrl-C cancels it.
    package func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        let task = Task { await operation() }
        cancelCurrent.withLock { $0 = { task.cancel() } }
        let result = await task.value
        cancelCurrent.withLock { $0 = nil }
        return result
    }

    /// Runs blocking work (the teacher's editor) during which Ctrl-C belongs to another program:
    /// SIGINT and SIGQUIT neither cancel nor quit, as a shell ignores them while a job runs.
    package func ignoring<Result>(_ operation: () throws(UsageError) -> Result) throws(UsageError) -> Result {
        cancelCurrent.withLock { $0 = {} }
        let quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGQUIT, quit)
            cancelCurrent.withLock { $0 = nil }
        }
        return try operation()
    }

    private func interrupt() {
        if let cancel = cancelCurrent.withLock({ $0 }) { cancel() } else { whenIdle() }
    }
}
