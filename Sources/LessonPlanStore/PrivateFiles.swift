import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// Opening, reading and writing the tool's files so that a FIFO never blocks it, a planted
/// symbolic link is never followed out of the data directory, and nothing is ever readable by others.
package enum PrivateFiles {
    /// Opens `path` without blocking and checks that it is a regular file.
    ///
    /// `O_NONBLOCK` makes opening a FIFO return at once (and `fstat` then refuses it); it has no
    /// effect on reads and writes of a regular file, so it is cleared only for clarity.
    /// - Parameters:
    ///   - flags: the access mode and any of `O_APPEND`, `O_CREAT`, `O_EXCL`.
    ///   - followLinks: false for files inside the data directory, which are never links.
    /// - Throws: ``StoreError/unsafeFile(path:reason:)`` for a link, FIFO, device or directory.
    static func open(_ path: String, flags: Int32, followLinks: Bool, mode: mode_t = 0o600) throws(StoreError) -> Int32 {
        var all = flags | O_CLOEXEC | O_NONBLOCK
        if !followLinks { all |= O_NOFOLLOW }
        let fd = Glibc.open(path, all, mode)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw .unsafeFile(path: path, reason: "is a symbolic link")
            case ENXIO: throw .unsafeFile(path: path, reason: "is a FIFO or socket, not a file")
            case ENOENT: throw .notFound(reference: path, directory: (path as NSString).deletingLastPathComponent)
            default: throw .io(path: path, reason: String(cString: strerror(code)))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .io(path: path, reason: reason)
        }
        if let kind = Self.kind(of: info.st_mode) {
            Glibc.close(fd)
            throw .unsafeFile(path: path, reason: kind)
        }
        let current = fcntl(fd, F_GETFL)
        if current >= 0 { _ = fcntl(fd, F_SETFL, current & ~O_NONBLOCK) }
        return fd
    }

    /// What a file that is not a regular one is, in a few words; nil for a regular file.
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "is a FIFO (named pipe), not a file"
        case S_IFCHR, S_IFBLK: "is a device, not a file"
        case S_IFDIR: "is a directory, not a file"
        case S_IFSOCK: "is a socket, not a file"
        case S_IFLNK: "is a symbolic link"
        default: "is not a regular file"
        }
    }

    /// Reads a whole regular file into one buffer.
    ///
    /// Read, not mapped: a writer may truncate a half-written line it could not finish, and a
    /// mapping of the lost bytes would then crash the reader with SIGBUS.
    /// - Throws: ``StoreError`` for a missing, unreadable or irregular file.
    package static func read(_ url: URL, followLinks: Bool, limit: Int = .max) throws(StoreError) -> Data {
        let fd = try open(url.path, flags: O_RDONLY, followLinks: followLinks)
        defer { Glibc.close(fd) }
        return try read(descriptor: fd, path: url.path, limit: limit)
    }

    /// Reads everything from the start of an open file, at most `limit` bytes.
    static func read(descriptor fd: Int32, path: String, limit: Int = .max) throws(StoreError) -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        var capacity = min(max(Int(info.st_size), 0) + 1, limit)
        guard var buffer = malloc(max(capacity, 1)) else { throw .io(path: path, reason: "out of memory") }
        var count = 0
        while count < limit {
            if count == capacity {
                capacity = min(capacity * 2, limit)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw .io(path: path, reason: "out of memory")
                }
                buffer = grown
            }
            let got = pread(fd, buffer + count, capacity - count, off_t(count))
            if got < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(buffer)
                throw .io(path: path, reason: reason)
            }
            if got == 0 { break }
            count += got
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// Writes all of `bytes`, or returns the `errno` of the write that failed.
    static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer,
        using write: (Int32, UnsafeRawPointer, Int) -> Int = { Glibc.write($0, $1, $2) }
    ) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// Writes a file readable by its owner only (0600, whatever the umask), never through a link.
    ///
    /// A new file is created exclusively; with `replace`, the text goes to a new file beside it that
    /// is then renamed over the old one, so a reader sees the old file or the new, never half of one.
    /// - Throws: ``StoreError/exists(path:)`` when the file exists and `replace` is false, or
    ///   ``StoreError/io(path:reason:)`` when it cannot be written (nothing partial is left behind).
    package static func write(_ data: Data, to url: URL, replace: Bool) throws(StoreError) {
        let path = url.path
        let target =
            replace
            ? url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
            : path
        let fd = Glibc.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST, !replace { throw .exists(path: path) }
            throw .io(path: path, reason: String(cString: strerror(code)))
        }
        let failure: Int32? =
            if fchmod(fd, 0o600) != 0 { errno } else { data.withUnsafeBytes { writeAll(fd, $0) } ?? (fsync(fd) == 0 ? nil : errno) }
        Glibc.close(fd)
        if let failure {
            unlink(target)
            throw .io(path: path, reason: String(cString: strerror(failure)))
        }
        if replace, rename(target, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(target)
            throw .io(path: path, reason: reason)
        }
    }

    /// A new folder in the temporary directory that only the owner can enter (0700, whatever the
    /// umask, from the moment it exists), for pandoc's files and the plan's copy for `/edit`.
    /// - Throws: ``StoreError/io(path:reason:)`` when it cannot be made.
    /// - Parameter removedIfEnded: whether SIGTERM or SIGHUP removes it before the tool ends (``EndingCleanup``),
    ///   until ``removeTemporaryFolder(_:)``; the editor's folder has its own handling of those signals.
    package static func temporaryFolder(_ prefix: String, removedIfEnded: Bool = true) throws(StoreError) -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        guard mkdir(folder.path, 0o700) == 0, chmod(folder.path, 0o700) == 0 else {
            throw .io(path: folder.path, reason: "cannot create a private temporary folder")
        }
        if removedIfEnded { EndingCleanup.track(folder: folder) }
        return folder
    }

    /// Removes a folder ``temporaryFolder(_:removedIfEnded:)`` made, and stops tracking it.
    package static func removeTemporaryFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        EndingCleanup.forget(folder: folder)
    }
}
