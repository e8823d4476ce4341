import Foundation

/// One quotation in an answer and what the check found for it.
package struct QuoteVerdict: Equatable, Sendable {
    package enum Result: Equatable, Sendable {
        /// Found, word for word after normalising, on the cited page (or pages) of the cited source.
        case verified
        /// Found, but on another page (the first it is on), or the cite names no page the source has.
        case wrongPage(found: Int)
        /// Not found on any page of the source it cites (or of any source).
        case notInSource
        /// Found in `source` on `page`, but with several sources the cite does not name which one it quotes.
        case unnamedSource(source: String, page: Int)
        /// An ellipsis leaves fewer than ``QuoteText/fewestWordsPerPart`` words on one side: too little to check.
        case tooLittleAroundEllipsis
    }

    /// The quoted words as the answer wrote them.
    package var quote: String
    /// The file named in the cite, when there is one.
    package var file: String?
    /// The pages cited as written ("3", "2-3"); nil when they cannot be read as pages.
    package var pages: ClosedRange<Int>?
    /// The cite's pages as written, for the messages.
    package var pagesText: String
    /// Whether the cite could be read as a page at all.
    package var readable: Bool
    package var result: Result
    /// The source the quote was checked in, for the message (the cite's own, or the one it was found in).
    package var sourceName: String?

    /// The cite as the answer wrote it: `(p. 3)`, `(pp. 2-3)` or `(book.pdf p. 3)`.
    package var cite: String {
        guard readable else { return "(\(pagesText))" }
        let pageWord = pages.map { $0.count > 1 ? "pp." : "p." } ?? "p."
        return "(\(file.map { "\($0) " } ?? "")\(pageWord) \(pagesText))"
    }

    /// The quote cut for one line.
    package var shortQuote: String {
        let words = quote.split(whereSeparator: \.isWhitespace)
        return words.count > 12 ? words.prefix(12).joined(separator: " ") + " …" : words.joined(separator: " ")
    }

    /// One sentence for `/check`, the footer's lines and the repair request.
    package var sentence: String {
        let cited = readable ? (pages?.count ?? 1) > 1 ? "pages \(pagesText)" : "page \(pagesText)" : "“\(pagesText)”"
        switch result {
        case .verified:
            return "“\(shortQuote)” \(cite) is verified on \(cited)\(sourceName.map { " of \($0)" } ?? "")."
        case .wrongPage(let found):
            return "The quotation “\(shortQuote)” \(cite) is on page \(found), not \(cited): cite it as (\(file.map { "\($0) " } ?? "")p. \(found))."
        case .notInSource:
            return
                "The quotation “\(shortQuote)” \(cite) is not in the source: quote the source word for word, or drop the quotation marks and the page."
        case .unnamedSource(let source, let page):
            return
                "The quotation “\(shortQuote)” \(cite) does not name which source it quotes: it is in \(source) on page \(page), so cite it as (\(source) p. \(page))."
        case .tooLittleAroundEllipsis:
            return
                "The quotation “\(shortQuote)” \(cite) leaves too few words around an ellipsis to be checked: quote at least \(QuoteText.fewestWordsPerPart) words on each side of it."
        }
    }
}

/// Every quotation of an answer checked against the sources.
package struct QuoteReport: Equatable, Sendable {
    package var verdicts: [QuoteVerdict]

    package init(verdicts: [QuoteVerdict]) { self.verdicts = verdicts }

    package var verified: Int { verdicts.count { $0.result == .verified } }
    package var wrongPage: Int { verdicts.count { if case .wrongPage = $0.result { true } else { false } } }
    package var notInSource: Int { verdicts.count { $0.result == .notInSource } }
    /// Quotations whose cite names no source while there are several.
    package var unnamedSource: Int { verdicts.count { if case .unnamedSource = $0.result { true } else { false } } }
    /// Quotations that are not verified.
    package var problems: [QuoteVerdict] { verdicts.filter { $0.result != .verified } }

    /// The footer's part: `✓ 3 quotes verified`, `✗ 1 quote not in the source, 1 on the wrong page · 1 verified`;
    /// nil when the answer quotes nothing.
    package var footer: String? {
        guard !verdicts.isEmpty else { return nil }
        func quotes(_ n: Int) -> String { n == 1 ? "1 quote" : "\(n) quotes" }
        if problems.isEmpty { return "✓ \(quotes(verified)) verified" }
        let unchecked = problems.count - notInSource - wrongPage - unnamedSource
        var parts: [String] = []
        if notInSource > 0 { parts.append("\(quotes(notInSource)) not in the source") }
        if wrongPage > 0 { parts.append("\(quotes(wrongPage)) on the wrong page") }
        if unnamedSource > 0 { parts.append("\(quotes(unnamedSource)) naming no source") }
        if unchecked > 0 { parts.append("\(quotes(unchecked)) not checkable") }
        if verified > 0 { parts.append("\(verified) verified") }
        return "✗ " + parts.joined(separator: ", ")
    }
}

/// Checks each quotation of an answer (as ``QuoteFinder`` finds them) against the sources' pages by code.
///
/// Both sides are normalised as ``QuoteText`` does; a hyphen at the end of a source line is tried both joined
/// ("photo-\nsynthesis" → "photosynthesis") and kept ("well-\nknown" → "well-known"). Words match whole:
/// "legal to swim" is not in "illegal to swim". An ellipsis splits a quote into parts that must all be there,
/// in order, close together. A quotation cited to one page must start on it (it may run onto the next);
/// cited to pages, it must lie within them. With several sources the cite must name the file it quotes.
package enum QuoteChecker {
    /// Fewer words than this in quotation marks is a term or a title, not a quotation.
    package static let fewestWords = QuoteFinder.fewestWords

    /// The quotations of `text`, as written, with their cites.
    package static func quotations(in text: String) -> [CitedQuotation] { QuoteFinder.quotations(in: text) }

    /// Checks every quotation of `text` against `sources`; empty when there are no sources.
    package static func check(_ text: String, against sources: [SourceDocument]) -> QuoteReport {
        guard !sources.isEmpty else { return QuoteReport(verdicts: []) }
        let quotations = QuoteFinder.quotations(in: text)
        guard !quotations.isEmpty else { return QuoteReport(verdicts: []) }
        let readings = sources.map(QuotedSource.init)
        return QuoteReport(verdicts: quotations.map { verdict(for: $0, in: readings) })
    }

    /// What the check finds for one quotation.
    static func verdict(for quotation: CitedQuotation, in sources: [QuotedSource]) -> QuoteVerdict {
        var verdict = QuoteVerdict(
            quote: quotation.quote, file: quotation.file, pages: quotation.pages, pagesText: quotation.pagesText,
            readable: quotation.readable, result: .notInSource, sourceName: nil)
        let parts = QuoteText.parts(of: quotation.quote)
        if parts.count > 1, parts.contains(where: { QuoteText.words(in: $0) < QuoteText.fewestWordsPerPart }) {
            verdict.result = .tooLittleAroundEllipsis
            return verdict
        }
        let named = quotation.file.flatMap { sourceIndex(named: $0, in: sources.map(\.name)) }
        // One source is the one quoted, whatever the cite calls it; of several, the cite must say which.
        let decided = named ?? (sources.count == 1 ? 0 : nil)
        var firstFound: (source: Int, page: Int)?
        for index in decided.map({ [$0] }) ?? Array(sources.indices) {
            let spans = sources[index].spans(of: parts)
            if decided != nil, let pages = quotation.pages, spans.contains(where: { accepts($0, for: pages) }) {
                verdict.result = .verified
                verdict.sourceName = sources[index].name
                return verdict
            }
            if firstFound == nil, let span = spans.first { firstFound = (index, span.first) }
        }
        if let (index, page) = firstFound {
            verdict.sourceName = sources[index].name
            verdict.result = decided == nil ? .unnamedSource(source: sources[index].name, page: page) : .wrongPage(found: page)
        }
        return verdict
    }

    /// Whether a quotation standing from page `span.first` to `span.last` is what `pages` cites: one page cited, it
    /// starts there (running onto the next at most); pages cited, it lies within them.
    static func accepts(_ span: (first: Int, last: Int), for pages: ClosedRange<Int>) -> Bool {
        if pages.count == 1 { return span.first == pages.lowerBound && span.last <= pages.lowerBound + 1 }
        return pages.contains(span.first) && pages.contains(span.last)
    }

    /// Whether `quote` is in `text` word for word, both normalised as quotations against a source are
    /// (canonical forms, curly quotes, case, whitespace and line breaks; whole words only; an ellipsis splits the
    /// quote into parts found in order, close together), with Markdown's emphasis marks (`*`, `` ` ``) dropped from
    /// both, since a plan writes `**Objective:**` where a quotation of it says `Objective:`.
    package static func isQuoted(_ quote: String, in text: String) -> Bool {
        func plain(_ text: String) -> String { text.filter { $0 != "*" && $0 != "`" } }
        let parts = QuoteText.parts(of: plain(quote))
        guard !parts.isEmpty else { return false }
        if parts.count > 1, parts.contains(where: { QuoteText.words(in: $0) < QuoteText.fewestWordsPerPart }) { return false }
        let page = plain(text)
        return ["", "-"].contains { hyphen in
            !QuoteText(page.replacing(/-[ \t]*\n[ \t]*/, with: hyphen)).matches(of: parts, limit: 1).isEmpty
        }
    }

    /// The source a cite's file name means: the exact name, or the name without its extension, ignoring case.
    static func sourceIndex(named file: String, in names: [String]) -> Int? {
        let wanted = file.lowercased()
        return names.firstIndex { $0.lowercased() == wanted }
            ?? names.firstIndex { ($0 as NSString).deletingPathExtension.lowercased() == wanted }
    }
}

/// A source read for quotations: its pages normalised and joined, two ways (line-end hyphens joined, and kept),
/// with where each page starts.
struct QuotedSource: Sendable {
    let name: String
    let readings: [(text: QuoteText, starts: [Int])]

    init(_ source: SourceDocument) {
        name = source.name
        readings = ["", "-"].map { hyphen in
            var scalars: [Unicode.Scalar] = []
            var starts: [Int] = []
            for page in source.pages {
                let text = QuoteText(page.replacing(/-[ \t]*\n[ \t]*/, with: hyphen)).scalars
                if !scalars.isEmpty, !text.isEmpty { scalars.append(" ") }
                starts.append(scalars.count)
                scalars += text
            }
            return (QuoteText(scalars: scalars), starts)
        }
    }

    /// The pages (from 1) each place the parts stand in starts and ends on.
    func spans(of parts: [[Unicode.Scalar]]) -> [(first: Int, last: Int)] {
        readings.flatMap { reading in
            reading.text.matches(of: parts).map {
                (Self.page(of: $0.lowerBound, starts: reading.starts), Self.page(of: $0.upperBound - 1, starts: reading.starts))
            }
        }
    }

    /// The page (from 1) the scalar at `offset` is on: the last whose start is at or before it.
    static func page(of offset: Int, starts: [Int]) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return max(low, 1)
    }
}
