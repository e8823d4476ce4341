import Foundation

/// A teacher's own text a plan is grounded in: its pages as read, and what identifies the file it came from.
///
/// A PDF keeps its pages (pdftotext's form feeds); text, Markdown, docx and odt have none, so the tool
/// numbers parts of them as pages (split at form feeds, else every ``SourceReader/unpagedPageCharacters``
/// characters at a paragraph break), and a quotation cites those.
package struct SourceDocument: Codable, Equatable, Sendable {
    /// The file's name (no folders): what a citation `(NAME p. N)` uses.
    package var name: String
    /// The path it was read from, to say later whether the file still matches.
    package var path: String
    /// The file's size in bytes.
    package var bytes: Int
    /// The SHA-256 of the file's bytes, lowercase hex.
    package var sha256: String
    /// The text of each page, page 1 first.
    package var pages: [String]
    /// Whether the pages are the file's own (a PDF) or parts the tool numbered.
    package var paged: Bool

    package init(name: String, path: String, bytes: Int, sha256: String, pages: [String], paged: Bool) {
        self.name = name
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
        self.pages = pages
        self.paged = paged
    }

    /// One line for `/source`: number, name, pages, size.
    package var summary: String {
        let unit = paged ? "pages" : "parts"
        return "\(name) · \(pages.count) \(pages.count == 1 ? String(unit.dropLast()) : unit) · \(bytes) bytes"
    }

    /// Whether the file at ``path`` is still the one read: nil when it is, else one sentence saying how it is not.
    ///
    /// The path comes from a transcript, which anyone may have sent: only a regular file no larger than a
    /// source may be is read (never a device or a pipe), and only to compare its hash.
    package func fileOnDiskNote() -> String? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= SourceReader.largestFile,
            let data = FileManager.default.contents(atPath: path)
        else {
            return "\(name) is no longer at \(path); the copy kept with the session is used."
        }
        if SHA256.hex(of: data) != sha256 {
            return "\(name) has changed on disk since it was added; the copy kept with the session is used (/source \(path) adds the new one)."
        }
        return nil
    }
}

/// Why a file cannot be a source, one sentence each that says what to do; nothing is sent.
package enum SourceError: Error, Equatable, Sendable, LocalizedError {
    case missing(String)
    case directory(String)
    case unreadable(String)
    case tooLarge(String, bytes: Int)
    case notWhatItSays(String, kind: String)
    case encrypted(String)
    case noTextLayer(String)
    case empty(String)
    case toolMissing(String, tool: String, package: String)
    case unsupported(String)
    case toolFailed(String, tool: String, message: String)
    /// It is, or leads to, a file no source may come from (keys, settings, system files); `place` says where.
    case sensitive(String, resolved: String?, place: String)
    case notAFile(String)
    /// A zip (docx, odt) whose files unpack to far more than a document holds.
    case expandsTooMuch(String, bytes: Int)
    /// The reading tool gave more text than a source may hold.
    case tooMuchText(String, tool: String)
    /// The reading tool ran past its deadline and was stopped.
    case toolTimedOut(String, tool: String, seconds: Int)

    package var errorDescription: String? {
        switch self {
        case .missing(let path): "There is no file \(path); check the path and add it again."
        case .directory(let path): "\(path) is a folder, not a file; name one file in it as the source."
        case .unreadable(let path): "Cannot read \(path); check its permissions and add it again."
        case .tooLarge(let path, let bytes):
            "\(path) is \(bytes) bytes, over the \(SourceReader.largestFile)-byte (20 MB) limit for a source; add the chapter you need instead."
        case .notWhatItSays(let path, let kind):
            "\(path) is named like a \(kind) but is not one; open it to check, or save it again as \(kind)."
        case .encrypted(let path): "\(path) is an encrypted PDF; save a copy without a password and add that."
        case .noTextLayer(let path):
            "\(path) has no text layer (a scan?), so there is nothing to quote; run it through OCR (ocrmypdf) and add the result."
        case .empty(let path): "\(path) has no text to ground a plan in."
        case .toolMissing(let path, let tool, let package):
            "Reading \(path) needs \(tool), which is not installed; install it (apt-get install \(package))."
        case .unsupported(let path):
            "\(path) is not a kind of file a source can be; use a PDF, .txt, .md, .docx or .odt."
        case .toolFailed(let path, let tool, let message):
            "\(tool) could not read \(path) (\(message)); open it to check it is not damaged."
        case .sensitive(let path, let resolved, let place):
            "\(path) is not read as a source: it \(resolved.map { "links to \($0), in" } ?? "is in") \(place), which holds keys and settings, not teaching text; nothing of it was read. Copy the text you mean into an ordinary folder and add that."
        case .notAFile(let path):
            "\(path) is not a regular file (a device, a pipe or a socket); name the document itself."
        case .expandsTooMuch(let path, let bytes):
            "\(path) unpacks to \(bytes / 1_048_576) MB, far more than any document holds (a damaged or hostile file?); nothing was read. Open it in your word processor and save a new copy."
        case .tooMuchText(let path, let tool):
            "\(tool) found far more text in \(path) than a source may hold (over \(SourceReader.largestText / 1_048_576) MB, or over \(SourceReader.mostTextPerByte) times the file's size: a damaged or hostile file?); nothing was kept. Add the chapter you need, or save a new copy."
        case .toolTimedOut(let path, let tool, let seconds):
            "\(tool) took more than \(seconds) s to read \(path) and was stopped (a damaged or hostile file?); nothing was kept. Open it in your word processor and save a new copy."
        }
    }
}
