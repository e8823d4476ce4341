import Foundation

/// Reads a file into a ``SourceDocument``: text and Markdown as they are, PDF page by page with
/// pdftotext, docx and odt through pandoc. Anything else, or anything wrong, is a ``SourceError``.
public struct SourceReader: Sendable {
    /// The largest file read as a source: 20 MB, a long textbook PDF; larger is refused before it is read.
    public static let largestFile = 20 * 1024 * 1024
    /// Unpaged text is numbered in parts of about this many characters, cut at a paragraph break.
    public static let unpagedPageCharacters = 3000

    /// The folders searched for pdftotext and pandoc.
    let searchPath: [String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// Reads one file.
    /// - Throws: ``SourceError`` for a missing, unreadable, oversized, mislabelled, encrypted or textless file.
    public func read(_ url: URL) async throws(SourceError) -> SourceDocument {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        if isDirectory.boolValue { throw .directory(path) }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        if size > Self.largestFile { throw .tooLarge(path, bytes: size) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        if data.count > Self.largestFile { throw .tooLarge(path, bytes: data.count) }
        let ext = url.pathExtension.lowercased()
        var pages: [String]
        var paged = false
        switch ext {
        case "pdf":
            guard data.starts(with: Array("%PDF-".utf8)) else { throw .notWhatItSays(path, kind: "PDF") }
            pages = try await pdfPages(url)
            paged = true
            if pages.allSatisfy({ $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { throw .noTextLayer(path) }
        case "docx", "odt":
            // Both are zip files; anything else named so is not what its name says.
            guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { throw .notWhatItSays(path, kind: ext) }
            let text = try await run("pandoc", package: "pandoc", ["-f", ext, "-t", "plain", "--wrap=none", path], for: path)
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
    private func pdfPages(_ url: URL) async throws(SourceError) -> [String] {
        let text = try await run("pdftotext", package: "poppler-utils", ["-enc", "UTF-8", url.path, "-"], for: url.path)
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

    /// Runs a reading tool with stdout and stderr in files (no pipe can fill and stall it).
    private func run(_ tool: String, package: String, _ arguments: [String], for path: String) async throws(SourceError) -> String {
        guard let executable = searchPath.map({ URL(fileURLWithPath: $0).appending(path: tool) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw .toolMissing(path, tool: tool, package: package) }
        let scratch = FileManager.default.temporaryDirectory.appending(path: "lessonplan-source-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result: ToolProcess.Result
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            result = try await ToolProcess.run(executable, arguments, scratch: scratch)
        } catch {
            throw .toolMissing(path, tool: tool, package: package)
        }
        let status = result.status
        let message = String(data: result.errors, encoding: .utf8) ?? ""
        guard status == 0 else {
            // pdftotext says "Incorrect password" (status 1) or refuses copying (status 3) for an encrypted PDF.
            if tool == "pdftotext", message.localizedCaseInsensitiveContains("password") || status == 3 {
                throw .encrypted(path)
            }
            let first = message.split(separator: "\n").first.map { String($0.prefix(160)) } ?? "status \(status)"
            throw .toolFailed(path, tool: tool, message: first)
        }
        guard let text = String(data: result.output, encoding: .utf8) else {
            throw .toolFailed(path, tool: tool, message: "its output was not UTF-8 text")
        }
        return text
    }
}
