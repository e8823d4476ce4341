import Foundation

/// The pages of the sources that go with one request, with each page marked, cut to a budget.
///
/// A source within the budget goes whole. A longer one (a 300-page book) is cut to the pages that share the
/// most words with the topic and the request (words of 4 letters or more, each counted once per page), best
/// first until the budget is spent, then sent in page order; the footer names what went.
package struct SourceSelection: Equatable, Sendable {
    /// The most source text one request carries: 24,000 characters, about 6,000 tokens, a fifth of a small
    /// model's context, leaving room for the plan.
    package static let budget = 24_000

    /// Per source (in order), the pages sent, page 1 = 1.
    package var pages: [[Int]]
    /// The text block with each page marked `[NAME p. N]`.
    package var text: String
    /// One line per source that was cut: `book.pdf: sent p. 3–5, 12 of 300`; empty when everything went.
    package var cuts: [String]

    package init(sources: [SourceDocument], query: String, budget: Int = SourceSelection.budget) {
        let wanted = Self.words(query)
        var chosen: [[Int]] = sources.map { _ in [] }
        let total = sources.reduce(0) { $0 + $1.pages.reduce(0) { $0 + $1.count } }
        if total <= budget {
            chosen = sources.map { $0.pages.isEmpty ? [] : Array(1...$0.pages.count) }
        } else {
            var scored: [(source: Int, page: Int, score: Int)] = []
            for (s, source) in sources.enumerated() {
                for (p, page) in source.pages.enumerated() {
                    scored.append((s, p + 1, Self.words(page).intersection(wanted).count))
                }
            }
            // Best score first; on a tie the earlier page (introductions tend to matter).
            scored.sort { ($0.score, -$0.source, -$0.page) > ($1.score, -$1.source, -$1.page) }
            var spent = 0
            for item in scored {
                let size = sources[item.source].pages[item.page - 1].count
                guard spent + size <= budget else { continue }
                spent += size
                chosen[item.source].append(item.page)
            }
            chosen = chosen.map { $0.sorted() }
        }
        pages = chosen
        var blocks: [String] = []
        var cuts: [String] = []
        for (s, source) in sources.enumerated() {
            for page in chosen[s] {
                let body = source.pages[page - 1].trimmingCharacters(in: .whitespacesAndNewlines)
                blocks.append("[\(source.name) p. \(page)]\n\(body)")
            }
            if chosen[s].count < source.pages.count {
                let sent = chosen[s].isEmpty ? "no pages" : "p. " + Self.ranges(chosen[s])
                cuts.append("\(source.name): sent \(sent) of \(source.pages.count), the pages nearest the topic")
            }
        }
        text = blocks.joined(separator: "\n\n")
        self.cuts = cuts
    }

    /// Words of four letters or more, lowercased.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 4 }.map(String.init))
    }

    /// `1–3, 7, 9–10`.
    static func ranges(_ pages: [Int]) -> String {
        var parts: [String] = []
        var start: Int?
        var previous: Int?
        for page in pages + [Int.min] {
            if let p = previous, page == p + 1 {
                previous = page
                continue
            }
            if let s = start, let p = previous { parts.append(s == p ? "\(s)" : "\(s)–\(p)") }
            start = page
            previous = page
        }
        return parts.joined(separator: ", ")
    }
}
