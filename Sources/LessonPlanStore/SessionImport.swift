import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// A transcript from outside the sessions folder made a session of this store.
package struct ImportedSession: Sendable {
    /// The copy in the sessions folder, the file new turns go to.
    package var url: URL
    /// The new session's id, which the tool chose.
    package var id: String
    /// One sentence for the terminal when the transcript was copied; nil when it already was a session here.
    package var note: String?
}

extension SessionStore {
    /// The session `url` names, as a file of this store: a transcript already in the sessions folder is
    /// itself; one from anywhere else (a file someone sent) is copied in, mode 0600, as a new session under a
    /// fresh id, its session line's id replaced by that one. So `resume` never appends to a file outside
    /// the data directory, no header's id is ever a path, and `sessions` lists what was resumed. Its name
    /// is kept when it is a valid name no other session here has.
    /// - Throws: ``StoreError`` for a file that cannot be read or is no transcript, or a folder that cannot
    ///   take the copy.
    package func importIfOutside(_ url: URL) throws(StoreError) -> ImportedSession {
        let stem = url.deletingPathExtension().lastPathComponent
        let folder = url.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path
        if Self.isSessionID(stem), folder == directory.sessions.standardizedFileURL.resolvingSymlinksInPath().path {
            return ImportedSession(url: url, id: stem, note: nil)
        }
        let data = try PrivateFiles.read(url, followLinks: true)
        let loaded = try TranscriptReader.parse(data, path: url.path, prompts: .skipped)
        guard case .header(var header) = loaded.records.first else { throw .notATranscript(path: url.path) }
        try directory.prepare()
        let id = Self.newID()
        header.id = id
        var dropped: String?
        return try withNameLock { () throws(StoreError) -> ImportedSession in
            if let name = header.name {
                let valid = try? Self.validName(name)
                if valid == nil || (try? ensureNameFree(name, except: "")) == nil {
                    dropped = TerminalSanitizer.cleanLine(name, limit: 40)
                    header.name = nil
                }
            }
            let copy = directory.transcript(id: id)
            try PrivateFiles.write(Self.replacingHeader(of: data, with: header), to: copy, replace: false)
            let shown = TerminalSanitizer.cleanLine(url.lastPathComponent, limit: 60)
            var note = "Copied \(shown) into your sessions as \(id.prefix(8)); new turns go to that copy, and \(shown) is left as it was."
            if let dropped { note += " Its name “\(dropped)” is taken or not a valid name here, so the copy has none (/save NAME names it)." }
            return ImportedSession(url: copy, id: id, note: note)
        }
    }

    /// The transcript's bytes with its session line (its first line that is not blank) written anew for
    /// `header`, the rest as it was; unchanged when that line is not a session line (the reader then says so).
    static func replacingHeader(of data: Data, with header: SessionHeader) -> Data {
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            let line = data[start..<end]
            let next = end < data.endIndex ? end + 1 : end
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                start = next
                continue
            }
            guard case .header = try? TranscriptCoder().decode(Data(line)) else { return data }
            var out = TranscriptCoder().encode(.header(header))
            if out.last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
            out.append(data[next...])
            return out
        }
        return data
    }
}
