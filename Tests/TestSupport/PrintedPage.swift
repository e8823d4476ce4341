import Foundation

/// Prints an HTML page the way a teacher's browser would, so tests assert on what prints, not the markup.
///
/// Uses Debian's headless `chromium` (print to PDF) and poppler's `pdftotext` and `pdftoppm`, which
/// `scripts/setup` installs.
package enum PrintedPage {
    /// A tool the printout needs is missing or failed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// Prints `html` to `<name>.pdf` in `directory` with headless Chromium and returns the PDF's location.
    /// - Throws: ``Failure`` when Chromium is missing, fails, or writes no PDF.
    package static func pdf(html: String, name: String, in directory: URL) async throws -> URL {
        let page = directory.appending(path: "\(name).html")
        let pdf = directory.appending(path: "\(name).pdf")
        try Data(html.utf8).write(to: page)
        let profile = directory.appending(path: "chromium-profile-\(name)")
        let chromium = try executable("chromium", package: "chromium")
        let result = try await run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-pdf-header-footer", "--user-data-dir=\(profile.path)", "--print-to-pdf=\(pdf.path)",
                page.absoluteString,
            ], in: directory)
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            throw Failure(description: "chromium wrote no PDF (status \(result.status)): \(result.output.suffix(2000))")
        }
        return pdf
    }

    /// The PDF's text laid out as printed (`pdftotext -layout`).
    package static func text(of pdf: URL) async throws -> String {
        let tool = try executable("pdftotext", package: "poppler-utils")
        let out = pdf.deletingPathExtension().appendingPathExtension("txt")
        let result = try await run(tool, ["-layout", pdf.path, out.path], in: pdf.deletingLastPathComponent())
        guard result.status == 0 else { throw Failure(description: "pdftotext failed: \(result.output)") }
        return try String(contentsOf: out, encoding: .utf8)
    }

    /// The number of pages in the PDF, from its text's form feeds.
    package static func pages(of text: String) -> Int {
        text.split(separator: "\u{0C}", omittingEmptySubsequences: true)
            .filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.count
    }

    /// One page of the PDF (from 1) as a PNG at 60 dpi (`pdftoppm -png -r 60 -f N -l N -singlefile`), written to `png`.
    package static func pagePNG(of pdf: URL, page: Int, to png: URL) async throws {
        let tool = try executable("pdftoppm", package: "poppler-utils")
        let prefix = png.deletingPathExtension()
        let result = try await run(
            tool, ["-png", "-r", "60", "-f", String(page), "-l", String(page), "-singlefile", pdf.path, prefix.path],
            in: pdf.deletingLastPathComponent())
        guard result.status == 0 else { throw Failure(description: "pdftoppm failed: \(result.output)") }
    }

    private static func executable(_ name: String, package: String) throws -> URL {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let url = URL(fileURLWithPath: folder).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Failure(description: "\(name) is not installed; run scripts/setup (it installs Debian's \(package)).")
    }

    /// Runs a tool with its output in a file (Chromium is chatty), waiting for it to finish.
    private static func run(_ tool: URL, _ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(tool, arguments, in: directory)
        return (result.status, result.output)
    }
}
