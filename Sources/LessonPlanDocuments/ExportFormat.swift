import Foundation

/// The formats a plan can be exported in: text and pages made here, and documents a teacher can
/// edit, made through pandoc.
package enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, json, docx, odt, pptx

    /// Reads `md`, `markdown`, `html`, `json`, `docx` (`word`), `odt` or `pptx` (`slides`), any case.
    package init?(text: String) {
        switch text.lowercased() {
        case "md", "markdown": self = .md
        case "html", "htm": self = .html
        case "json": self = .json
        default:
            guard let document = DocumentFormat(text: text) else { return nil }
            self.init(rawValue: document.rawValue)
        }
    }

    /// Whether the export is text a terminal may show (sanitised), rather than a page or data a program reads.
    package var isReadable: Bool { self == .md }

    /// The editable document this export is, made through pandoc; nil for the formats made here.
    package var document: DocumentFormat? { DocumentFormat(rawValue: rawValue) }

    /// What the format is called in a sentence ("Wrote … to").
    package var label: String { document?.name ?? rawValue.uppercased() }
}

/// A document a teacher can open and edit in a word processor or presentation program.
package enum DocumentFormat: String, CaseIterable, Sendable {
    case docx, odt, pptx

    /// Reads `docx`, `word`, `odt`, `pptx` or `slides`, any case.
    package init?(text: String) {
        switch text.lowercased() {
        case "docx", "word": self = .docx
        case "odt", "opendocument": self = .odt
        case "pptx", "slides", "powerpoint": self = .pptx
        default: return nil
        }
    }

    /// What the format is, in a teacher's words.
    package var name: String {
        switch self {
        case .docx: "Word document"
        case .odt: "OpenDocument text"
        case .pptx: "PowerPoint slides"
        }
    }
}

/// An export that cannot be made, in one sentence that says what to do.
package struct ExportError: Error, Equatable, Sendable, LocalizedError {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var errorDescription: String? { message }
}
