import Foundation

/// What keeps a printed docx or odt whole: table rows that never split between pages, and new pages that start
/// with their heading rather than after an empty paragraph that breaks the page.
///
/// pandoc's writers have no way to say either (a table row's `cantSplit`, a heading's break before), so these
/// blocks are written as raw OOXML or ODF, in the styles the reference documents and `Pandoc` supply.
extension DocumentExport {
    /// `blocks` starting on a new page: the first carries the break itself.
    static func startingNewPage(_ blocks: [PandocBlock]) -> [PandocBlock] {
        guard let first = blocks.first else { return blocks }
        return [.newPage(first)] + blocks.dropFirst()
    }

    /// A block that starts a new page as `format` writes it: a heading or paragraph with its own break before
    /// (`pageBreakBefore`, `fo:break-before`); anything else after an explicit break.
    static func newPage(_ block: PandocBlock, format: DocumentFormat) -> [PandocBlock] {
        switch (block, format) {
        case (.header(let level, let inlines), .docx) where level <= 2:
            return [
                .raw(format: "openxml", "<w:p><w:pPr><w:pStyle w:val=\"Heading\(level)\"/><w:pageBreakBefore/></w:pPr>\(openXMLRuns(inlines))</w:p>")
            ]
        case (.header(let level, let inlines), .odt) where level <= 2:
            return [
                .raw(
                    format: "opendocument",
                    "<text:h text:style-name=\"\(Pandoc.pageHeadingName)\(level)\" text:outline-level=\"\(level)\">\(odfText(inlines))</text:h>")
            ]
        case (.para(let inlines), .docx):
            return [.raw(format: "openxml", "<w:p><w:pPr><w:pStyle w:val=\"BodyText\"/><w:pageBreakBefore/></w:pPr>\(openXMLRuns(inlines))</w:p>")]
        case (.para(let inlines), .odt):
            return [.raw(format: "opendocument", "<text:p text:style-name=\"\(Pandoc.pageStartName)\">\(odfText(inlines))</text:p>")]
        case (_, .pptx):
            return [block]
        default:
            return [pageBreak(format)] + forWriter([block], format: format)
        }
    }

    /// A docx table as raw OOXML in the reference document's ruled `Table` style: no row splits across a page
    /// (`cantSplit`), the header row repeats on each page and is bold.
    static func keptRowsForDOCX(_ block: PandocBlock) -> PandocBlock {
        switch block {
        case .table(let header, let rows, let widths):
            let columns = max(header.count, rows.map(\.count).max() ?? 0, 1)
            // Widths in fiftieths of a percent, as pandoc writes them; equal shares when none are given.
            let shares = (0..<columns).map { column in
                Int(((widths.flatMap { column < $0.count ? $0[column] : nil } ?? 1 / Double(columns)) * 5000).rounded())
            }
            func row(_ cells: [String], header: Bool) -> String {
                let properties = "<w:trPr><w:cantSplit/>" + (header ? "<w:tblHeader/>" : "") + "</w:trPr>"
                let padded = cells + Array(repeating: "", count: max(0, columns - cells.count))
                return "<w:tr>" + properties
                    + padded.enumerated().map { column, text in
                        "<w:tc><w:tcPr><w:tcW w:w=\"\(shares[column])\" w:type=\"pct\"/></w:tcPr>"
                            + "<w:p><w:pPr><w:pStyle w:val=\"Compact\"/></w:pPr>"
                            + openXMLRuns(header ? [.strong([.text(text)])] : [.text(text)]) + "</w:p></w:tc>"
                    }.joined() + "</w:tr>"
            }
            var xml =
                "<w:tbl><w:tblPr><w:tblStyle w:val=\"Table\"/><w:tblW w:w=\"5000\" w:type=\"pct\"/>"
                + "<w:tblLook w:firstRow=\"1\" w:lastRow=\"0\" w:firstColumn=\"0\" w:lastColumn=\"0\" w:noHBand=\"0\" w:noVBand=\"0\"/></w:tblPr>"
                + "<w:tblGrid>" + shares.map { "<w:gridCol w:w=\"\($0 * 9360 / 5000)\"/>" }.joined() + "</w:tblGrid>"
            if !header.isEmpty { xml += row(header, header: true) }
            xml += rows.map { row($0, header: false) }.joined() + "</w:tbl>"
            return .raw(format: "openxml", xml)
        case .div(let classes, let blocks): return .div(classes: classes, blocks.map(keptRowsForDOCX))
        case .styled(let style, let blocks): return .styled(style, blocks.map(keptRowsForDOCX))
        default: return block
        }
    }

    /// Runs of OOXML for inlines: text escaped and cleaned as every other text is, bold and italic as run properties.
    static func openXMLRuns(_ inlines: [PandocInline], bold: Bool = false, italic: Bool = false) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text):
                let properties = (bold ? "<w:b/>" : "") + (italic ? "<w:i/>" : "")
                return "<w:r>" + (properties.isEmpty ? "" : "<w:rPr>\(properties)</w:rPr>")
                    + "<w:t xml:space=\"preserve\">\(PlanExport.htmlEscape(PandocDocument.clean(text)))</w:t></w:r>"
            case .strong(let inner): return openXMLRuns(inner, bold: true, italic: italic)
            case .emph(let inner): return openXMLRuns(inner, bold: bold, italic: true)
            case .lineBreak: return "<w:r><w:br/></w:r>"
            }
        }.joined()
    }

    /// ODF paragraph content for inlines, bold and italic in the text styles pandoc's own odt uses.
    static func odfText(_ inlines: [PandocInline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): return PlanExport.htmlEscape(PandocDocument.clean(text))
            case .strong(let inner): return "<text:span text:style-name=\"Strong_20_Emphasis\">\(odfText(inner))</text:span>"
            case .emph(let inner): return "<text:span text:style-name=\"Emphasis\">\(odfText(inner))</text:span>"
            case .lineBreak: return "<text:line-break/>"
            }
        }.joined()
    }
}
