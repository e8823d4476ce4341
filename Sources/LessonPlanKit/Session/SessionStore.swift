import Foundation

/// What `lessonplan sessions` shows for one session, kept in a small file beside the transcript.
public struct SessionSummary: Codable, Equatable, Sendable {
    public var id: String
    public var name: String?
    public var created: Date
    public var grade: GradeBand
    public var minutes: Int
    public var topic: String
    public var versions: Int
    public var lastCommand: String?
    /// The transcript's size when this summary was written; a different size means it is stale.
    public var transcriptBytes: Int

    public init(state: SessionState, transcriptBytes: Int) {
        id = state.header.id
        name = state.name
        created = state.header.created
        grade = state.currentInputs.grade
        minutes = state.currentInputs.minutes
        topic = state.currentInputs.topic
        versions = state.versions.count
        lastCommand = state.lastCommand
        self.transcriptBytes = transcriptBytes
    }
}

/// The sessions folder: creating, finding, listing and removing transcripts.
public struct SessionStore: Sendable {
    public let directory: DataDirectory

    public init(directory: DataDirectory) { self.directory = directory }

    /// A fresh random session id: 16 lowercase hex digits.
    public static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))
    }

    /// Checks a name typed for `/save` or `--name`.
    /// - Throws: ``StoreError/badName(_:)``.
    public static func validName(_ text: String) throws(StoreError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " ._-"))
        guard (1...60).contains(name.count), !name.hasPrefix("-"), !name.hasPrefix("."),
            name.unicodeScalars.allSatisfy(allowed.contains), !name.hasSuffix(".jsonl")
        else { throw .badName(name) }
        return name
    }

    /// Every session's summary, newest first. Summaries are read from their small files; a
    /// missing or stale one is rebuilt from the transcript. Unreadable transcripts are skipped.
    public func list() -> [SessionSummary] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.sessions.path)) ?? []
        var summaries: [SessionSummary] = []
        for file in files where file.hasSuffix(".jsonl") {
            let id = String(file.dropLast(6))
            if let summary = summary(id: id) { summaries.append(summary) }
        }
        return summaries.sorted { ($0.created, $0.id) > ($1.created, $1.id) }
    }

    /// The summary of one session, from its summary file if that is current.
    public func summary(id: String) -> SessionSummary? {
        let transcript = directory.transcript(id: id)
        let size = (try? FileManager.default.attributesOfItem(atPath: transcript.path)[.size] as? Int) ?? -1
        if let data = try? Data(contentsOf: directory.summary(id: id)),
            let summary = try? Self.summaryDecoder.decode(SessionSummary.self, from: data),
            summary.transcriptBytes == size
        {
            return summary
        }
        guard let loaded = try? TranscriptReader.read(transcript, prompts: .skipped),
            let state = TranscriptReader.state(of: loaded)
        else { return nil }
        return SessionSummary(state: state, transcriptBytes: loaded.size)
    }

    /// Rewrites the summary beside a transcript (atomically; the transcript itself is never rewritten).
    public func writeSummary(_ summary: SessionSummary) {
        guard let data = try? Self.summaryEncoder.encode(summary) else { return }
        let url = directory.summary(id: summary.id)
        try? data.write(to: url, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }

    /// Finds a session by exact id, exact name, id prefix, or the path of a transcript file.
    /// - Throws: ``StoreError/notFound(reference:directory:)`` or ``StoreError/ambiguous(reference:matches:)``.
    public func locate(_ reference: String) throws(StoreError) -> URL {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(".jsonl") || trimmed.contains("/") {
            let url = URL(fileURLWithPath: trimmed)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw .notFound(reference: trimmed, directory: url.deletingLastPathComponent().path)
            }
            return url
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.sessions.path)) ?? []
        let ids = files.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }
        if ids.contains(trimmed) { return directory.transcript(id: trimmed) }
        let named = ids.filter { id in summary(id: id)?.name == trimmed }
        if let id = named.first { return directory.transcript(id: id) }
        let matches = trimmed.isEmpty ? [] : ids.filter { $0.hasPrefix(trimmed.lowercased()) }.sorted()
        switch matches.count {
        case 0: throw .notFound(reference: trimmed, directory: directory.sessions.path)
        case 1: return directory.transcript(id: matches[0])
        default:
            let described = matches.map { id in
                let summary = summary(id: id)
                return "\(id.prefix(8)) \(summary?.name ?? summary?.topic ?? "")".trimmingCharacters(in: .whitespaces)
            }
            throw .ambiguous(reference: trimmed, matches: described)
        }
    }

    /// Throws when another session already uses `name`.
    public func ensureNameFree(_ name: String, except id: String) throws(StoreError) {
        for summary in list() where summary.name == name && summary.id != id {
            throw .nameTaken(name: name, id: summary.id)
        }
    }

    /// Removes a session's transcript and summary, refusing while another process has it open.
    public func remove(id: String) throws(StoreError) {
        let url = directory.transcript(id: id)
        do {
            // Taking the lock proves no REPL is appending to it right now.
            let writer = try TranscriptWriter(url: url)
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
