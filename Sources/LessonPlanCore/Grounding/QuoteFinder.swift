import Foundation

/// A quotation as an answer wrote it, with what its cite says.
package struct CitedQuotation: Equatable, Sendable {
    /// The quoted words, without their quotation marks.
    package var quote: String
    /// The file the cite names, when it names one.
    package var file: String?
    /// The pages as the cite writes them ("2", "2-3"), for the messages.
    package var pagesText: String
    /// The pages cited; nil when the cite names none the check can use (past any integer, page 0, a range
    /// that runs backwards or over more than ``QuoteFinder/widestRange`` pages, a cite it cannot read).
    package var pages: ClosedRange<Int>?
    /// Whether the cite could be read as a page at all.
    package var readable: Bool
}

/// Finds quotations in an answer: words in quotation marks of any of the usual kinds ("…", “…”, „…“, «…»,
/// »…«, '…', ‘…’), 2 words or more, straight after a cite in parentheses that names a page: `(p. 3)`,
/// `(page 3)`, `(pp. 2-3)`, `(book.pdf p. 3)`, `(book.pdf, p. 3)`.
///
/// The search runs from each cite back to the opening mark that matches the closing one, never past the
/// previous quotation, so a quotation of many lines is found as a whole. A closing mark and a parenthesis that
/// speaks of a page but cannot be read as one still make a quotation, with an unreadable cite: a verdict, not
/// silence.
package enum QuoteFinder {
    /// Fewer words than this in quotation marks is a term or a title, not a quotation.
    package static let fewestWords = 2
    /// A cite of more pages than this (`pp. 1-400`) would verify anything; it is not accepted.
    package static let widestRange = 3
    /// The longest quotation looked for, in characters; a quotation mark further back is another's.
    static let longestQuote = 6000

    nonisolated(unsafe) private static let closerAndCite = /(["”“»«'’‘])[ \t]*\(([^()\n]{1,160})\)/
    nonisolated(unsafe) private static let cite =
        /^\s*(?:(.*?)[\s,;:]+)?(?:pp?|pg|pages?)\.?\s*(\d+)(?:\s*[-–—‐]\s*(\d+))?\s*$/.ignoresCase()
    nonisolated(unsafe) private static let speaksOfAPage = /(?:^|[\s,;(])(?:pp?|pg|pages?)(?:\.|\s|\d|$)/.ignoresCase()

    /// The quotations of `text`, in order.
    package static func quotations(in text: String) -> [CitedQuotation] {
        var found: [CitedQuotation] = []
        var floor = text.startIndex
        for match in text.matches(of: closerAndCite) {
            guard match.range.lowerBound >= floor, let closer = match.output.1.first,
                let citation = citation(String(match.output.2)),
                let open = opening(for: closer, before: match.output.1.startIndex, in: text, floor: floor)
            else { continue }
            floor = match.range.upperBound
            let quote = String(text[text.index(after: open)..<match.output.1.startIndex])
            let words = quote.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
            guard words.count >= fewestWords, !quote.contains("\n\n") else { continue }
            var quotation = citation
            quotation.quote = quote
            found.append(quotation)
        }
        return found
    }

    /// What a parenthesis after a closing mark cites; nil when it says nothing of a page (`(see above)`).
    static func citation(_ inner: String) -> CitedQuotation? {
        guard let parsed = inner.wholeMatch(of: cite) else {
            guard inner.contains(speaksOfAPage) else { return nil }
            return CitedQuotation(quote: "", file: nil, pagesText: inner, pages: nil, readable: false)
        }
        var file = parsed.output.1.map { String($0).trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) }
        if file?.isEmpty == true { file = nil }
        let firstText = String(parsed.output.2)
        let lastText = parsed.output.3.map(String.init)
        var pages: ClosedRange<Int>?
        if let first = Int(firstText), first >= 1 {
            let last = lastText.flatMap { Int($0) } ?? (lastText == nil ? first : nil)
            if let last, last >= first, last - first < widestRange { pages = first...last }
        }
        let pagesText = lastText.map { "\(firstText)-\($0)" } ?? firstText
        return CitedQuotation(quote: "", file: file, pagesText: pagesText, pages: pages, readable: true)
    }

    /// Where the quotation closed by `closer` at `end` opens: the nearest opening mark of its kind before it,
    /// no further back than `floor` or ``longestQuote`` characters. A single quotation mark opens only at the
    /// start of a word, so an apostrophe ("moon's", "students'") never does.
    static func opening(for closer: Character, before end: String.Index, in text: String, floor: String.Index) -> String.Index? {
        let marks: Set<Character>
        var single = false
        switch closer {
        case "\"": marks = ["\""]
        case "”": marks = ["“", "„", "”"]
        case "“": marks = ["„"]
        case "»": marks = ["«", "»"]
        case "«": marks = ["»"]
        case "'":
            marks = ["'"]
            single = true
        case "’":
            marks = ["‘", "'"]
            single = true
        case "‘":
            marks = ["‚"]
            single = true
        default: return nil
        }
        if single, end > text.startIndex, text[text.index(before: end)].isWhitespace { return nil }
        let lowest = text.index(end, offsetBy: -longestQuote, limitedBy: floor) ?? floor
        var index = end
        while index > lowest {
            index = text.index(before: index)
            guard marks.contains(text[index]) else { continue }
            guard single else { return index }
            let before = index > text.startIndex ? text[text.index(before: index)] : " "
            let after = text.index(after: index) < end ? text[text.index(after: index)] : " "
            if !before.isLetter, !before.isNumber, !after.isWhitespace { return index }
        }
        return nil
    }
}
