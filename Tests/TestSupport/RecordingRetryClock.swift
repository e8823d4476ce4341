import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import Synchronization

/// A retry clock for tests: a fixed time and jitter, and waits that are recorded instead of slept,
/// so a test checks every computed wait without sleeping and without timing assertions.
package final class RecordingRetryClock: RetryClock {
    private let recorded = Mutex<[Double]>([])
    private let fixedNow: Date
    private let fraction: Double
    private let holds: Bool
    private let started: AsyncStream<Double>.Continuation
    /// Yields each wait as it starts, for tests that act during one (Ctrl-C while waiting).
    package let waits: AsyncStream<Double>

    /// - Parameters:
    ///   - now: what ``now()`` returns, for `retry-after` HTTP dates.
    ///   - randomFraction: the jitter's dice, fixed.
    ///   - holdsUntilCancelled: when true a wait lasts until its task is cancelled, like a long
    ///     real wait that the teacher interrupts; when false it returns at once.
    package init(
        now: Date = Date(timeIntervalSince1970: 1_800_000_000), randomFraction: Double = 0.5,
        holdsUntilCancelled: Bool = false
    ) {
        fixedNow = now
        fraction = randomFraction
        holds = holdsUntilCancelled
        (waits, started) = AsyncStream<Double>.makeStream()
    }

    /// Every wait asked for so far, in seconds, in order.
    package var sleeps: [Double] { recorded.withLock { $0 } }

    package func now() -> Date { fixedNow }
    package func randomFraction() -> Double { fraction }

    package func sleep(seconds: Double) async throws {
        recorded.withLock { $0.append(seconds) }
        started.yield(seconds)
        if holds {
            while true {
                try await Task.sleep(for: .seconds(3600))
            }
        }
        try Task.checkCancellation()
    }
}
