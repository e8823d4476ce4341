import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What must not outlive the tool when SIGTERM or SIGHUP ends it mid-way: the process groups of the programs it
/// runs (pandoc, pdftotext, LibreOffice, zip, each in a group of its own, which a signal to the tool's group never
/// reaches) and the temporary folders holding a plan's copy.
///
/// While anything is tracked, the two signals are caught: the groups are killed, the folders removed, and the
/// process then ends by the same signal, as it would have without this. With nothing tracked the signals are as
/// they were, so this never stands in the way of the editor's own handling (`/edit`) or a plain exit.
package enum EndingCleanup {
    private static let signals = [SIGTERM, SIGHUP]

    private struct State {
        var groups: Set<pid_t> = []
        var folders: Set<String> = []
        var sources: [any DispatchSourceSignal] = []
        var previous: [(Int32, sighandler_t?)] = []
        var isEmpty: Bool { groups.isEmpty && folders.isEmpty }
    }

    private static let state = Mutex(State())

    /// The signal ending the process, once ``end(by:)`` has begun (0 before): killing a tool's group lets the work
    /// waiting on it fail and reach `exit` on another thread before this one raises the signal, so `exit` checks it.
    private static let ending = Atomic<Int32>(0)
    private static let exitHookInstalled = Atomic<Bool>(false)

    /// Kills the process group `group` (a child's pid: Foundation's `Process` makes each child a group leader) if
    /// the tool is ended before ``forget(group:)``.
    package static func track(group: pid_t) { change { $0.groups.insert(group) } }
    package static func forget(group: pid_t) { change { $0.groups.remove(group) } }

    /// Removes `folder` if the tool is ended before ``forget(folder:)``.
    package static func track(folder: URL) { change { $0.folders.insert(folder.path) } }
    package static func forget(folder: URL) { change { $0.folders.remove(folder.path) } }

    /// Whether anything is tracked now (for tests).
    package static var isTracking: Bool { state.withLock { !$0.isEmpty } }

    private static func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            let wasEmpty = state.isEmpty
            body(&state)
            if wasEmpty, !state.isEmpty { install(&state) }
            if !wasEmpty, state.isEmpty { uninstall(&state) }
        }
    }

    private static func install(_ state: inout State) {
        state.previous = signals.map { ($0, signal($0, SIG_IGN)) }
        state.sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { end(by: number) }
            source.resume()
            return source
        }
        for number in signals { DispatchSignals.ensureHandler(number) }
        if !exitHookInstalled.exchange(true, ordering: .relaxed) {
            atexit { EndingCleanup.endBySignalIfEnding() }
        }
    }

    /// Run by `exit` on whichever thread calls it: once a signal is ending the process, the process ends by it
    /// there too, so a command that fails because its tool was killed never ends with an ordinary exit status.
    private static func endBySignalIfEnding() {
        let number = ending.load(ordering: .acquiring)
        guard number != 0 else { return }
        raiseNow(number)
    }

    /// Sets `number` to its default, unblocks it on this thread and raises it: the process ends now, by that
    /// signal, whatever other threads block (and should the signal not end it, as if it had).
    package static func raiseNow(_ number: Int32) -> Never {
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        _exit(128 + number)
    }

    private static func uninstall(_ state: inout State) {
        for source in state.sources { source.cancel() }
        for (number, handler) in state.previous { signal(number, handler) }
        state.sources = []
        state.previous = []
    }

    /// Removes every tracked folder, kills every tracked group, then ends the process by `number` at once: the
    /// groups go last, and should the work they were doing fail and reach `exit` first, `exit` ends by the signal.
    private static func end(by number: Int32) {
        let (groups, folders) = state.withLock { ($0.groups, $0.folders) }
        for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        ending.store(number, ordering: .releasing)
        signal(number, SIG_DFL)
        for group in groups { kill(-group, SIGKILL) }
        raiseNow(number)
    }
}

/// libdispatch catches a signal for its signal sources with a handler of its own, which it installs only for the
/// first source of that signal it ever sees, asynchronously. Code that sets the signal back to its default when
/// done (so that, between uses, SIGTERM ends the process as usual) would find the next source deaf: the handler is
/// gone and libdispatch does not install it again. So the handler is kept the first time and put back after.
package enum DispatchSignals {
    private static let saved = Mutex<[Int32: sigaction]>([:])

    /// Call after resuming a new signal source for `number` (with the signal set to be ignored meanwhile): returns
    /// once libdispatch's handler is in place, waiting up to a second for it the first time.
    package static func ensureHandler(_ number: Int32) {
        if var action = saved.withLock({ $0[number] }) {
            sigaction(number, &action, nil)
            return
        }
        for _ in 0..<200 where isIgnored(number) { usleep(5_000) }
        var current = sigaction()
        guard !isIgnored(number), sigaction(number, nil, &current) == 0 else { return }
        saved.withLock { $0[number] = current }
    }

    /// Whether `number` is set to be ignored (libdispatch's handler not in place).
    package static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1
    }
}
