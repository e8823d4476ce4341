import Foundation

/// Opens a docx, odt or pptx the way a test needs to: its zip parts, its paragraphs with their styles, and
/// a PDF printed by LibreOffice headless (Debian's `libreoffice-writer-nogui` and `-impress-nogui`, which
/// `scripts/setup` installs).
package enum OfficeDocument {
    /// One paragraph of a document as its XML holds it: the style (`Heading1`, `1` for an odt heading of
    /// outline level 1, `slide3` for a slide's text) and its text.
    package struct Paragraph: Equatable, Sendable, CustomStringConvertible {
        package var style: String
        package var text: String
        package var description: String { "\(style)|\(text)" }
    }

    /// The names of the parts in the zip package; throws when it is not a zip.
    package static func parts(of file: URL) async throws -> [String] {
        let result = try await Python.run(
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline().strip())\n"
                + "bad = z.testzip()\nassert bad is None, bad\nprint('\\n'.join(z.namelist()))",
            input: Data((file.path + "\n").utf8))
        guard result.status == 0 else { throw PrintedPage.Failure(description: "not a zip package: \(result.output)") }
        return result.output.split(separator: "\n").map(String.init)
    }

    /// The text of one part of the zip package (`content.xml` of an odt, say); throws when it is not there.
    package static func member(_ name: String, of file: URL) async throws -> String {
        let result = try await Python.run(
            "import sys, zipfile\npath, name = sys.stdin.readline().strip(), sys.stdin.readline().strip()\n"
                + "sys.stdout.write(zipfile.ZipFile(path).read(name).decode())",
            input: Data((file.path + "\n" + name + "\n").utf8))
        guard result.status == 0 else { throw PrintedPage.Failure(description: "no \(name) in \(file.lastPathComponent): \(result.output)") }
        return result.output
    }

    /// Every paragraph with text, in document order: docx body paragraphs, odt headings and paragraphs,
    /// pptx slide paragraphs slide by slide (speaker notes as style `notesN`).
    package static func paragraphs(of file: URL) async throws -> [Paragraph] {
        let script = #"""
            import sys, zipfile, re, html
            path = sys.stdin.readline().strip()
            z = zipfile.ZipFile(path)
            def text(xml, tag):
                return html.unescape("".join(re.findall(r"<%s(?: [^>]*)?>([^<]*)</%s>" % (tag, tag), xml)))
            out = []
            if path.endswith(".docx"):
                body = z.read("word/document.xml").decode()
                for p in re.findall(r"<w:p[ >].*?</w:p>", body, re.S):
                    style = re.search(r'<w:pStyle w:val="([^"]*)"', p)
                    out.append(((style.group(1) if style else "Normal"), text(p, "w:t")))
            elif path.endswith(".odt"):
                body = z.read("content.xml").decode()
                for m in re.finditer(r"<text:(h|p)\b([^>]*?)(?:/>|>(.*?)</text:\1>)", body, re.S):
                    level = re.search(r'text:outline-level="(\d)"', m.group(2))
                    inner = re.sub(r"<text:s/>", " ", m.group(3) or "")
                    inner = html.unescape(re.sub(r"<[^>]+>", "", inner))
                    out.append(((level.group(1) if m.group(1) == "h" and level else "p"), inner))
            else:
                def number(name): return int(re.search(r"(\d+)\.xml$", name).group(1))
                slides = sorted((n for n in z.namelist() if re.match(r"ppt/slides/slide\d+\.xml$", n)), key=number)
                for name in slides:
                    n = number(name)
                    for p in re.findall(r"<a:p>.*?</a:p>", z.read(name).decode(), re.S):
                        out.append(("slide%d" % n, text(p, "a:t")))
                    rels = z.read("ppt/slides/_rels/slide%d.xml.rels" % n).decode()
                    for target in re.findall(r'Target="../notesSlides/(notesSlide\d+\.xml)"', rels):
                        for p in re.findall(r"<a:p>.*?</a:p>", z.read("ppt/notesSlides/" + target).decode(), re.S):
                            out.append(("notes%d" % n, text(p, "a:t")))
            for style, t in out:
                if t.strip():
                    print(style + "|" + " ".join(t.split()))
            """#
        let result = try await Python.run(script, input: Data((file.path + "\n").utf8))
        guard result.status == 0 else { throw PrintedPage.Failure(description: "cannot read \(file.lastPathComponent): \(result.output)") }
        return result.output.split(separator: "\n").compactMap { line in
            guard let bar = line.firstIndex(of: "|") else { return nil }
            return Paragraph(style: String(line[..<bar]), text: String(line[bar...].dropFirst()))
        }
    }

    /// Prints `file` to PDF with LibreOffice headless, in a profile of its own so parallel runs do not clash.
    /// - Throws: ``PrintedPage/Failure`` when LibreOffice is missing or writes no PDF.
    package static func pdf(of file: URL) async throws -> URL {
        guard
            let soffice = ["/usr/bin/soffice", "/usr/bin/libreoffice", "/usr/local/bin/soffice"]
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw PrintedPage.Failure(
                description:
                    "LibreOffice is not installed; run scripts/setup (it installs Debian's libreoffice-writer-nogui and libreoffice-impress-nogui).")
        }
        let folder = file.deletingLastPathComponent()
        let profile = folder.appending(path: "lo-profile-\(UUID().uuidString)")
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: soffice),
            [
                "-env:UserInstallation=\(profile.absoluteString)", "--headless", "--norestore", "--convert-to", "pdf",
                "--outdir", folder.path, file.path,
            ],
            in: folder)
        try? FileManager.default.removeItem(at: profile)
        let pdf = file.deletingPathExtension().appendingPathExtension("pdf")
        guard FileManager.default.fileExists(atPath: pdf.path) else {
            throw PrintedPage.Failure(description: "LibreOffice wrote no PDF of \(file.lastPathComponent) (status \(result.status)).")
        }
        return pdf
    }
}
