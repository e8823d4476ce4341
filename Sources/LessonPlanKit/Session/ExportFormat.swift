import Foundation

/// The formats a plan can be exported in.
public enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, json

    /// Reads `md`, `markdown`, `html` or `json`.
    public init?(text: String) {
        switch text.lowercased() {
        case "md", "markdown": self = .md
        case "html", "htm": self = .html
        case "json": self = .json
        default: return nil
        }
    }

    /// Whether the export is text a terminal may show (sanitised), rather than a page or data a program reads.
    public var isReadable: Bool { self == .md }
}

/// An export that cannot be made, in one sentence that says what to do.
public struct ExportError: Error, Equatable, Sendable, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}
