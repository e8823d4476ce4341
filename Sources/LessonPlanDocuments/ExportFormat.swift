import Foundation

/// The formats a plan can be exported in: text and pages made here, and documents a teacher can
/// edit, made through pandoc.
package enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, json, docx, odt, pptx

    /// Whether the export is text a terminal may show (sanitised), rather than a page or data a program reads.
    package var isReadable: Bool { self == .md }

    /// The editable document this export is, made through pandoc; nil for the formats made here.
    package var document: DocumentFormat? { DocumentFormat(rawValue: rawValue) }
}

/// A document a teacher can open and edit in a word processor or presentation program.
package enum DocumentFormat: String, CaseIterable, Sendable {
    case docx, odt, pptx
}

/// An export that cannot be made, in one sentence that says what to do.
package struct ExportError: Error, Equatable, Sendable, LocalizedError {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var errorDescription: String? { message }
}
