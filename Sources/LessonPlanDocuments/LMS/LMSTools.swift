import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// The maintained tools the zip and spreadsheet formats are made with: Debian's `zip`, and LibreOffice headless.
package struct LMSTools: Sendable {
    /// How long LibreOffice or zip may run before its process group is killed.
    static let toolDeadline: TimeInterval = 180
    /// Where the tools are looked for (its `PATH`).
    package var environment: [String: String]

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The first of `names` on `PATH`, or nil.
    func find(_ names: [String]) -> URL? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":") where !folder.isEmpty {
                let url = URL(fileURLWithPath: String(folder)).appending(path: name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// A zip of `files` (paths inside the archive → bytes), made by `zip` with the paths as given.
    /// - Throws: ``ExportError`` when `zip` is missing or fails.
    func zip(_ files: [(path: String, data: Data)], what: String) async throws -> Data {
        guard let zip = find(["zip"]) else {
            throw ExportError("Making \(what) needs Debian's zip, which is not installed; install it (sudo apt-get install zip) and try again.")
        }
        return try await inScratch { folder async throws in
            let content = folder.appending(path: "content")
            do {
                try FileManager.default.createDirectory(at: content, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                for file in files {
                    let url = content.appending(path: file.path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    try Self.writePrivate(file.data, to: url)
                }
            } catch {
                throw ExportError("Cannot make \(what): the temporary folder \(folder.path) is not writable.")
            }
            let output = folder.appending(path: "out.zip")
            // -X leaves out owners and extra times; -D adds no folder entries; the manifest goes first.
            let status = await run(zip, ["-X", "-D", "-q", output.path] + files.map(\.path), in: content)
            guard status == 0, let data = try? Data(contentsOf: output) else {
                throw ExportError("zip could not make \(what) (status \(status)); check that Debian's zip is installed and working.")
            }
            return data
        }
    }

    /// `document` (a flat OpenDocument spreadsheet, .fods) converted to .xlsx by LibreOffice headless.
    /// - Throws: ``ExportError`` when LibreOffice Calc is missing or writes nothing.
    func xlsx(fromFlatODS document: Data, what: String) async throws -> Data {
        guard let soffice = find(["soffice", "libreoffice"]) else {
            throw ExportError(
                "Making \(what) needs LibreOffice Calc, which is not installed; install it (sudo apt-get install libreoffice-calc-nogui) and try again."
            )
        }
        return try await inScratch { folder async throws in
            let input = folder.appending(path: "quiz.fods")
            do { try Self.writePrivate(document, to: input) } catch {
                throw ExportError("Cannot make \(what): the temporary folder \(folder.path) is not writable.")
            }
            // A profile of its own, so a LibreOffice already open (or another export) does not swallow the request.
            let profile = folder.appending(path: "profile")
            let status = await run(
                soffice,
                [
                    "-env:UserInstallation=\(profile.absoluteString)", "--headless", "--norestore", "--convert-to", "xlsx:Calc MS Excel 2007 XML",
                    "--outdir", folder.path, input.path,
                ], in: folder)
            guard let data = try? Data(contentsOf: folder.appending(path: "quiz.xlsx")), !data.isEmpty else {
                throw ExportError(
                    "LibreOffice wrote no spreadsheet (status \(status)); check that LibreOffice Calc is installed (sudo apt-get install libreoffice-calc-nogui)."
                )
            }
            return data
        }
    }

    /// Runs `body` with a new folder of its own in the temporary directory, removed after it: made by `mkdtemp`, so
    /// it is the owner's only (0700) whatever the umask, and no other user can read the answer key while a tool runs.
    /// A SIGTERM or SIGHUP mid-export still removes it, and ends the tool running in it (``EndingCleanup``).
    private func inScratch<T>(_ body: (URL) async throws -> T) async throws -> T {
        let temporary = FileManager.default.temporaryDirectory
        var template = Array(temporary.appending(path: "lessonplan-lms-XXXXXX").path.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw ExportError("Cannot make a temporary folder in \(temporary.path); check that it is writable.")
        }
        let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        EndingCleanup.track(folder: folder)
        defer {
            try? FileManager.default.removeItem(at: folder)
            EndingCleanup.forget(folder: folder)
        }
        return try await body(folder)
    }

    /// Writes `data` to a new file at `url` readable and writable by the owner only (0600), whatever the umask.
    static func writePrivate(_ data: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    /// Runs a tool with no input; its output goes nowhere (nothing it says reaches the terminal). Returns its status.
    private func run(_ executable: URL, _ arguments: [String], in folder: URL) async -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // LibreOffice's first start makes its profile, which takes a while on two cores; zip takes seconds.
        return (try? await ToolProcess.exitStatus(of: process, deadline: Self.toolDeadline)) ?? -1
    }
}
