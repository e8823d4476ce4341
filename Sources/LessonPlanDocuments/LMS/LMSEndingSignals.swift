import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM and SIGHUP while an LMS file is being made: the tool running (zip, LibreOffice) is told to end, the
/// scratch folder (the quiz with its answer key, `quiz.fods`) removed, and the process then ends by the same
/// signal, as it would have without this. Installed only while the scratch folder exists.
/// Unchecked: the sources are set once in `init`; the tool's pid and the ending flag are behind mutexes.
final class LMSEndingSignals: @unchecked Sendable {
    private static let signals = [SIGTERM, SIGHUP]
    private let sources: [any DispatchSourceSignal]
    private let previous: [(Int32, sighandler_t?)]
    private let state = ToolState()

    init(removing folder: URL) {
        previous = Self.signals.map { ($0, signal($0, SIG_IGN)) }
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
            source.setEventHandler { [state] in
                state.ending.withLock { $0 = true }
                if let pid = state.tool.withLock({ $0 }) {
                    kill(pid, SIGTERM)
                    // Up to two seconds for it to go, so it writes nothing into the folder once it is removed.
                    for _ in 0..<200 where kill(pid, 0) == 0 && !Self.isZombie(pid) { usleep(10_000) }
                }
                try? FileManager.default.removeItem(at: folder)
                signal(number, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, number)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(number)
                _exit(128 + number)
            }
            source.resume()
        }
        self.sources = sources
        // libdispatch installs its handlers asynchronously: until it has, a SIGTERM would be ignored.
        for number in Self.signals {
            for _ in 0..<200 where Self.isIgnored(number) { usleep(5_000) }
        }
    }

    /// The tool now running in the folder, told to end should a signal come.
    func running(_ pid: pid_t?) { state.tool.withLock { $0 = pid } }

    /// Back to how the signals were; while a terminating signal is being handled, this thread waits for it to end
    /// the process instead.
    func stop() {
        if state.ending.withLock({ $0 }) {
            while true { pause() }
        }
        for source in sources { source.cancel() }
        for (number, handler) in previous { signal(number, handler) }
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
    }

    /// Whether `pid` has ended and waits to be reaped, read from `/proc` so that nothing reaps it here.
    private static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[close...].dropFirst(2).first == "Z"
    }
}

/// The tool's pid and whether the process is ending, shared with the signal handlers.
private final class ToolState: Sendable {
    let tool = Mutex<pid_t?>(nil)
    /// Set once SIGTERM or SIGHUP is being handled: the process is ending.
    let ending = Mutex(false)
}
