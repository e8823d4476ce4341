import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Appends records to one transcript, each written whole and flushed to disk before it returns.
///
/// The writer holds an exclusive advisory lock for its lifetime, so a second process cannot
/// interleave lines into the same session. It never rewrites what is already in the file.
public final class TranscriptWriter {
    public let url: URL
    private let descriptor: Int32
    private let coder = TranscriptCoder()

    /// Opens (creating with mode 0600) and locks `url` for appending.
    /// - Throws: ``StoreError/locked(id:)`` when another process holds the session.
    public init(url: URL) throws(StoreError) {
        self.url = url
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: url.path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .locked(id: url.deletingPathExtension().lastPathComponent)
        }
        descriptor = fd
        // A line torn by a crash must not swallow the next record: start it on a fresh line.
        if let last = Self.lastByte(of: url), last != UInt8(ascii: "\n") {
            _ = Self.writeAll(fd, Data("\n".utf8))
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The file's size in bytes after the last append.
    public var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Appends one record as one line and waits until it is on disk.
    /// - Throws: ``StoreError/io(path:reason:)`` when the write fails (disk full, say).
    public func append(_ record: TranscriptRecord) throws(StoreError) {
        var line = coder.encode(record)
        line.append(UInt8(ascii: "\n"))
        guard Self.writeAll(descriptor, line) else {
            throw .io(path: url.path, reason: String(cString: strerror(errno)))
        }
        fsync(descriptor)
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    private static func lastByte(of url: URL) -> UInt8? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd(), end > 0 else { return nil }
        try? handle.seek(toOffset: end - 1)
        return (try? handle.read(upToCount: 1))?.first
    }
}
