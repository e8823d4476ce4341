import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file into a ``SourceDocument``: text and Markdown as they are, PDF page by page with
/// pdftotext, docx and odt through pandoc. Anything else, or anything wrong, is a ``SourceError``.
package struct SourceReader: Sendable {
    /// The largest file read as a source: 20 MB, a long textbook PDF; larger is refused before it is read.
    package static let largestFile = 20 * 1024 * 1024
    /// Unpaged text is numbered in parts of about this many characters, cut at a paragraph break.
    package static let unpagedPageCharacters = 3000

    /// The most text a reading tool may give for one source (pdftotext's or pandoc's output).
    package static let largestText = 20 * 1024 * 1024
    /// How long pdftotext or pandoc may take over one file; a real textbook takes seconds.
    package static let toolDeadline: TimeInterval = 60
    /// More text than this many times the file's size (and over a megabyte) is no document: a zip bomb whose
    /// directory lied about its sizes. A docx packs its XML about tenfold, and its text is a part of that.
    package static let mostTextPerByte = 50

    /// The folders searched for pdftotext and pandoc.
    let searchPath: [String]
    /// The home directory, whose hidden folders no source comes from.
    let home: String

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        home = environment["HOME"] ?? NSHomeDirectory()
    }

    /// Reads one file.
    /// - Throws: ``SourceError`` for a missing, unreadable, oversized, mislabelled, encrypted or textless file, one
    ///   that is (or links to) a file of keys or the system's, or one a tool cannot read within its limits.
    package func read(_ url: URL) async throws(SourceError) -> SourceDocument {
        let path = url.path
        let file = try SourceFile.read(path, home: home)
        let data = file.data
        let ext = url.pathExtension.lowercased()
        var pages: [String]
        var paged = false
        switch ext {
        case "pdf":
            guard data.starts(with: Array("%PDF-".utf8)) else { throw .notWhatItSays(path, kind: "PDF") }
            pages = try await pdfPages(data, for: path)
            paged = true
            if pages.allSatisfy({ $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { throw .noTextLayer(path) }
        case "docx", "odt":
            // Both are zip files; anything else named so is not what its name says.
            guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]), let unpacked = ZipSizes.unpacked(data) else {
                throw .notWhatItSays(path, kind: ext)
            }
            if unpacked > ZipSizes.largestUnpacked || unpacked > max(ZipSizes.smallestDense, ZipSizes.mostUnpackedPerByte * data.count) {
                throw .expandsTooMuch(path, bytes: unpacked)
            }
            // pandoc's heap is capped too (+RTS -M), in case the directory lied.
            let text = try await run(
                "pandoc", package: "pandoc", ["+RTS", "-M1024m", "-RTS", "-f", ext, "-t", "plain", "--wrap=none"],
                copy: data, named: "source.\(ext)", for: path)
            if text.utf8.count > max(1_048_576, Self.mostTextPerByte * data.count) { throw .tooMuchText(path, tool: "pandoc") }
            pages = Self.parts(of: text)
        case "txt", "md", "markdown", "text", "":
            guard let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") else {
                throw .notWhatItSays(path, kind: "UTF-8 text file")
            }
            pages = Self.parts(of: text)
        default:
            throw .unsupported(path)
        }
        guard pages.contains(where: { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) else { throw .empty(path) }
        return SourceDocument(
            name: url.lastPathComponent, path: url.standardizedFileURL.path, bytes: data.count,
            sha256: SHA256.hex(of: data), pages: pages, paged: paged)
    }

    /// A PDF's pages: pdftotext ends each with a form feed.
    private func pdfPages(_ data: Data, for path: String) async throws(SourceError) -> [String] {
        let text = try await run("pdftotext", package: "poppler-utils", ["-enc", "UTF-8"], copy: data, named: "source.pdf", for: path, output: "-")
        var pages = text.components(separatedBy: "\u{0C}")
        if pages.count > 1, pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Unpaged text as numbered parts: at form feeds when it has them, else about
    /// ``unpagedPageCharacters`` characters each, cut after a blank line.
    static func parts(of text: String) -> [String] {
        if text.contains("\u{0C}") { return text.components(separatedBy: "\u{0C}") }
        var parts: [String] = []
        var current = ""
        for paragraph in text.components(separatedBy: "\n\n") {
            if !current.isEmpty, current.count + paragraph.count > unpagedPageCharacters {
                parts.append(current)
                current = ""
            }
            current += current.isEmpty ? paragraph : "\n\n" + paragraph
        }
        if !current.isEmpty || parts.isEmpty { parts.append(current) }
        return parts
    }

    /// Runs a reading tool on a private copy of the bytes already read and checked (so the tool reads exactly
    /// what was hashed, whatever happens to the path meanwhile), with stdout and stderr in files (no pipe can fill
    /// and stall it), within ``toolDeadline`` and ``largestText``.
    private func run(
        _ tool: String, package: String, _ arguments: [String], copy data: Data, named name: String, for path: String,
        output: String? = nil
    ) async throws(SourceError) -> String {
        guard
            let executable = searchPath.map({ URL(fileURLWithPath: $0).appending(path: tool) })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw .toolMissing(path, tool: tool, package: package) }
        let scratch = FileManager.default.temporaryDirectory.appending(path: "lessonplan-source-\(UUID().uuidString)")
        guard mkdir(scratch.path, 0o700) == 0 else { throw .unreadable(FileManager.default.temporaryDirectory.path) }
        EndingCleanup.track(folder: scratch)
        defer {
            try? FileManager.default.removeItem(at: scratch)
            EndingCleanup.forget(folder: scratch)
        }
        let copy = scratch.appending(path: name)
        guard FileManager.default.createFile(atPath: copy.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw .unreadable(FileManager.default.temporaryDirectory.path)
        }
        let result: ToolProcess.Result
        do {
            result = try await ToolProcess.run(
                executable, arguments + [copy.path] + (output.map { [$0] } ?? []), scratch: scratch,
                deadline: Self.toolDeadline, largestOutput: Self.largestText + 1)
        } catch {
            throw .toolMissing(path, tool: tool, package: package)
        }
        if result.timedOut { throw .toolTimedOut(path, tool: tool, seconds: Int(Self.toolDeadline)) }
        if result.outputTooLarge || result.output.count > Self.largestText { throw .tooMuchText(path, tool: tool) }
        let status = result.status
        let message = String(data: result.errors, encoding: .utf8) ?? ""
        guard status == 0 else {
            // pdftotext says "Incorrect password" (status 1) or refuses copying (status 3) for an encrypted PDF.
            if tool == "pdftotext", message.localizedCaseInsensitiveContains("password") || status == 3 {
                throw .encrypted(path)
            }
            if tool == "pandoc", message.contains("Heap exhausted") { throw .tooMuchText(path, tool: tool) }
            let first = message.split(separator: "\n").first.map { String($0.prefix(160)) } ?? "status \(status)"
            throw .toolFailed(path, tool: tool, message: first)
        }
        guard let text = String(data: result.output, encoding: .utf8) else {
            throw .toolFailed(path, tool: tool, message: "its output was not UTF-8 text")
        }
        return text
    }
}
