import Foundation
import LessonPlanCore

/// A transcript read back from disk, with anything that had to be skipped.
package struct LoadedTranscript: Sendable {
    package var records: [TranscriptRecord]
    /// One sentence per line that was skipped (a torn last line, an unknown type, a damaged line).
    package var warnings: [String]
    /// The file's size when read.
    package var size: Int
    /// The numbers of damaged lines that were skipped (not a torn last line, nor an unknown type).
    package var damagedLines: [Int] = []
    /// The session line was damaged, so the header was pieced together from the lines after it.
    package var headerRebuilt = false

    /// Whether anything but a torn last line or a newer type was lost.
    package var isDamaged: Bool { headerRebuilt || !damagedLines.isEmpty }
}

/// Reads transcripts line by line, each on its own: a damaged line (bad JSON, bad UTF-8, a name
/// or topic that would not be accepted if typed) is reported with its number and skipped, and
/// every intact line after it still counts. A newer format or a file with no transcript line
/// at all is refused.
package enum TranscriptReader {
    /// What a reader keeps of each `turn_started` line's prompt (`instructions` and `input`).
    package enum Prompts: Sendable {
        /// As written: for `replay --rerun`, exports and anything that audits what was sent.
        case kept
        /// Checked exactly as when kept, so the same lines are read and the same ones skipped,
        /// but left empty: the prompts are most of a long transcript's bytes, and `resume`,
        /// `replay` and `sessions` never show them.
        case skipped
    }

    /// Reads every record of the transcript at `url`.
    ///
    /// The file is opened without blocking and refused unless it is a regular file, so a FIFO or
    /// device named like a transcript never hangs the tool.
    /// - Parameters:
    ///   - prompts: whether `turn_started` prompts are kept or read as empty strings.
    ///   - followLinks: false inside the data directory, whose files are never links.
    /// - Throws: ``StoreError`` for a missing, irregular, newer-format or non-transcript file.
    package static func read(_ url: URL, prompts: Prompts = .kept, followLinks: Bool = true) throws(StoreError)
        -> LoadedTranscript
    {
        // Read, not mapped: see PrivateFiles.read. One pread into one buffer costs about what
        // mapping did, where Foundation's chunked read was a seventh of `resume`.
        let data = try PrivateFiles.read(url, followLinks: followLinks)
        return try parse(data, path: url.path, prompts: prompts)
    }

    /// Reads records from the bytes of a transcript.
    /// - Parameter prompts: whether `turn_started` prompts are kept or read as empty strings.
    /// - Throws: ``StoreError``.
    package static func parse(_ data: Data, path: String, prompts: Prompts = .kept) throws(StoreError) -> LoadedTranscript {
        identified(try data.withUnsafeBytes { raw in fold(raw, path: path, prompts: prompts) }.get(), path: path)
    }

    /// The transcript with its session id taken from the file's name, never from the session line: a
    /// file may have been copied, or written by someone else, and the id is what names its files on disk.
    /// A session line that disagrees is named in one warning.
    static func identified(_ transcript: LoadedTranscript, path: String) -> LoadedTranscript {
        guard case .header(var header) = transcript.records.first else { return transcript }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        // A file named otherwise keeps its line's id for showing only: no path is ever made from it.
        guard SessionStore.isSessionID(stem), header.id != stem else { return transcript }
        var fixed = transcript
        let said = TerminalSanitizer.cleanLine(header.id, limit: 40)
        fixed.warnings.append(
            "The session line of \(path) says its id is “\(said)”, but a session's id is its file's name, so it is \(stem) here.")
        header.id = stem
        fixed.records[0] = .header(header)
        return fixed
    }

    /// The lenient fold over every line, on bytes already in memory so that a line the fast path
    /// reads is never copied out first.
    private static func fold(
        _ raw: UnsafeRawBufferPointer, path: String, prompts: Prompts
    ) -> Result<LoadedTranscript, StoreError> {
        let coder = TranscriptCoder()
        var records: [TranscriptRecord] = []
        var warnings: [String] = []
        var damaged: [Int] = []
        var headerLost = false
        var seenLine = false
        var lineNumber = 0
        for line in lines(of: raw) {
            lineNumber += 1
            guard !line.isBlank else { continue }
            let isFirst = !seenLine
            seenLine = true
            let isLast = line.range.upperBound == raw.count
            let bytes = UnsafeRawBufferPointer(rebasing: raw[line.range])
            var record: TranscriptRecord
            do throws(TranscriptLineError) {
                if let fast = TranscriptLineScanner.record(in: bytes, prompts: prompts) {
                    record = fast
                } else {
                    let full = try coder.decodeWithoutFastPath(Data(bytes))
                    record = prompts == .kept ? full : full.withoutPrompts
                }
                if let problem = record.unacceptable { throw .unreadable(problem) }
            } catch {
                if case .newerVersion(let version) = error { return .failure(.newerFormat(path: path, version: version)) }
                if isFirst { headerLost = true }
                switch error {
                case .newerVersion: break
                case .unknownType(let type):
                    warnings.append("Line \(lineNumber) has type “\(type.prefix(40))”, which this lessonplan does not know; skipped.")
                case .unreadable where isLast && !isFirst:
                    warnings.append("The last line of \(path) was cut off (the program was stopped mid-write); ignored.")
                case .unreadable(let reason):
                    damaged.append(lineNumber)
                    let what = isFirst ? " (the session line)" : ""
                    warnings.append("Line \(lineNumber)\(what) of \(path) is damaged (\(reason)); skipped, and the lines after it are read as usual.")
                }
                continue
            }
            if isFirst, !record.isHeader {
                headerLost = true
                damaged.append(lineNumber)
                warnings.append(
                    "Line \(lineNumber) of \(path) should be the session line but is not; the session is pieced together from the lines there are.")
            }
            records.append(record)
        }
        guard !records.isEmpty else { return .failure(.notATranscript(path: path)) }
        if headerLost {
            guard let header = rebuiltHeader(from: records, path: path) else { return .failure(.notATranscript(path: path)) }
            records.insert(.header(header), at: 0)
        }
        return .success(
            LoadedTranscript(
                records: records, warnings: warnings, size: raw.count, damagedLines: damaged, headerRebuilt: headerLost))
    }

    /// A session line for a transcript whose own is damaged: the id from the file name, the rest
    /// from the first turn, so the session can still be listed, resumed and exported.
    private static func rebuiltHeader(from records: [TranscriptRecord], path: String) -> SessionHeader? {
        var started: TurnStarted?
        var first: Date?
        var name: String?
        for record in records {
            switch record {
            case .header(let header): return header
            case .turnStarted(let turn):
                started = started ?? turn
                first = first ?? turn.at
            case .turnEnded(let ended): first = first ?? ended.at
            case .undo(let undo): first = first ?? undo.at
            case .named(let named):
                first = first ?? named.at
                name = named.name
            case .handEdit(let edit): first = first ?? edit.at
            case .sourceAdded(let added): first = first ?? added.at
            case .sourceRemoved(let removed): first = first ?? removed.at
            case .unit(let unit): first = first ?? unit.at
            case .lesson(let lesson): first = first ?? lesson.at
            case .setting(let setting): first = first ?? setting.at
            case .results(let results): first = first ?? results.at
            case .forms(let forms): first = first ?? forms.at
            }
        }
        guard let created = first else { return nil }
        let inputs =
            started?.inputs
            ?? LessonInputs(
                recorded: .sixTo8, topic: "(unknown: the session line is damaged)", minutes: 45, standards: "",
                constraints: "")
        let id = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return SessionHeader(
            id: id, created: created, inputs: inputs, model: started?.model ?? "", baseUrl: "", name: name,
            toolVersion: "", framework: started?.framework.flatMap { $0 == Framework.defaultName ? nil : $0 })
    }

    /// Where each line of `raw` is (offsets from its start, without the newline) and whether it
    /// is blank, found with `memchr` on the raw bytes: walking a `Data` byte by byte through its
    /// generic index cost more than decoding the JSON of a 10,000-turn transcript.
    private static func lines(of raw: UnsafeRawBufferPointer) -> [(range: Range<Int>, isBlank: Bool)] {
        guard let base = raw.baseAddress else { return [] }
        let count = raw.count
        var found: [(range: Range<Int>, isBlank: Bool)] = []
        var start = 0
        while start < count {
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start)
            let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? count
            let isBlank = raw[start..<end].allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }
            found.append((start..<end, isBlank))
            start = end + 1
        }
        return found
    }

    /// The session line of the transcript at `url`, read without the rest of the file, or nil
    /// when the file cannot be read or does not start with one.
    ///
    /// `resume` needs the starting model before it opens the session; reading a 10,000-turn
    /// file whole for its first line doubled the time to the prompt.
    package static func header(of url: URL) -> SessionHeader? {
        // The header is well under a kilobyte; the cap only stops a file without newlines.
        guard let data = try? PrivateFiles.read(url, followLinks: true, limit: 1 << 20) else { return nil }
        var rest = data[...]
        // Blank lines are skipped, as `parse` skips them.
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[rest.startIndex..<end]
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return header(in: Data(line)) }
            rest = end < rest.endIndex ? rest[(end + 1)...] : rest[end...]
        }
        return nil
    }

    private static func header(in line: Data) -> SessionHeader? {
        guard case .header(let header)? = try? TranscriptCoder().decode(line), TranscriptRecord.header(header).unacceptable == nil
        else { return nil }
        return header
    }
}

extension TranscriptRecord {
    fileprivate var isHeader: Bool {
        if case .header = self { return true }
        return false
    }

    /// Why a line that decoded is still not taken: a session name or topic that would be refused
    /// if typed (a 100 MB name, say), checked as when typed; nil for a line that is fine. Names and
    /// topics are what `sessions`, `resume` and `replay` print; other fields are read as written.
    fileprivate var unacceptable: String? {
        func check(_ inputs: LessonInputs) -> String? {
            // Most lines: a short topic with a visible character; a byte count settles it cheaply.
            if inputs.topic.utf8.count <= LessonInputs.topicLimit, inputs.topic.utf8.contains(where: { $0 > 0x20 }) {
                return nil
            }
            return (try? LessonInputs.validTopic(inputs.topic)) == nil ? "its topic would not be accepted if typed" : nil
        }
        func check(name: String?) -> String? {
            guard let name else { return nil }
            return (try? SessionStore.validName(name)) == nil ? "its session name would not be accepted if typed" : nil
        }
        switch self {
        case .header(let header): return check(name: header.name) ?? check(header.inputs)
        case .turnStarted(let started): return check(started.inputs)
        case .named(let named): return check(name: named.name)
        case .unit(let unit): return check(unit.inputs)
        case .turnEnded, .undo, .handEdit, .sourceAdded, .sourceRemoved, .lesson, .setting, .results, .forms: return nil
        }
    }

    /// The same record with a `turn_started` line's prompt left empty, as ``TranscriptReader/Prompts/skipped`` reads it.
    fileprivate var withoutPrompts: TranscriptRecord {
        guard case .turnStarted(var started) = self else { return self }
        started.instructions = ""
        started.input = ""
        return .turnStarted(started)
    }
}
