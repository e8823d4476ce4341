import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real terminal for end-to-end tests: tmux running an interactive bash (job control on),
/// driven with send-keys and read with capture-pane, as a teacher's terminal would be.
package final class TerminalSession: Sendable {
    package let name: String
    private let socket: String

    /// Starts `bash --norc` in a detached tmux session of `columns` × `rows` with `environment` exported.
    package init(columns: Int = 80, rows: Int = 30, environment: [String: String]) throws {
        name = "lp\(UUID().uuidString.prefix(8))"
        socket = FileManager.default.temporaryDirectory.appending(path: "tmux-\(name)").path
        try Self.tmux(
            [
                "-S", socket, "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
                "env", "-i",
            ] + environment.map { "\($0.key)=\($0.value)" } + ["PS1=$ ", "bash", "--norc", "--noprofile", "-i"])
    }

    deinit { close() }

    /// Ends the terminal and everything running in it.
    package func close() {
        let server = (try? Self.tmux(["-S", socket, "display", "-p", "#{pid}"]))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        _ = try? Self.tmux(["-S", socket, "kill-server"])
        if let server { kill(server, SIGKILL) }
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Types `text` literally, then Enter unless `enter` is false.
    package func type(_ text: String, enter: Bool = true) throws {
        try Self.tmux(["-S", socket, "send-keys", "-t", name, "-l", text])
        if enter { try keys("Enter") }
    }

    /// Sends tmux key names, e.g. "C-c", "Escape", "Enter".
    package func keys(_ names: String...) throws {
        try Self.tmux(["-S", socket, "send-keys", "-t", name] + names)
    }

    /// Pastes `text` as the terminal does: bracketed when the program asked for it.
    package func paste(_ text: String) throws {
        // Through a file, so a paste may be larger than one command-line argument can be.
        let file = FileManager.default.temporaryDirectory.appending(path: "paste-\(name)-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.tmux(["-S", socket, "load-buffer", "-b", name, file.path])
        try Self.tmux(["-S", socket, "paste-buffer", "-p", "-d", "-b", name, "-t", name])
    }

    /// What the screen shows now (plus scrollback).
    package func screen() throws -> String {
        try Self.tmux(["-S", socket, "capture-pane", "-p", "-J", "-S", "-200", "-t", name])
    }

    /// What the window shows now, without the scrollback: what a person sees after the screen is cleared.
    package func visibleScreen() throws -> String {
        try Self.tmux(["-S", socket, "capture-pane", "-p", "-J", "-t", name])
    }

    /// The processes on the pane's terminal with their state (`T` is stopped), for job-control checks.
    package func processes() throws -> String {
        let tty = try Self.tmux(["-S", socket, "display", "-p", "-t", name, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return try Self.run("/bin/ps", ["-o", "pid,pgid,stat,comm", "-t", tty])
    }

    /// Waits until the screen holds `text` `count` times; throws with the screen when it does not.
    @discardableResult
    package func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(20)) async throws -> String {
        try await waitUntil("“\(text)”", timeout: timeout) { $0.components(separatedBy: text).count - 1 >= count }
    }

    /// Waits until the screen matches `pattern`; throws with the screen when it does not.
    @discardableResult
    package func waitFor(matching pattern: Regex<Substring>, timeout: Duration = .seconds(20)) async throws -> String {
        try await waitUntil("a match", timeout: timeout) { $0.contains(pattern) }
    }

    private func waitUntil(_ what: String, timeout: Duration, _ shows: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let shown = try screen()
            if shows(shown) { return shown }
            if ContinuousClock.now > deadline {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "never saw \(what):\n\(shown)"])
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @discardableResult
    private static func tmux(_ arguments: [String]) throws -> String {
        try run("/usr/bin/tmux", arguments)
    }

    private static func run(_ path: String, _ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(path) is missing; run scripts/setup"])
        }
        // posix_spawn and a file, not Foundation's Process and a pipe: the tmux server that
        // new-session forks keeps inherited descriptors open, and Process would wait for them forever.
        let capture = FileManager.default.temporaryDirectory.appending(path: "tmux-out-\(UUID().uuidString)").path
        defer { unlink(capture) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Nothing else may be inherited: a tmux server holding the test runner's pipes keeps `swift test` waiting,
        // and one holding the socket by which Foundation's Process learns that another test's child exited
        // leaves that test waiting forever. Closed in the child, so no other thread's new descriptor can slip through.
        // (glibc 2.34 has posix_spawn_file_actions_addclosefrom_np; Swift's Glibc module does not export it.)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "this libc cannot close descriptors in posix_spawn"])
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, nil)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let data = FileManager.default.contents(atPath: capture) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
