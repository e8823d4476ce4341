import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// What `lessonplan sessions` shows for one session, kept in a small file beside the transcript.
package struct SessionSummary: Codable, Equatable, Sendable {
    package var id: String
    package var name: String?
    package var created: Date
    package var grade: GradeBand
    package var minutes: Int
    package var topic: String
    package var versions: Int
    package var lastCommand: String?
    /// The transcript's size when this summary was written; a different size means it is stale.
    package var transcriptBytes: Int
    /// Some lines of the transcript are damaged (skipped when read); nil, as in older summaries, means none.
    package var damaged: Bool?
    /// For a unit: how many lessons it has; nil for a single lesson.
    package var lessons: Int?

    package init(
        id: String, name: String?, created: Date, grade: GradeBand, minutes: Int, topic: String, versions: Int,
        lastCommand: String?, transcriptBytes: Int, damaged: Bool = false, lessons: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.created = created
        self.grade = grade
        self.minutes = minutes
        self.topic = topic
        self.versions = versions
        self.lastCommand = lastCommand
        self.transcriptBytes = transcriptBytes
        self.damaged = damaged ? true : nil
        self.lessons = lessons
    }
}

/// A file in the sessions folder that looks like a transcript but cannot be listed, and why.
package struct UnreadableSession: Equatable, Sendable {
    /// The file's name in the sessions folder.
    package var file: String
    /// Why, in a few words that finish a sentence about the file.
    package var reason: String

    init(file: String, error: StoreError) {
        self.file = file
        switch error {
        case .newerFormat(_, let version):
            reason = "was written by a newer lessonplan (transcript format \(version)); update lessonplan to open it"
        case .notATranscript: reason = "has no line lessonplan can read as a transcript"
        case .unsafeFile(_, let what): reason = what
        case .io(_, let why): reason = "cannot be read (\(why))"
        default: reason = "cannot be read"
        }
    }
}

/// Every session in the sessions folder, and the files there that could not be read.
package struct SessionList: Sendable {
    /// Newest first.
    package var summaries: [SessionSummary]
    /// By file name.
    package var unreadable: [UnreadableSession]
}

/// The sessions folder: creating, finding, listing and removing transcripts.
package struct SessionStore: Sendable {
    /// Rebuilds a session's summary from its transcript, or nil when the records make no session. The engine
    /// folds records into state; the store only reads files, so the fold is handed in rather than known here.
    package typealias Summarize = @Sendable (LoadedTranscript) -> SessionSummary?

    package let directory: DataDirectory
    let summarize: Summarize

    /// - Parameter summarize: How a listing rebuilds a summary whose small file is missing or stale;
    ///   `SessionStore(directory:)` (beside the engine's state) folds the transcript as `resume` does.
    package init(directory: DataDirectory, summarize: @escaping Summarize) {
        self.directory = directory
        self.summarize = summarize
    }

    /// A fresh random session id: 16 lowercase hex digits.
    package static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))
    }

    /// Whether `text` is a session id as ``newID()`` makes them: 16 lowercase hex digits. A session's id
    /// is its file's name; only such a name is ever made into a path, whatever a file says.
    package static func isSessionID(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Checks a name typed for `/save` or `--name`.
    /// - Throws: ``StoreError/badName(_:)``.
    package static func validName(_ text: String) throws(StoreError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " ._-"))
        guard (1...60).contains(name.count), !name.hasPrefix("-"), !name.hasPrefix("."),
            name.unicodeScalars.allSatisfy(allowed.contains), !name.hasSuffix(".jsonl")
        else { throw .badName(name) }
        return name
    }

    /// Every readable session's summary, newest first; see ``listAll()``.
    package func list() -> [SessionSummary] {
        (try? listAll().summaries) ?? []
    }

    /// Every session's summary, newest first, and every `.jsonl` file that could not be read with
    /// the reason. Summaries are read from their small files; a missing or stale one is rebuilt
    /// from the transcript.
    /// - Throws: ``StoreError/unsafeDirectory(path:reason:fix:)`` for a directory others could write.
    package func listAll() throws(StoreError) -> SessionList {
        try directory.check()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.sessions.path)) ?? []
        var summaries: [SessionSummary] = []
        var unreadable: [UnreadableSession] = []
        for file in files where file.hasSuffix(".jsonl") {
            let id = String(file.dropLast(6))
            switch entry(id: id) {
            case .success(let summary): summaries.append(summary)
            case .failure(let error):
                // A session another process is creating right now is not yet readable, and not damaged.
                if !Self.beingWritten(directory.transcript(id: id).path) {
                    unreadable.append(UnreadableSession(file: file, error: error))
                }
            }
        }
        return SessionList(
            summaries: summaries.sorted { ($0.created, $0.id) > ($1.created, $1.id) },
            unreadable: unreadable.sorted { $0.file < $1.file })
    }

    /// Whether a transcript that cannot be read is a session still being made: a regular file that is empty (just
    /// created, its session line not yet written) or locked by the process writing it (its line half written).
    static func beingWritten(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        if info.st_size == 0 { return true }
        guard let fd = try? PrivateFiles.open(path, flags: O_RDONLY | O_NONBLOCK, followLinks: false) else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// The summary of one session, from its summary file if that is current.
    package func summary(id: String) -> SessionSummary? {
        try? entry(id: id).get()
    }

    /// The summary of one session, or why its transcript cannot be read.
    private func entry(id: String) -> Result<SessionSummary, StoreError> {
        let transcript = directory.transcript(id: id)
        var info = stat()
        guard lstat(transcript.path, &info) == 0 else {
            return .failure(.notFound(reference: id, directory: directory.sessions.path))
        }
        if let kind = PrivateFiles.kind(of: info.st_mode) { return .failure(.unsafeFile(path: transcript.path, reason: kind)) }
        if let summary = cachedSummary(id: id, transcript: info) { return .success(summary) }
        do {
            let loaded = try TranscriptReader.read(transcript, prompts: .skipped, followLinks: false)
            guard let summary = summarize(loaded) else { return .failure(.notATranscript(path: transcript.path)) }
            guard Self.isSessionID(id) else {
                return .failure(
                    .unsafeFile(path: transcript.path, reason: "is not named like a session (16 hex digits and .jsonl), so it is not listed"))
            }
            return .success(summary)
        } catch {
            return .failure(error)
        }
    }

    /// The summary file of a session when it still describes the transcript: written for its
    /// size, and not older than it (a transcript changed in place, say by one damaged byte, is newer).
    private func cachedSummary(id: String, transcript: stat) -> SessionSummary? {
        let path = directory.summary(id: id).path
        guard let fd = try? PrivateFiles.open(path, flags: O_RDONLY, followLinks: false) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0,
            (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) >= (transcript.st_mtim.tv_sec, transcript.st_mtim.tv_nsec),
            let data = try? PrivateFiles.read(descriptor: fd, path: path, limit: 1 << 16),
            let summary = try? Self.summaryDecoder.decode(SessionSummary.self, from: data),
            summary.transcriptBytes == Int(transcript.st_size), summary.id == id
        else { return nil }
        return summary
    }

    /// Rewrites the summary beside a transcript (atomically, 0600; the transcript itself is never rewritten).
    package func writeSummary(_ summary: SessionSummary) {
        guard Self.isSessionID(summary.id), let data = try? Self.summaryEncoder.encode(summary) else { return }
        try? PrivateFiles.write(data, to: directory.summary(id: summary.id), replace: true)
    }

    /// Rewrites the summary of the session whose transcript is `transcript`, when that is a session of
    /// this store's folder; a transcript elsewhere (`resume ./file.jsonl`) has no summary.
    package func writeSummary(_ summary: SessionSummary, beside transcript: URL) {
        guard Self.isSessionID(summary.id),
            transcript.standardizedFileURL.path == directory.transcript(id: summary.id).standardizedFileURL.path
        else { return }
        writeSummary(summary)
    }

    /// Runs `body` holding the store's name lock (`flock` on `sessions/.names.lock`), so that
    /// checking a name is free and taking it is one step for every lessonplan process.
    /// - Throws: what `body` throws, or ``StoreError`` when the lock file cannot be opened.
    package func withNameLock<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let path = directory.sessions.appending(path: ".names.lock").path
        let fd = try PrivateFiles.open(path, flags: O_RDWR | O_CREAT, followLinks: false)
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Finds a session by exact id, then name (exact, then in any case), then a unique prefix of
    /// an id or a name (in any case), or the path of a transcript file.
    /// - Throws: ``StoreError/notFound(reference:directory:)``, or ``StoreError/ambiguous(reference:matches:)``
    ///   naming the candidates.
    package func locate(_ reference: String) throws(StoreError) -> URL {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(".jsonl") || trimmed.contains("/") {
            let url = URL(fileURLWithPath: trimmed)
            var info = stat()
            guard lstat(url.path, &info) == 0 else {
                throw .notFound(reference: trimmed, directory: url.deletingLastPathComponent().path)
            }
            return url
        }
        try directory.check()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.sessions.path)) ?? []
        let ids = files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.filter(Self.isSessionID).sorted()
        if ids.contains(trimmed) { return directory.transcript(id: trimmed) }
        guard !trimmed.isEmpty else { throw .notFound(reference: trimmed, directory: directory.sessions.path) }
        let summaries = ids.compactMap { summary(id: $0) }
        let lowered = trimmed.lowercased()
        let steps: [(SessionSummary) -> Bool] = [
            { $0.name == trimmed },
            { $0.name?.lowercased() == lowered },
        ]
        for step in steps {
            let named = summaries.filter(step)
            if named.count == 1 { return directory.transcript(id: named[0].id) }
            if named.count > 1 { throw .ambiguous(reference: trimmed, matches: named.map(Self.describe)) }
        }
        let prefixed = Set(
            ids.filter { $0.hasPrefix(lowered) }
                + summaries.filter { $0.name?.lowercased().hasPrefix(lowered) == true }.map(\.id))
        switch prefixed.count {
        case 0: throw .notFound(reference: trimmed, directory: directory.sessions.path)
        case 1: return directory.transcript(id: prefixed.first ?? "")
        default:
            throw .ambiguous(
                reference: trimmed,
                matches: prefixed.sorted().map { id in summaries.first { $0.id == id }.map(Self.describe) ?? String(id.prefix(8)) })
        }
    }

    /// A candidate in an ambiguity: `3f9a01bc “photo week”` or `3f9a01bc (Photosynthesis)`.
    private static func describe(_ summary: SessionSummary) -> String {
        let id = String(summary.id.prefix(8))
        if let name = summary.name { return "\(id) “\(TerminalSanitizer.cleanLine(name, limit: 60))”" }
        return "\(id) (\(TerminalSanitizer.cleanLine(summary.topic, limit: 40)))"
    }

    /// Reads a transcript found by ``locate(_:)``, never through a link inside the sessions folder.
    /// - Throws: ``StoreError``.
    package func read(_ url: URL, prompts: TranscriptReader.Prompts = .kept) throws(StoreError) -> LoadedTranscript {
        let inside = url.deletingLastPathComponent().standardizedFileURL.path == directory.sessions.standardizedFileURL.path
        let loaded = try TranscriptReader.read(url, prompts: prompts, followLinks: !inside)
        // Names come back only from this machine's class file; restoring reads no word list.
        return ClassStore(directory: directory).restoring(loaded, into: ClassNames(), ordinaryWords: [])
    }

    /// Throws when another session already uses `name`.
    package func ensureNameFree(_ name: String, except id: String) throws(StoreError) {
        // Names are matched in any case, so they are unique in any case too.
        for summary in list() where summary.name?.lowercased() == name.lowercased() && summary.id != id {
            throw .nameTaken(name: name, id: summary.id)
        }
    }

    /// Removes a session's transcript and summary, refusing while another process has it open.
    ///
    /// Nothing is written to the file first; a link, FIFO or device in its place is refused.
    package func remove(id: String) throws(StoreError) {
        guard Self.isSessionID(id) else { throw .notFound(reference: id, directory: directory.sessions.path) }
        let url = directory.transcript(id: id)
        do {
            // Taking the lock proves no REPL is appending to it right now.
            let writer = try TranscriptWriter(url: url, opening: .existing)
            try? FileManager.default.removeItem(at: directory.summary(id: id))
            do { try FileManager.default.removeItem(at: url) } catch {
                throw StoreError.io(path: url.path, reason: "cannot remove the file")
            }
            withExtendedLifetime(writer) {}
        } catch let error as StoreError {
            throw error
        } catch {
            throw .io(path: url.path, reason: "cannot remove the file")
        }
    }

    /// Removes the sessions `ids` names that still have no plan version; one open in another
    /// process (a first plan on its way) or given a plan since is kept, with the reason.
    package func prune(_ ids: [String]) -> (removed: [String], kept: [(id: String, error: StoreError)]) {
        var removed: [String] = []
        var kept: [(id: String, error: StoreError)] = []
        for id in ids {
            do {
                guard let summary = summary(id: id), summary.versions == 0 else { continue }
                try remove(id: id)
                removed.append(id)
            } catch {
                kept.append((id, error))
            }
        }
        return (removed, kept)
    }

    private static var summaryEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = TranscriptCoder.dateEncoding
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    private static var summaryDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = TranscriptCoder.dateDecoding
        return decoder
    }
}
