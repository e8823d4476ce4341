import Foundation
import LessonPlanCore
import LessonPlanStore

/// Why a document could not be made, in one sentence that says what to do.
package enum DocumentError: Error, Equatable, Sendable, LocalizedError {
    case pandocMissing(DocumentFormat)
    case pandocFailed(DocumentFormat, status: Int32, message: String)
    case noPlan

    package var errorDescription: String? {
        switch self {
        case .pandocMissing(let format):
            "Making a .\(format.rawValue) needs pandoc, which is not installed; install it (on Debian or Ubuntu: sudo apt-get install pandoc) and try again."
        case .pandocFailed(let format, let status, let message):
            "pandoc could not write the .\(format.rawValue) (status \(status)\(message.isEmpty ? "" : ": \(message)")); check that pandoc 2.11 or newer is installed."
        case .noPlan:
            "There is no plan to export yet; generate one first."
        }
    }
}

/// Runs the system's `pandoc` to turn a document into docx, odt or pptx; found on `PATH` or at a given path.
package struct Pandoc: Sendable {
    /// The pandoc executable.
    package let executable: URL

    package init(executable: URL) {
        self.executable = executable
    }

    /// The first `pandoc` on `PATH` (from `environment`), or nil when there is none.
    package static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> Pandoc? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let url = URL(fileURLWithPath: String(folder)).appending(path: "pandoc")
            if FileManager.default.isExecutableFile(atPath: url.path) { return Pandoc(executable: url) }
        }
        return nil
    }

    /// The JSON API version this pandoc reads and writes, e.g. `[1, 22, 2, 1]`.
    /// - Throws: ``DocumentError/pandocFailed(_:status:message:)`` when pandoc does not answer.
    func apiVersion(for format: DocumentFormat) async throws -> [Int] {
        let answer = try await run(["-f", "markdown", "-t", "json"], input: Data(), format: format)
        let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any]
        guard let version = object?["pandoc-api-version"] as? [Int], !version.isEmpty else {
            throw DocumentError.pandocFailed(format, status: 0, message: "it gave no pandoc-api-version")
        }
        return version
    }

    /// Converts `document` to `format` with `reference` (a .docx, .odt or .pptx) for its styles.
    /// - Returns: the file's bytes.
    func convert(_ document: PandocDocument, to format: DocumentFormat, reference: Data?) async throws -> Data {
        let json = try document.json(apiVersion: try await apiVersion(for: format))
        let folder = try PrivateFiles.temporaryFolder("lessonplan-doc")
        defer { PrivateFiles.removeTemporaryFolder(folder) }
        let output = folder.appending(path: "out.\(format.rawValue)")
        var arguments = ["-f", "json", "-t", format.rawValue, "-o", output.path]
        if let reference {
            let file = folder.appending(path: "reference.\(format.rawValue)")
            try PrivateFiles.write(reference, to: file, replace: false)
            arguments.append("--reference-doc=\(file.path)")
        }
        if format == .pptx { arguments.append("--slide-level=1") }
        if format == .odt {
            // pandoc's odt tables have unruled cells (`fo:border="none"`), and a reference document's cell styles
            // are not read by Writer; this pandoc's own content template, with one ruled cell style added to
            // its automatic styles, lets the tables (written as raw odt, see `DocumentExport`) print as grids.
            let template = try await run(["-D", "opendocument"], input: Data(), format: format)
            guard let text = String(data: template, encoding: .utf8), text.contains(Self.automaticStyles) else {
                throw DocumentError.pandocFailed(format, status: 0, message: "its opendocument template has no automatic styles")
            }
            let file = folder.appending(path: "content-template.xml")
            let styles = [Self.ruledCellStyle, Self.keptRowStyle, Self.pageHeadingStyle(1), Self.pageHeadingStyle(2), Self.pageStartStyle].joined()
            let ruled = text.replacingOccurrences(of: Self.automaticStyles, with: Self.automaticStyles + "\n" + styles)
            try PrivateFiles.write(Data(ruled.utf8), to: file, replace: false)
            arguments.append("--template=\(file.path)")
        }
        _ = try await run(arguments, input: json, format: format, in: folder)
        guard let data = try? Data(contentsOf: output), !data.isEmpty else {
            throw DocumentError.pandocFailed(format, status: 0, message: "it wrote no file")
        }
        return data
    }

    /// Where pandoc's opendocument template puts the automatic styles.
    static let automaticStyles = "$automatic-styles$"
    /// The cell style of odt tables: ruled on every side, as the docx and HTML tables are.
    static let ruledCellName = "LessonplanRuledCell"
    static let ruledCellStyle =
        "<style:style style:name=\"\(ruledCellName)\" style:family=\"table-cell\">"
        + "<style:table-cell-properties fo:border=\"0.5pt solid #808080\" fo:padding=\"0.04in\"/></style:style>"
    /// The row style of odt tables: a row never splits between pages (`DocumentExport.ruledForODT`).
    static let keptRowName = "LessonplanKeptRow"
    static let keptRowStyle =
        "<style:style style:name=\"\(keptRowName)\" style:family=\"table-row\">"
        + "<style:table-row-properties fo:keep-together=\"always\"/></style:style>"
    /// A Heading 1 that starts a new page itself, so a full page before it leaves no blank one behind.
    /// `LessonplanPageHeading1` and `2`, on Heading 1 and Heading 2.
    static let pageHeadingName = "LessonplanPageHeading"
    static func pageHeadingStyle(_ level: Int) -> String {
        "<style:style style:name=\"\(pageHeadingName)\(level)\" style:family=\"paragraph\" style:parent-style-name=\"Heading_20_\(level)\""
            + " style:default-outline-level=\"\(level)\"><style:paragraph-properties fo:break-before=\"page\"/></style:style>"
    }
    /// A body paragraph that starts a new page itself (the handouts after the starter quiz).
    static let pageStartName = "LessonplanPageStart"
    static let pageStartStyle =
        "<style:style style:name=\"\(pageStartName)\" style:family=\"paragraph\" style:parent-style-name=\"Text_20_body\">"
        + "<style:paragraph-properties fo:break-before=\"page\"/></style:style>"

    /// Runs pandoc with `input` on stdin; stdout and stderr go to files so neither pipe can fill and stall it.
    private func run(_ arguments: [String], input: Data, format: DocumentFormat, in folder: URL? = nil) async throws -> Data {
        // The plan may describe real students: the folder is the owner's only, as are its copy and pandoc's output.
        let scratch = try folder ?? PrivateFiles.temporaryFolder("lessonplan-pandoc")
        defer { if folder == nil { PrivateFiles.removeTemporaryFolder(scratch) } }
        let result: ToolProcess.Result
        do {
            result = try await ToolProcess.run(executable, arguments, input: input, scratch: scratch, in: scratch)
        } catch {
            throw DocumentError.pandocMissing(format)
        }
        guard result.status == 0 else {
            let message = String(data: result.errors, encoding: .utf8) ?? ""
            let first = message.split(separator: "\n").first.map { String($0.prefix(200)) } ?? ""
            throw DocumentError.pandocFailed(format, status: result.status, message: first)
        }
        return result.output
    }
}
