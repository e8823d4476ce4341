import Foundation

/// One quotation in an answer and what the check found for it.
public struct QuoteVerdict: Equatable, Sendable {
    public enum Result: Equatable, Sendable {
        /// Found, word for word after normalising, on the cited page.
        case verified
        /// Found, but on another page (the first it is on).
        case wrongPage(found: Int)
        /// Not found on any page of the source it cites (or of any source).
        case notInSource
    }

    /// The quoted words as the answer wrote them.
    public var quote: String
    /// The file named in the cite, when there is one.
    public var file: String?
    /// The page cited.
    public var page: Int
    public var result: Result
    /// The source the quote was checked in, for the message (the cite's own, or the one it was found in).
    public var sourceName: String?

    /// The cite as the answer wrote it: `(p. 3)` or `(book.pdf p. 3)`.
    public var cite: String { "(\(file.map { "\($0) " } ?? "")p. \(page))" }

    /// The quote cut for one line.
    public var shortQuote: String {
        let words = quote.split(whereSeparator: \.isWhitespace)
        return words.count > 12 ? words.prefix(12).joined(separator: " ") + " …" : words.joined(separator: " ")
    }

    /// One sentence for `/check`, the footer's lines and the repair request.
    public var sentence: String {
        switch result {
        case .verified:
            "“\(shortQuote)” \(cite) is verified on page \(page)."
        case .wrongPage(let found):
            "The quotation “\(shortQuote)” \(cite) is on page \(found), not page \(page): cite it as (\(file.map { "\($0) " } ?? "")p. \(found))."
        case .notInSource:
            "The quotation “\(shortQuote)” \(cite) is not in the source: quote the source word for word, or drop the quotation marks and the page."
        }
    }
}

/// Every quotation of an answer checked against the sources.
public struct QuoteReport: Equatable, Sendable {
    public var verdicts: [QuoteVerdict]

    public init(verdicts: [QuoteVerdict]) { self.verdicts = verdicts }

    public var verified: Int { verdicts.count { $0.result == .verified } }
    public var wrongPage: Int { verdicts.count { if case .wrongPage = $0.result { true } else { false } } }
    public var notInSource: Int { verdicts.count { $0.result == .notInSource } }
    /// Quotations that are not verified.
    public var problems: [QuoteVerdict] { verdicts.filter { $0.result != .verified } }

    /// The footer's part: `✓ 3 quotes verified`, `✗ 1 quote not in the source, 1 on the wrong page · 1 verified`;
    /// nil when the answer quotes nothing.
    public var footer: String? {
        guard !verdicts.isEmpty else { return nil }
        func quotes(_ n: Int) -> String { n == 1 ? "1 quote" : "\(n) quotes" }
        if problems.isEmpty { return "✓ \(quotes(verified)) verified" }
        var parts: [String] = []
        if notInSource > 0 { parts.append("\(quotes(notInSource)) not in the source") }
        if wrongPage > 0 { parts.append("\(quotes(wrongPage)) on the wrong page") }
        if verified > 0 { parts.append("\(verified) verified") }
        return "✗ " + parts.joined(separator: ", ")
    }
}

/// Finds the quotations in an answer (double quotes, straight or curly, of 4 words or more, followed by a page
/// cite) and checks each against the sources' pages by code.
///
/// Both sides are normalised the same way first: Unicode compatibility forms (ligatures), curly quotes and
/// apostrophes to straight ones, case, and all whitespace and line breaks to one space; a hyphen at the end of a
/// source line is tried both joined ("photo-\nsynthesis" → "photosynthesis") and kept ("well-\nknown" →
/// "well-known"). Leading and trailing punctuation of the quote is ignored; an ellipsis splits a quote into
/// parts that must all be on the page, in order.
public enum QuoteChecker {
    /// Fewer words than this in quotation marks is a term or a title, not a quotation.
    public static let fewestWords = 4

    // A quotation: opening quote, the words (no quote marks inside), closing quote, then a cite in parentheses.
    nonisolated(unsafe) private static let pattern = /["“]([^"“”\n]+(?:\n[^"“”\n]+){0,3})["”]\s*\(\s*(?:([^()\n]*?)\s+)?p(?:age|\.)?\s*(\d+)\s*\)/

    /// The quotations of `text`, as written, with their cites.
    public static func quotations(in text: String) -> [(quote: String, file: String?, page: Int)] {
        var found: [(String, String?, Int)] = []
        for match in text.matches(of: pattern) {
            let quote = String(match.output.1)
            guard let page = Int(match.output.3) else { continue }
            let words = quote.split(whereSeparator: { $0.isWhitespace }).filter { $0.contains(where: \.isLetter) || $0.contains(where: \.isNumber) }
            guard words.count >= fewestWords else { continue }
            var file = match.output.2.map { String($0).trimmingCharacters(in: .whitespaces) }
            if file?.isEmpty == true { file = nil }
            found.append((quote, file, page))
        }
        return found
    }

    /// Checks every quotation of `text` against `sources`; empty when there are no sources.
    public static func check(_ text: String, against sources: [SourceDocument]) -> QuoteReport {
        guard !sources.isEmpty else { return QuoteReport(verdicts: []) }
        let normalised = sources.map { $0.pages.map(normalisedPage) }
        var verdicts: [QuoteVerdict] = []
        for (quote, file, page) in quotations(in: text) {
            let parts = quoteParts(quote)
            var candidates = Array(sources.indices)
            if let file, let index = sourceIndex(named: file, in: sources) { candidates = [index] }
            var result = QuoteVerdict.Result.notInSource
            var foundIn: String?
            search: for index in candidates {
                let pages = normalised[index]
                if page >= 1, page <= pages.count {
                    // On the cited page, or running over onto the next one.
                    let spanning = page < pages.count ? zip(pages[page - 1], pages[page]).map { $0 + " " + $1 } : []
                    if contains(pages[page - 1], parts) || contains(spanning, parts) {
                        result = .verified
                        foundIn = sources[index].name
                        break search
                    }
                }
                for (offset, variants) in pages.enumerated() where contains(variants, parts) {
                    result = .wrongPage(found: offset + 1)
                    foundIn = sources[index].name
                    break search
                }
            }
            verdicts.append(QuoteVerdict(quote: quote, file: file, page: page, result: result, sourceName: foundIn))
        }
        return QuoteReport(verdicts: verdicts)
    }

    /// Whether `quote` is in `text` word for word, both normalised as quotations against a source are
    /// (compatibility forms, curly quotes, case, whitespace and line breaks; an ellipsis splits the quote into
    /// parts found in order), with Markdown's emphasis marks (`*`, `` ` ``) dropped from both, since a plan
    /// writes `**Objective:**` where a quotation of it says `Objective:`.
    public static func isQuoted(_ quote: String, in text: String) -> Bool {
        func plain(_ text: String) -> String { text.filter { $0 != "*" && $0 != "`" } }
        let unquoted = plain(quote).trimmingCharacters(in: CharacterSet(charactersIn: "\"“”„‘’' ").union(.whitespacesAndNewlines))
        return contains(normalisedPage(plain(text)), quoteParts(unquoted))
    }

    /// The source a cite's file name means: the exact name, or the name without its extension, ignoring case.
    static func sourceIndex(named file: String, in sources: [SourceDocument]) -> Int? {
        let wanted = file.lowercased()
        return sources.firstIndex { $0.name.lowercased() == wanted }
            ?? sources.firstIndex { ($0.name as NSString).deletingPathExtension.lowercased() == wanted }
    }

    /// A page normalised two ways: line-end hyphens joined, and kept.
    static func normalisedPage(_ page: String) -> [String] {
        let folded = fold(page)
        let joined = folded.replacing(/-[ \t]*\n[ \t]*/, with: "")
        let kept = folded.replacing(/-[ \t]*\n[ \t]*/, with: "-")
        return [collapse(joined), collapse(kept)]
    }

    /// The quote's parts between ellipses, normalised, without punctuation at either end.
    static func quoteParts(_ quote: String) -> [String] {
        let folded = fold(quote).replacing("…", with: "...")
        let trim = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ".,;:!?'[]()"))
        return folded.components(separatedBy: "...")
            .map { collapse($0.replacing(/-[ \t]*\n[ \t]*/, with: "-")).trimmingCharacters(in: trim) }
            .filter { !$0.isEmpty }
    }

    private static func fold(_ text: String) -> String {
        var text = text.precomposedStringWithCompatibilityMapping.lowercased()
        for (from, to) in [("“", "\""), ("”", "\""), ("„", "\""), ("‘", "'"), ("’", "'"), ("\u{00AD}", "")] {
            text = text.replacing(from, with: to)
        }
        return text
    }

    private static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Whether one of the page's variants holds every part, in order.
    private static func contains(_ variants: [String], _ parts: [String]) -> Bool {
        guard !parts.isEmpty else { return false }
        return variants.contains { page in
            var rest = page[...]
            for part in parts {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
    }
}
