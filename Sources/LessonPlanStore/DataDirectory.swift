import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where lessonplan keeps sessions and line history: `$LESSONPLAN_HOME`, else
/// `$XDG_DATA_HOME/lessonplan`, else `~/.local/share/lessonplan`.
package struct DataDirectory: Sendable, Equatable {
    package let root: URL

    package init(root: URL) { self.root = root }

    /// Picks the directory from the environment, in the documented order.
    package static func resolve(environment: [String: String]) -> DataDirectory {
        if let home = environment["LESSONPLAN_HOME"], !home.isEmpty {
            return DataDirectory(root: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataDirectory(root: URL(fileURLWithPath: xdg, isDirectory: true).appending(path: "lessonplan"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return DataDirectory(
            root: URL(fileURLWithPath: home, isDirectory: true).appending(path: ".local/share/lessonplan"))
    }

    package var sessions: URL { root.appending(path: "sessions", directoryHint: .isDirectory) }
    package var historyFile: URL { root.appending(path: "history") }

    /// Creates the directories, readable by their owner only (0700), and checks that they are safe.
    /// - Throws: ``StoreError/io(path:reason:)`` when they cannot be created,
    ///   ``StoreError/unsafeDirectory(path:reason:fix:)`` when another user could change them.
    package func prepare() throws(StoreError) {
        // Nothing is created inside a directory that is already unsafe.
        try check()
        for url in [root, sessions] {
            var info = stat()
            if lstat(url.path, &info) != 0 {
                do {
                    try FileManager.default.createDirectory(
                        at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw .io(path: url.path, reason: "cannot create the directory")
                }
            }
        }
        try check()
    }

    /// Refuses a data directory that someone else could write into, as ssh refuses such a `~/.ssh`:
    /// another user could plant a link there, or change the sessions a teacher resumes.
    ///
    /// The root may be a link (to another disk, say); `sessions/` inside it may not. A directory
    /// that does not exist yet is fine: ``prepare()`` creates it safely.
    /// - Throws: ``StoreError/unsafeDirectory(path:reason:fix:)``.
    package func check() throws(StoreError) {
        for (url, follows) in [(root, true), (sessions, false)] {
            var info = stat()
            let found = follows ? stat(url.path, &info) : lstat(url.path, &info)
            guard found == 0 else { continue }
            let path = url.path
            if info.st_mode & S_IFMT == S_IFLNK {
                throw .unsafeDirectory(
                    path: path, reason: "is a symbolic link, and lessonplan does not follow links inside its data directory",
                    fix: "rm \(path)")
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .unsafeDirectory(path: path, reason: "is not a directory", fix: "mv \(path) \(path).old")
            }
            if info.st_uid != geteuid() {
                throw .unsafeDirectory(
                    path: path, reason: "belongs to another user (uid \(info.st_uid)), who could change your sessions",
                    fix: "sudo chown $(id -un) \(path)")
            }
            if info.st_mode & 0o022 != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                throw .unsafeDirectory(
                    path: path, reason: "can be written by other users (mode \(mode)), who could change your sessions",
                    fix: "chmod 700 \(path)")
            }
        }
    }

    /// The transcript of session `id`.
    package func transcript(id: String) -> URL { sessions.appending(path: "\(id).jsonl") }

    /// The small summary kept beside a transcript so listing need not read it whole.
    package func summary(id: String) -> URL { sessions.appending(path: "\(id).summary.json") }
}

/// Something went wrong with the files on disk, in one sentence that says what to do.
package enum StoreError: Error, Equatable, Sendable, LocalizedError {
    case locked(id: String)
    case notFound(reference: String, directory: String)
    case ambiguous(reference: String, matches: [String])
    case newerFormat(path: String, version: Int)
    case notATranscript(path: String)
    case io(path: String, reason: String)
    case nameTaken(name: String, id: String)
    case badName(String)
    /// A link, FIFO, device or directory where lessonplan expects one of its own files.
    case unsafeFile(path: String, reason: String)
    /// A data directory someone else could write into.
    case unsafeDirectory(path: String, reason: String, fix: String)
    /// An export's file exists and replacing it was not asked for.
    case exists(path: String)
    /// A record could not be appended; it is kept in memory to be written later.
    case notSaved(path: String, reason: String)

    package var errorDescription: String? {
        switch self {
        case .locked(let id):
            "Session \(id.prefix(8)) is open in another lessonplan; close that one first (or wait for it to finish)."
        case .notFound(let reference, let directory):
            "No session matches “\(reference)” in \(directory); run `lessonplan sessions` to list them."
        case .ambiguous(let reference, let matches):
            "“\(reference)” matches \(matches.count) sessions: \(matches.joined(separator: ", ")); type more of the id or the name."
        case .newerFormat(let path, let version):
            "\(path) was written by a newer lessonplan (transcript format \(version)); update lessonplan to open it."
        case .notATranscript(let path):
            "\(path) is not a lessonplan transcript; give a session id, a name, or a .jsonl file that lessonplan wrote."
        case .io(let path, let reason):
            "\(path): \(reason); check that the disk is not full and the directory is writable."
        case .nameTaken(let name, let id):
            "The name “\(name)” is already used by session \(id.prefix(8)); choose another."
        case .badName(let name):
            "“\(name.prefix(60))\(name.count > 60 ? "…" : "")” cannot be a session name; use 1 to 60 letters, digits, spaces, dots, dashes or underscores."
        case .unsafeFile(let path, let reason):
            "\(path) \(reason); lessonplan only opens regular files there, so remove it or give another session."
        case .unsafeDirectory(let path, let reason, let fix):
            "\(path) \(reason); run `\(fix)` and try again."
        case .exists(let path):
            "\(path) already exists; choose another file name, or add --force to replace it."
        case .notSaved(let path, let reason):
            "Could not write to \(path) (\(reason)); the file still ends on its last complete line, and what was not saved is kept in memory and written with the next change or when you type /save."
        }
    }
}
