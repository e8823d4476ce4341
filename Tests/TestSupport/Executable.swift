import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A script a test puts on PATH (a fake soffice, pandoc or editor).
package enum Executable {
    /// Writes `script` to `url` as an executable of `mode`, through a descriptor closed on exec: a child another test
    /// forks meanwhile cannot hold the file open for writing, which would make running it fail with "text file busy".
    package static func write(_ script: String, to url: URL, mode: mode_t = 0o755) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        let bytes = Array(script.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            written += count
        }
        guard fchmod(fd, mode) == 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
    }
}
