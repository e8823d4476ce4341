import Foundation

/// Text a quotation is looked for in, and the search itself: words matched whole, never a part of a word.
///
/// Both sides are normalised the same way: canonical Unicode composition (never compatibility folding, so
/// "10²" stays apart from "102"), case, every quotation mark to a straight one, the ligatures a PDF's text
/// layer writes (ﬁ, ﬂ …) spelled out, soft hyphens dropped and every run of whitespace one space.
struct QuoteText: Sendable {
    /// The normalised text, one Unicode scalar each.
    let scalars: [Unicode.Scalar]

    /// At most this many characters may be left out at one ellipsis: an ellipsis shortens a sentence, it
    /// does not join words from far apart.
    static let longestGap = 400
    /// With an ellipsis, each part needs this many words, so that "a ... e ... i" cannot be found anywhere.
    static let fewestWordsPerPart = 2

    init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    init(_ text: String) {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.unicodeScalars.count)
        var pendingSpace = false
        for scalar in text.lowercased().precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(contentsOf: Self.spelled(scalar))
        }
        scalars = out
    }

    /// A scalar as both sides spell it: quotation marks straight, ligatures spelled out, a soft hyphen gone.
    private static func spelled(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        switch scalar {
        case "“", "”", "„", "‟", "«", "»", "‹", "›", "〝", "〞", "＂": ["\""]
        case "‘", "’", "‚", "‛", "′": ["'"]
        case "\u{00AD}": []
        case "ﬀ": ["f", "f"]
        case "ﬁ": ["f", "i"]
        case "ﬂ": ["f", "l"]
        case "ﬃ": ["f", "f", "i"]
        case "ﬄ": ["f", "f", "l"]
        case "ﬅ", "ﬆ": ["s", "t"]
        default: [scalar]
        }
    }

    /// Whether a scalar is part of a word (a letter, a digit or a mark on one), so a match may not end beside it.
    static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    /// Where `part` stands in the text as whole words, from `start` on, starting no later than `latest`.
    func occurrences(of part: [Unicode.Scalar], from start: Int, startingBy latest: Int) -> [Range<Int>] {
        guard let first = part.first, let last = part.last else { return [] }
        let wordStart = Self.isWordPart(first)
        let wordEnd = Self.isWordPart(last)
        var found: [Range<Int>] = []
        var index = start
        let end = min(latest, scalars.count - part.count)
        while index <= end {
            defer { index += 1 }
            guard scalars[index] == first else { continue }
            if wordStart, index > 0, Self.isWordPart(scalars[index - 1]) { continue }
            let after = index + part.count
            if wordEnd, after < scalars.count, Self.isWordPart(scalars[after]) { continue }
            if scalars[index..<after].elementsEqual(part) { found.append(index..<after) }
        }
        return found
    }

    /// Every place the parts stand in order, each after the last with at most ``longestGap`` characters
    /// between them, as the range from the first part's start to the last part's end (at most `limit` of them).
    func matches(of parts: [[Unicode.Scalar]], limit: Int = 64) -> [Range<Int>] {
        guard let head = parts.first else { return [] }
        var found: [Range<Int>] = []
        for first in occurrences(of: head, from: 0, startingBy: scalars.count) {
            if let end = end(of: parts.dropFirst(), after: first.upperBound) {
                found.append(first.lowerBound..<end)
                if found.count >= limit { break }
            }
        }
        return found
    }

    /// Where the rest of the parts end, found in order after `position`; nil when they are not there.
    private func end(of parts: ArraySlice<[Unicode.Scalar]>, after position: Int) -> Int? {
        guard let part = parts.first else { return position }
        for next in occurrences(of: part, from: position, startingBy: position + Self.longestGap + 1) {
            if let end = end(of: parts.dropFirst(), after: next.upperBound) { return end }
        }
        return nil
    }

    /// A quotation's parts between ellipses, normalised, without punctuation at either end; empty parts dropped.
    static func parts(of quote: String) -> [[Unicode.Scalar]] {
        let trim = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ".,;:!?'\"[]()“”‘’«»„‚"))
        return quote.replacing("…", with: "...")
            .components(separatedBy: "...")
            .map { $0.replacing(/-[ \t]*\n[ \t]*/, with: "-").trimmingCharacters(in: trim) }
            .filter { !$0.isEmpty }
            .map { QuoteText($0).scalars }
    }

    /// The number of words in a normalised part (runs holding a letter or a digit).
    static func words(in part: [Unicode.Scalar]) -> Int {
        part.split(separator: " ").count { $0.contains(where: isWordPart) }
    }
}
