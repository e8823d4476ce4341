import Foundation

/// A piece of running text in pandoc's document model; text is always literal, never read as markup.
indirect enum PandocInline: Equatable, Sendable {
    case text(String)
    case strong([PandocInline])
    case emph([PandocInline])
    case lineBreak

    func json() -> Any {
        switch self {
        case .text(let text):
            // Split into Str and Space so pandoc wraps and justifies as it does for its own input.
            // Spaces at either end are kept, so `.strong("Grade band:")` then `.text(" 3–5")` reads as two words.
            let cleaned = PandocDocument.clean(text)
            var parts: [Any] = []
            if cleaned.hasPrefix(" ") { parts.append(["t": "Space"]) }
            for (index, word) in cleaned.split(separator: " ", omittingEmptySubsequences: true).enumerated() {
                if index > 0 { parts.append(["t": "Space"]) }
                parts.append(["t": "Str", "c": String(word)])
            }
            if cleaned.hasSuffix(" "), cleaned.contains(where: { $0 != " " }) { parts.append(["t": "Space"]) }
            return parts
        case .strong(let inlines): return [["t": "Strong", "c": PandocInline.json(inlines)]]
        case .emph(let inlines): return [["t": "Emph", "c": PandocInline.json(inlines)]]
        case .lineBreak: return [["t": "LineBreak"]]
        }
    }

    static func json(_ inlines: [PandocInline]) -> [Any] {
        inlines.flatMap { ($0.json() as? [Any]) ?? [] }
    }
}

/// A block of pandoc's document model: what the docx, odt and pptx writers lay out.
indirect enum PandocBlock: Equatable, Sendable {
    /// How an ordered list numbers its items.
    enum Numbering: String, Sendable {
        case decimal = "Decimal"
        case upperAlpha = "UpperAlpha"
    }

    case header(Int, [PandocInline])
    case para([PandocInline])
    case plain([PandocInline])
    case bulletList([[PandocBlock]])
    /// Numbered from `start`, so a list that restarts says so itself rather than leaving it to a renderer.
    case orderedList(start: Int, numbering: Numbering, [[PandocBlock]])
    /// A table with a header row; every cell plain text.
    case table(header: [String], rows: [[String]], widths: [Double]?)
    case div(classes: [String], [PandocBlock])
    /// Blocks in a paragraph style of the reference document (pandoc's `custom-style`), e.g. one that keeps with the next.
    case styled(String, [PandocBlock])
    case raw(format: String, String)
    /// A block that starts a new page, the break its own (a heading's `pageBreakBefore`), so a page already full
    /// before it leaves no blank page; `DocumentExport.forWriter` writes it for docx and odt.
    case newPage(PandocBlock)

    func json() -> Any {
        switch self {
        case .header(let level, let inlines):
            return ["t": "Header", "c": [level, Self.noAttributes, PandocInline.json(inlines)]]
        case .para(let inlines): return ["t": "Para", "c": PandocInline.json(inlines)]
        case .plain(let inlines): return ["t": "Plain", "c": PandocInline.json(inlines)]
        case .bulletList(let items): return ["t": "BulletList", "c": items.map { $0.map { $0.json() } }]
        case .orderedList(let start, let numbering, let items):
            let delimiter = numbering == .decimal ? "Period" : "OneParen"
            return [
                "t": "OrderedList",
                "c": [[start, ["t": numbering.rawValue], ["t": delimiter]], items.map { $0.map { $0.json() } }],
            ]
        case .table(let header, let rows, let widths):
            let specs: [Any] = header.indices.map { column in
                let width: Any =
                    widths.flatMap { column < $0.count ? ["t": "ColWidth", "c": $0[column]] : nil }
                    ?? ["t": "ColWidthDefault"]
                return [["t": "AlignDefault"], width]
            }
            func row(_ cells: [String]) -> Any {
                [
                    Self.noAttributes,
                    cells.map { cell in
                        [Self.noAttributes, ["t": "AlignDefault"], 1, 1, [PandocBlock.plain([.text(cell)]).json()]] as [Any]
                    },
                ] as [Any]
            }
            let head: [Any] = [Self.noAttributes, [row(header)]]
            let body: [Any] = [Self.noAttributes, 0, [] as [Any], rows.map(row)]
            let foot: [Any] = [Self.noAttributes, [] as [Any]]
            return ["t": "Table", "c": [Self.noAttributes, [NSNull(), [] as [Any]], specs, head, [body], foot] as [Any]]
        case .div(let classes, let blocks):
            return ["t": "Div", "c": [["", classes, [] as [Any]] as [Any], blocks.map { $0.json() }] as [Any]]
        case .styled(let style, let blocks):
            return ["t": "Div", "c": [["", [] as [Any], [["custom-style", style]]] as [Any], blocks.map { $0.json() }] as [Any]]
        case .raw(let format, let text): return ["t": "RawBlock", "c": [format, text]]
        // Slides have no pages to break: the block as it is.
        case .newPage(let block): return block.json()
        }
    }

    private static var noAttributes: [Any] { ["", [] as [Any], [] as [Any]] }
}

/// A whole document for pandoc: its title, a subtitle, and its blocks.
struct PandocDocument: Sendable {
    var title: String
    var subtitle: String?
    var blocks: [PandocBlock]

    /// Pandoc's JSON for this document, stamped with the API version the installed pandoc speaks.
    func json(apiVersion: [Int]) throws -> Data {
        var meta: [String: Any] = ["title": ["t": "MetaInlines", "c": PandocInline.json([.text(title)])]]
        if let subtitle { meta["subtitle"] = ["t": "MetaInlines", "c": PandocInline.json([.text(subtitle)])] }
        let root: [String: Any] = ["pandoc-api-version": apiVersion, "meta": meta, "blocks": blocks.map { $0.json() }]
        return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
    }

    /// Text safe inside a document's XML: control characters (which XML 1.0 cannot hold) become spaces,
    /// and bidirectional overrides, which could make text read other than it is, are dropped.
    static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0..<0x20, 0x7F..<0xA0, 0xFFFE, 0xFFFF: out.append(" ")
            case 0x202A...0x202E, 0x2066...0x2069: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
