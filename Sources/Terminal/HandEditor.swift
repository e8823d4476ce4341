import Foundation
import LessonPlanKit

/// Opens text in `$VISUAL` / `$EDITOR` (else `vi`) for `/edit`, which decides what the result means.
package struct HandEditor {
    package let environment: [String: String]
    /// Ctrl-C in the editor reaches this process too (same process group): it must not end the session.
    package let interrupts: Interrupts

    /// The text as the teacher saved it.
    /// - Throws: ``UsageError`` when the editor is missing, cannot start or fails, or the file is gone.
    package func edit(_ text: String, fileName: String) throws(UsageError) -> String {
        let editor = try Editor.resolve(environment)
        let folder = FileManager.default.temporaryDirectory.appending(path: "lessonplan-edit-\(UUID().uuidString)")
        let file = folder.appending(path: fileName)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The plan may describe real students: a private folder, a private file.
        guard (try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])) != nil,
            FileManager.default.createFile(
                atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw UsageError(message: "Cannot write a temporary file for the editor; check that \(folder.deletingLastPathComponent().path) is writable.")
        }
        let status = try interrupts.ignoring { () throws(UsageError) -> Int32 in try editor.run(on: file.path, environment: environment) }
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
    package func run(on path: String, environment: [String: String]) throws(UsageError) -> Int32 {
        // Through the shell, so the command may carry arguments ("nano -w").
        let arguments = ["/bin/sh", "-c", "\(command) \"$1\"", "lessonplan-edit", path]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGXFSZ, SIGCHLD] { sigaddset(&defaults, signal) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp)
        guard spawned == 0 else {
            throw UsageError(message: "Cannot start the editor “\(command)” (\(String(cString: strerror(spawned)))); set VISUAL or EDITOR to one that works.")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let signalled = status & 0x7F
        return signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled
    }
}
