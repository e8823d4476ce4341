import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// Appends records to one transcript, each written whole and flushed to disk before it returns.
///
/// The writer holds an exclusive advisory lock for its lifetime, so a second process cannot
/// interleave lines into the same session. It never rewrites what is already in the file: an
/// append that fails part way (a full disk, say) is cut back to where it began, so the file always
/// ends on a complete line, and opening a file writes nothing.
package final class TranscriptWriter {
    /// How the file is opened.
    package enum Opening: Sendable {
        /// A new session's file, which must not exist yet (not even as a dangling link).
        case createNew
        /// A saved session's file, which must exist.
        case existing
        /// Either; for tests and tools that append to a file of their own.
        case createIfMissing
    }

    package let url: URL
    private let descriptor: Int32
    private let coder = TranscriptCoder()
    /// The file does not end in a newline (a line torn by a crash), so the next record starts with one.
    private var startsMidLine: Bool
    /// Encoded lines that could not be written yet, oldest first; each is retried before the next append.
    private var pending: [Data] = []
    /// The session's class: what is written holds its pseudonyms, never its names.
    package var names = ClassNames()
    /// The `write(2)` the writer uses; tests inject one that fails part way.
    private let writeBytes: (Int32, UnsafeRawPointer, Int) -> Int

    /// Opens (creating with mode 0600 when allowed) and locks `url` for appending, writing nothing.
    ///
    /// The file is opened without following a link and without blocking, and refused unless it is
    /// a regular file, so a FIFO or a link planted in its place is never written through.
    /// - Throws: ``StoreError/locked(id:)`` when another process holds the session,
    ///   ``StoreError/unsafeFile(path:reason:)`` for a link, FIFO or device.
    package convenience init(url: URL, opening: Opening = .createIfMissing) throws(StoreError) {
        try self.init(url: url, opening: opening, writeBytes: { Glibc.write($0, $1, $2) })
    }

    init(url: URL, opening: Opening, writeBytes: @escaping (Int32, UnsafeRawPointer, Int) -> Int) throws(StoreError) {
        self.url = url
        self.writeBytes = writeBytes
        let flags: Int32
        switch opening {
        case .createNew: flags = O_RDWR | O_APPEND | O_CREAT | O_EXCL
        case .existing: flags = O_RDWR | O_APPEND
        case .createIfMissing: flags = O_RDWR | O_APPEND | O_CREAT
        }
        let fd = try PrivateFiles.open(url.path, flags: flags, followLinks: false)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .locked(id: url.deletingPathExtension().lastPathComponent)
        }
        if opening == .createNew { _ = fchmod(fd, 0o600) }
        descriptor = fd
        startsMidLine = Self.lastByte(of: fd).map { $0 != UInt8(ascii: "\n") } ?? false
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The file's size in bytes after the last append.
    package var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// How many records are waiting to be written because an earlier append failed.
    package var pendingCount: Int { pending.count }

    /// The whole file as it is now, read through the locked descriptor (so it is the file that
    /// will be appended to, checked before anything is written to it).
    package func contents() throws(StoreError) -> Data {
        try PrivateFiles.read(descriptor: descriptor, path: url.path)
    }

    /// Appends one record as one line and waits until it is on disk, after any records still pending.
    ///
    /// If anything cannot be written, this record is not kept: the caller decides (a new session's
    /// header, a name that must be unique).
    /// - Throws: ``StoreError/notSaved(path:reason:)`` when the write fails (disk full, say).
    package func append(_ record: TranscriptRecord) throws(StoreError) {
        try flushPending()
        try write(line(for: record))
    }

    /// Appends records as consecutive lines with one write and one `fsync`, all of them or none:
    /// for a tool that writes a whole transcript at once (the bench's fixtures), where one `fsync`
    /// a line would take minutes.
    /// - Throws: ``StoreError/notSaved(path:reason:)`` when the write fails; the file is cut back.
    package func append(contentsOf records: [TranscriptRecord]) throws(StoreError) {
        try flushPending()
        var lines = Data()
        for record in records { lines.append(line(for: record)) }
        try write(lines)
    }

    /// Appends one record, or keeps it in memory to be written before the next append (or by
    /// ``flushPending()``) when it cannot be written now.
    /// - Returns: why it could not be written, or nil when it is on disk.
    @discardableResult
    package func appendOrKeep(_ record: TranscriptRecord) -> StoreError? {
        let line = line(for: record)
        do {
            try flushPending()
            try write(line)
            return nil
        } catch {
            pending.append(line)
            return error
        }
    }

    /// Writes the records kept by ``appendOrKeep(_:)``, in order.
    /// - Returns: how many were written.
    /// - Throws: ``StoreError/notSaved(path:reason:)`` when one still cannot be written; it and those
    ///   after it stay pending.
    @discardableResult
    package func flushPending() throws(StoreError) -> Int {
        var written = 0
        while let first = pending.first {
            try write(first)
            pending.removeFirst()
            written += 1
        }
        return written
    }

    private func line(for record: TranscriptRecord) -> Data {
        var line = coder.encode(record)
        if let map = names.map { line = TranscriptNames.transformingStrings(in: line, map.pseudonymised) }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Writes one line whole, or cuts the file back to where it began.
    private func write(_ line: Data) throws(StoreError) {
        let start = lseek(descriptor, 0, SEEK_END)
        guard start >= 0 else { throw .notSaved(path: url.path, reason: String(cString: strerror(errno))) }
        var bytes = Data()
        if startsMidLine { bytes.append(UInt8(ascii: "\n")) }
        bytes.append(line)
        let failure =
            bytes.withUnsafeBytes { PrivateFiles.writeAll(descriptor, $0, using: writeBytes) }
            ?? (fsync(descriptor) == 0 ? nil : errno)
        guard let failure else {
            startsMidLine = false
            return
        }
        // Leave the file ending where it ended: on a complete line, or on the torn one it had.
        if ftruncate(descriptor, start) != 0 {
            // The partial line stays; start the next record on a line of its own so it survives.
            startsMidLine = true
        }
        throw .notSaved(path: url.path, reason: String(cString: strerror(failure)))
    }

    private static func lastByte(of fd: Int32) -> UInt8? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        var byte: UInt8 = 0
        return pread(fd, &byte, 1, info.st_size - 1) == 1 ? byte : nil
    }
}
