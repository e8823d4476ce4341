import Dispatch
import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Synchronization

/// Opens text in `$VISUAL` / `$EDITOR` (else `vi`) for `/edit`, which decides what the result means.
package struct HandEditor {
    package let environment: [String: String]
    /// Ctrl-C in the editor reaches this process too (same process group): it must not end the session.
    package let interrupts: Interrupts

    /// The text as the teacher saved it.
    /// - Throws: ``UsageError`` when the editor is missing, cannot start or fails, or the file is gone.
    package func edit(_ text: String, fileName: String) throws(UsageError) -> String {
        let editor = try Editor.resolve(environment)
        // The plan may describe real students: a private folder, a private file.
        let temporary = FileManager.default.temporaryDirectory.path
        guard let folder = try? PrivateFiles.temporaryFolder("lessonplan-edit", removedIfEnded: false) else {
            throw UsageError(message: "Cannot write a temporary file for the editor; check that \(temporary) is writable.")
        }
        let file = folder.appending(path: fileName)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? PrivateFiles.write(Data(text.utf8), to: file, replace: false)) != nil else {
            throw UsageError(message: "Cannot write a temporary file for the editor; check that \(temporary) is writable.")
        }
        // Ended while the editor runs (SIGTERM, SIGHUP): the editor is stopped and the copy removed first.
        let ending = EndingSignals(removing: folder)
        defer { ending.stop() }
        let status = try interrupts.ignoring { () throws(UsageError) -> Int32 in
            try editor.run(on: file.path, environment: environment) { ending.editor = $0 }
        }
        guard status == 0 else {
            throw UsageError(message: "The editor “\(editor.command)” exited with status \(status).")
        }
        guard let data = try? Data(contentsOf: file) else {
            throw UsageError(message: "The edited file is gone.")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The teacher's editor, found before it is started so a typo gets a sentence, not a shell error.
package struct Editor {
    /// What VISUAL or EDITOR said (it may carry arguments, e.g. "code --wait").
    package let command: String

    /// `$VISUAL`, else `$EDITOR`, else `vi`, checked to exist on the PATH.
    /// - Throws: ``UsageError`` naming the editor and how to set another.
    package static func resolve(_ environment: [String: String]) throws(UsageError) -> Editor {
        let named = [("VISUAL", environment["VISUAL"]), ("EDITOR", environment["EDITOR"])]
            .first { !($0.1 ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        let command = named?.1 ?? "vi"
        let program = command.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? command
        let paths = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let found =
            program.contains("/")
            ? FileManager.default.isExecutableFile(atPath: program)
            : paths.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + program) }
        guard found else {
            let source = named.map { "$\($0.0)" } ?? "the default editor"
            throw UsageError(
                message: "The editor “\(program)” (\(source)) is not installed; set VISUAL or EDITOR to one that is, e.g. `export EDITOR=nano`.")
        }
        return Editor(command: command)
    }

    /// Runs the editor on `path` in this process group, so it owns the terminal as git's editor does,
    /// with the signals this process ignores back at their defaults; returns its exit status.
    package func run(on path: String, environment: [String: String], started: (pid_t) -> Void = { _ in }) throws(UsageError)
        -> Int32
    {
        // Through the shell, so the command may carry arguments ("nano -w").
        let arguments = ["/bin/sh", "-c", "\(command) \"$1\"", "lessonplan-edit", path]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGXFSZ, SIGCHLD, SIGTERM, SIGHUP] {
            sigaddset(&defaults, signal)
        }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp)
        guard spawned == 0 else {
            throw UsageError(
                message: "Cannot start the editor “\(command)” (\(String(cString: strerror(spawned)))); set VISUAL or EDITOR to one that works.")
        }
        started(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let signalled = status & 0x7F
        return signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled
    }
}

/// SIGTERM and SIGHUP while the editor has the plan's copy: the editor is ended, the copy's folder
/// removed, and the process then ends by the same signal, as it would have without this.
/// Unchecked: the sources are set once in `init`; `editor` is behind a mutex.
final class EndingSignals: @unchecked Sendable {
    private static let signals = [SIGTERM, SIGHUP]
    private let sources: [any DispatchSourceSignal]
    private let previous: [(Int32, sighandler_t?)]
    private let child = EditorProcess()

    init(removing folder: URL) {
        previous = Self.signals.map { ($0, signal($0, SIG_IGN)) }
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
            source.setEventHandler { [child] in
                // From here the process ends: `stop()`, on the thread that waited for the editor, must not put the
                // old handlers back under this one (a SIGTERM restored to "ignore" would leave the session running).
                child.ending.withLock { $0 = true }
                if let pid = child.pid.withLock({ $0 }) {
                    // The editor may be a shell that started the real one: when this process leads its own
                    // group (a shell's job), the whole group is told, this process included (it ends next).
                    if getpgrp() == getpid() { kill(-getpgrp(), SIGTERM) } else { kill(pid, SIGTERM) }
                    // Up to two seconds for the editor to go (its swap files with it), left for `run` to reap.
                    for _ in 0..<200 where Self.isRunning(pid) { usleep(10_000) }
                }
                try? FileManager.default.removeItem(at: folder)
                EndingCleanup.raiseNow(number)
            }
            source.resume()
        }
        self.sources = sources
        // libdispatch installs its handlers asynchronously, and only for the first source of a signal: until it is
        // in place (or put back, after an export or an earlier /edit set the signal back), a SIGTERM would be ignored.
        for number in Self.signals { DispatchSignals.ensureHandler(number) }
    }

    /// Whether `pid` still runs (a zombie has ended), read from `/proc` so that nothing reaps it here.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst(2).first != "Z"
    }

    /// The editor's process, once started.
    var editor: pid_t? {
        get { child.pid.withLock { $0 } }
        set { child.pid.withLock { $0 = newValue } }
    }

    /// Back to how the signals were before the editor started; while a terminating signal is being handled, this
    /// thread waits for it to end the process instead.
    func stop() {
        if child.ending.withLock({ $0 }) {
            while true { pause() }
        }
        for source in sources { source.cancel() }
        for (number, handler) in previous { signal(number, handler) }
    }
}

/// The editor's pid, shared with the signal handlers.
private final class EditorProcess: Sendable {
    let pid = Mutex<pid_t?>(nil)
    /// Set once SIGTERM or SIGHUP is being handled: the process is ending.
    let ending = Mutex(false)
}
