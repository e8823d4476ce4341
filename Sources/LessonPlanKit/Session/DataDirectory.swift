import Foundation

/// Where lessonplan keeps sessions and line history: `$LESSONPLAN_HOME`, else
/// `$XDG_DATA_HOME/lessonplan`, else `~/.local/share/lessonplan`.
public struct DataDirectory: Sendable, Equatable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Picks the directory from the environment, in the documented order.
    public static func resolve(environment: [String: String]) -> DataDirectory {
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

    public var sessions: URL { root.appending(path: "sessions", directoryHint: .isDirectory) }
    public var historyFile: URL { root.appending(path: "history") }

    /// Creates the directories, readable by their owner only (0700).
    /// - Throws: ``StoreError/io(path:reason:)`` when they cannot be created.
    public func prepare() throws(StoreError) {
        for url in [root, sessions] {
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io(path: url.path, reason: "cannot create the directory")
            }
        }
    }

    /// The transcript of session `id`.
    public func transcript(id: String) -> URL { sessions.appending(path: "\(id).jsonl") }

    /// The small summary kept beside a transcript so listing need not read it whole.
    public func summary(id: String) -> URL { sessions.appending(path: "\(id).summary.json") }
}

/// Something went wrong with the files on disk, in one sentence that says what to do.
public enum StoreError: Error, Equatable, Sendable, LocalizedError {
    case locked(id: String)
    case notFound(reference: String, directory: String)
    case ambiguous(reference: String, matches: [String])
    case newerFormat(path: String, version: Int)
    case notATranscript(path: String)
    case io(path: String, reason: String)
    case nameTaken(name: String, id: String)
    case badName(String)

    public var errorDescription: String? {
        switch self {
        case .locked(let id):
            "Session \(id.prefix(8)) is open in another lessonplan; close that one first (or wait for it to finish)."
        case .notFound(let reference, let directory):
            "No session matches “\(reference)” in \(directory); run `lessonplan sessions` to list them."
        case .ambiguous(let reference, let matches):
            "“\(reference)” matches \(matches.count) sessions (\(matches.joined(separator: ", "))); type more of the id."
        case .newerFormat(let path, let version):
            "\(path) was written by a newer lessonplan (transcript format \(version)); update lessonplan to open it."
        case .notATranscript(let path):
            "\(path) is not a lessonplan transcript; give a session id, a name, or a .jsonl file that lessonplan wrote."
        case .io(let path, let reason):
            "\(path): \(reason); check that the disk is not full and the directory is writable."
        case .nameTaken(let name, let id):
            "The name “\(name)” is already used by session \(id.prefix(8)); choose another."
        case .badName(let name):
            "“\(name)” cannot be a session name; use 1 to 60 letters, digits, spaces, dots, dashes or underscores."
        }
    }
}
