import Foundation

/// A transcript read back from disk, with anything that had to be skipped.
public struct LoadedTranscript: Sendable {
    public var records: [TranscriptRecord]
    /// One sentence per line that was skipped (a torn last line, an unknown type).
    public var warnings: [String]
    /// The file's size when read.
    public var size: Int
}

/// Reads transcripts leniently: a torn last line or an unknown line type is reported and skipped,
/// while a newer format or a file that is not a transcript is refused.
public enum TranscriptReader {
    /// What a reader keeps of each `turn_started` line's prompt (`instructions` and `input`).
    public enum Prompts: Sendable {
        /// As written: for `replay --rerun`, exports and anything that audits what was sent.
        case kept
        /// Checked exactly as when kept, so the same lines are read and the same ones skipped,
        /// but left empty: the prompts are most of a long transcript's bytes, and `resume`,
        /// `replay` and `sessions` never show them.
        case skipped
    }

    /// Reads every record of the transcript at `url`.
    /// - Parameter prompts: whether `turn_started` prompts are kept or read as empty strings.
    /// - Throws: ``StoreError`` for a missing, newer-format or non-transcript file.
    public static func read(_ url: URL, prompts: Prompts = .kept) throws(StoreError) -> LoadedTranscript {
        // Mapped, not copied: on Linux `.mappedIfSafe` reads the whole file into memory, which
        // was a seventh of `resume` on a 10,000-turn transcript. Transcripts are only appended to,
        // so the mapped bytes do not change under the reader; if mapping fails, read instead.
        let data: Data
        if let mapped = try? Data(contentsOf: url, options: .alwaysMapped) {
            data = mapped
        } else {
            do { data = try Data(contentsOf: url) } catch {
                throw .io(path: url.path, reason: "cannot read the file")
            }
        }
        return try parse(data, path: url.path, prompts: prompts)
    }

    /// Reads records from the bytes of a transcript.
    /// - Parameter prompts: whether `turn_started` prompts are kept or read as empty strings.
    /// - Throws: ``StoreError``.
    public static func parse(_ data: Data, path: String, prompts: Prompts = .kept) throws(StoreError) -> LoadedTranscript {
        try data.withUnsafeBytes { raw in fold(raw, path: path, prompts: prompts) }.get()
    }

    /// The lenient fold over every line, on bytes already in memory so that a line the fast path
    /// reads is never copied out first.
    private static func fold(
        _ raw: UnsafeRawBufferPointer, path: String, prompts: Prompts
    ) -> Result<LoadedTranscript, StoreError> {
        let coder = TranscriptCoder()
        var records: [TranscriptRecord] = []
        var warnings: [String] = []
        var lineNumber = 0
        for line in lines(of: raw) {
            lineNumber += 1
            guard !line.isBlank else { continue }
            let isLast = line.range.upperBound == raw.count
            let bytes = UnsafeRawBufferPointer(rebasing: raw[line.range])
            let record: TranscriptRecord
            do throws(TranscriptLineError) {
                if let fast = TranscriptLineScanner.record(in: bytes, prompts: prompts) {
                    record = fast
                } else {
                    let full = try coder.decodeWithoutFastPath(Data(bytes))
                    record = prompts == .kept ? full : full.withoutPrompts
                }
            } catch {
                switch error {
                case .newerVersion(let version):
                    return .failure(.newerFormat(path: path, version: version))
                case _ where records.isEmpty:
                    return .failure(.notATranscript(path: path))
                case .unknownType(let type):
                    warnings.append("Line \(lineNumber) has type “\(type)”, which this lessonplan does not know; skipped.")
                case .unreadable where isLast:
                    warnings.append("The last line of \(path) was cut off (the program was stopped mid-write); ignored.")
                case .unreadable:
                    warnings.append("Line \(lineNumber) of \(path) is unreadable; skipped.")
                }
                continue
            }
            if records.isEmpty {
                guard case .header = record else { return .failure(.notATranscript(path: path)) }
            }
            records.append(record)
        }
        guard !records.isEmpty else { return .failure(.notATranscript(path: path)) }
        return .success(LoadedTranscript(records: records, warnings: warnings, size: raw.count))
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
    public static func header(of url: URL) -> SessionHeader? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var pending = Data()
        // The header is well under a kilobyte; the cap only stops a file without newlines.
        while pending.count < 1 << 20 {
            let chunk = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
            pending.append(chunk)
            // Blank lines are skipped, as `parse` skips them.
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<newline]
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return header(in: Data(line)) }
                pending = Data(pending[(newline + 1)...])
            }
            if chunk.isEmpty {
                return pending.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) ? nil : header(in: pending)
            }
        }
        return nil
    }

    private static func header(in line: Data) -> SessionHeader? {
        guard case .header(let header)? = try? TranscriptCoder().decode(line) else { return nil }
        return header
    }

    /// Folds a transcript's records into the session state.
    public static func state(of transcript: LoadedTranscript) -> SessionState? {
        guard case .header(let header) = transcript.records.first else { return nil }
        var state = SessionState(header: header)
        for record in transcript.records.dropFirst() { state.apply(record) }
        return state
    }
}

extension TranscriptRecord {
    /// The same record with a `turn_started` line's prompt left empty, as ``TranscriptReader/Prompts/skipped`` reads it.
    fileprivate var withoutPrompts: TranscriptRecord {
        guard case .turnStarted(var started) = self else { return self }
        started.instructions = ""
        started.input = ""
        return .turnStarted(started)
    }
}
