import Foundation

/// Source files for the grounding tests, written by the tests: small PDFs built byte by byte (so their text
/// layer is known exactly), and a docx made by pandoc from Markdown.
package enum SourceFixtures {
    /// The three pages of ``threePagePDF``, each a list of lines as they are drawn.
    package static let pages: [[String]] = [
        [
            "The tide rises and falls twice each day along the coast.", "Sailors learned to read the moon for warn-",
            "ings of the coming spring tides.",
        ],
        ["The gravity of the moon pulls the oceans toward it,", "and the water bulges on the near side of the Earth."],
        ["Neap tides come when the sun and the moon pull at right angles.", "They are the smallest tides of the month."],
    ]

    /// A PDF of `pages` (lines each), Helvetica 12 pt, with a text layer.
    package static func pdf(pages: [[String]], encrypted: Bool = false) -> Data {
        var objects: [String] = []
        let pageCount = pages.count
        // 1 catalog, 2 pages, 3 font, then per page: page object, content stream.
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pageCount).map { "\(4 + $0 * 2) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for (index, lines) in pages.enumerated() {
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents \(5 + index * 2) 0 R >>")
            var stream: String
            if lines.isEmpty {
                // No text at all: a drawn rectangle, as a scanned page's image would be.
                stream = "0 0 1 rg 100 100 200 200 re f"
            } else {
                stream = "BT /F1 12 Tf 16 TL 72 720 Td\n"
                for line in lines {
                    let escaped = line.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
                        .replacingOccurrences(of: ")", with: "\\)")
                    stream += "(\(escaped)) Tj T*\n"
                }
                stream += "ET"
            }
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        var encryptRef = ""
        if encrypted {
            // The standard security handler with a user password nobody knows: /U does not match the empty one.
            let o = String(repeating: "5A", count: 32)
            let u = String(repeating: "C3", count: 32)
            objects.append("<< /Filter /Standard /V 1 /R 2 /O <\(o)> /U <\(u)> /P -44 >>")
            encryptRef = " /Encrypt \(objects.count) 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]"
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(encryptRef) >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// The three-page lesson PDF, written into `folder`.
    package static func threePagePDF(in folder: URL, name: String = "tides.pdf") throws -> URL {
        let url = folder.appending(path: name)
        try pdf(pages: pages).write(to: url)
        return url
    }

    /// The paragraphs of ``docx(in:)``.
    package static let docxParagraphs = [
        "Tide pools are rocky hollows that hold sea water when the tide goes out.",
        "Students should never turn their back on the incoming tide.",
    ]

    /// A docx made by pandoc from ``docxParagraphs``; nil when pandoc is not installed.
    package static func docx(in folder: URL, name: String = "notes.docx") async throws -> URL? {
        let pandoc = ["/usr/bin/pandoc", "/usr/local/bin/pandoc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let pandoc else { return nil }
        let markdown = folder.appending(path: "notes-\(UUID().uuidString).md")
        try docxParagraphs.joined(separator: "\n\n").write(to: markdown, atomically: true, encoding: .utf8)
        let url = folder.appending(path: name)
        let result = try await ChildProcess.run(URL(fileURLWithPath: pandoc), [markdown.path, "-o", url.path])
        try? FileManager.default.removeItem(at: markdown)
        return result.status == 0 ? url : nil
    }

    /// A fresh temporary folder.
    package static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "lessonplan-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
