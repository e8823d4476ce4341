import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of a file named as a source, read only once it is known to be a teacher's document.
///
/// A source is sent to the model, so a file that holds keys or system secrets must never become one, however it
/// is named: the path is resolved through every link first, and refused when it is (or leads to) a file in a
/// hidden folder of a home directory (the teacher's, reached by any link, root's or another user's) (`~/.ssh`, `~/.gnupg`, `~/.config`, which holds lessonplan's own key …) or a
/// hidden file there (`~/.netrc`), or a file under a system folder (`/etc`, `/proc`, `/sys`, `/dev`, `/run`, `/boot`,
/// `/var/lib`, `/var/log` …). A link is otherwise followed wherever it leads: a teacher's textbook linked
/// from a synced folder is an ordinary case. Only a regular file is read, its size taken from the opened file (a
/// link to a 2 GB sparse file is refused before a byte of it is read), and never more than
/// ``SourceReader/largestFile`` bytes.
struct SourceFile {
    /// The path as named, for the messages.
    let path: String
    /// Where it leads after every link.
    let resolved: String
    let data: Data

    /// System folders no teaching text lives in; their files are refused.
    static let systemFolders = ["/etc", "/proc", "/sys", "/dev", "/run", "/boot", "/var/lib", "/var/log", "/var/spool", "/var/mail", "/var/backups"]

    /// Reads `path`, or says in a ``SourceError`` why it is not read.
    static func read(_ path: String, home: String) throws(SourceError) -> SourceFile {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .missing(path) }
        guard let real = realpath(path, nil) else { throw .missing(path) }
        let resolved = String(cString: real)
        free(real)
        if let place = sensitivePlace(of: resolved, home: home) {
            throw .sensitive(path, resolved: resolved == path ? nil : resolved, place: place)
        }
        guard stat(resolved, &info) == 0 else { throw .missing(path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw .directory(path) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path) }
        if Int(info.st_size) > SourceReader.largestFile { throw .tooLarge(path, bytes: Int(info.st_size)) }
        // Opened without blocking (a FIFO swapped in meanwhile), then checked again on the open file itself.
        let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path) }
        if Int(info.st_size) > SourceReader.largestFile { throw .tooLarge(path, bytes: Int(info.st_size)) }
        var data = Data(count: Int(info.st_size) + 1)
        var total = 0
        let failed = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            while total < buffer.count {
                let got = Glibc.read(fd, base + total, buffer.count - total)
                if got < 0, errno == EINTR { continue }
                if got < 0 { return true }
                if got == 0 { break }
                total += got
            }
            return false
        }
        if failed { throw .unreadable(path) }
        // A file that grew since its size was taken is cut at the limit and refused, never read on.
        if total > SourceReader.largestFile { throw .tooLarge(path, bytes: total) }
        data.count = total
        return SourceFile(path: path, resolved: resolved, data: data)
    }

    /// Where a resolved path lies that no source may come from, in words for the message; nil when it may.
    static func sensitivePlace(of resolved: String, home: String) -> String? {
        for folder in systemFolders where resolved == folder || resolved.hasPrefix(folder + "/") {
            return "the system folder \(folder)"
        }
        for base in homes(home: home, of: resolved) where resolved.hasPrefix(base.path + "/") {
            let inside = resolved.dropFirst(base.path.count + 1).split(separator: "/")
            guard let hidden = inside.firstIndex(where: { $0.hasPrefix(".") }) else { continue }
            let kind = hidden == inside.count - 1 ? "file" : "folder"
            let named = base.yours ? "~/" : base.path + "/"
            return named + inside[...hidden].joined(separator: "/") + ", a hidden \(kind) of \(base.yours ? "your" : "a") home"
        }
        return nil
    }

    /// The home folders a resolved path may lie in: the teacher's as `HOME` names it and as its links resolve
    /// (`/home` is often a link to `/var/home`), root's, and any user's folder under `/home` or `/var/home`.
    static func homes(home: String, of resolved: String) -> [(path: String, yours: Bool)] {
        var homes: [(path: String, yours: Bool)] = []
        let named = home.hasSuffix("/") ? String(home.dropLast()) : home
        if !named.isEmpty {
            homes.append((named, true))
            if let real = realpath(named, nil) {
                homes.append((String(cString: real), true))
                free(real)
            }
        }
        homes.append(("/root", false))
        for parent in ["/home/", "/var/home/"] where resolved.hasPrefix(parent) {
            if let user = resolved.dropFirst(parent.count).split(separator: "/").first {
                homes.append((parent + user, false))
            }
        }
        return homes
    }
}

/// The sizes a zip archive (docx, odt) says its files unpack to, read from its central directory before any tool
/// unpacks it: a file of kilobytes whose XML unpacks to gigabytes is refused at once.
enum ZipSizes {
    /// More than this unpacked, in all, is refused: a 20 MB document with its pictures unpacks to far less.
    static let largestUnpacked = 256 * 1024 * 1024
    /// Unpacking to more than this many times the file's size (and over ``smallestDense``) is refused too: a
    /// document's XML packs about tenfold, its pictures hardly at all, while a 24 KB file of 8 MB of repeated XML
    /// held pandoc for seconds and a gigabyte before it could be refused for its text.
    static let mostUnpackedPerByte = 64
    /// Below this, any packing is let through: a short document may pack its XML further. At 8 MB a 16 KB file of
    /// 7.8 MB of repeated XML still held pandoc for 50 s and 1.2 GB; a real document packed 64-fold is rare below this.
    static let smallestDense = 1024 * 1024
    /// More entries than this is no document.
    static let mostEntries = 20_000

    /// The total size the archive's files unpack to, as its central directory says; nil when the directory cannot
    /// be read (not a zip, or a zip64 archive, which no document of 20 MB needs).
    static func unpacked(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end-of-central-directory record: its signature within the last 64 KB + 22 bytes.
        guard bytes.count >= 22 else { return nil }
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        while end >= lowest, !(bytes[end] == 0x50 && bytes[end + 1] == 0x4B && bytes[end + 2] == 5 && bytes[end + 3] == 6) {
            end -= 1
        }
        guard end >= lowest else { return nil }
        let entries = u16(end + 10)
        var at = u32(end + 16)
        guard entries != 0xFFFF, at != 0xFFFF_FFFF, entries <= mostEntries else { return nil }
        var total = 0
        for _ in 0..<entries {
            guard at + 46 <= bytes.count, u32(at) == 0x0201_4B50 else { return nil }
            let size = u32(at + 24)
            guard size != 0xFFFF_FFFF else { return nil }
            total += size
            at += 46 + u16(at + 28) + u16(at + 30) + u16(at + 32)
        }
        return total
    }
}
