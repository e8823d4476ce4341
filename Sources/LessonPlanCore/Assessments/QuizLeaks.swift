import Foundation

/// Finds an answer given away where students read it: a question that names the answer letter, or a wrong
/// answer's feedback that names the key's letter or says what the answer is.
///
/// Only an upper-case option letter next to words that mark it as the answer counts (`answer: B`, `Hint: it's C`,
/// `pick C`), so `vitamin C`, `point A` or `a fraction` are left alone, and so is `A` read as the article
/// (`Hint: it's A lot like …`, `answer: A bigger piece …`).
enum QuizLeaks {
    /// `the answer is B`, `the correct answer was (C)`, `answer is option D`.
    private static let answerIs = SharedRegex(
        /(?i:\b(?:(?:correct|right)\s+)?answer\s+(?:is|was)\s+)(?i:(?:option|letter|choice)\s+)?\(?([A-F])\)?(?![\p{L}\p{N}])/)
    /// `answer: B`, `(answer – C)`, `key = A`, `correct: B`.
    private static let answerLabel = SharedRegex(
        /(?i:\b(?:(?:correct|right)\s+)?answer\s*[:=\-–—]\s*|\b(?:key|correct)\s*[:=]\s*)(?i:(?:option|letter|choice)\s+)?\(?([A-F])\)?(?![\p{L}\p{N}])/
    )
    /// `Hint: it's C`, `hint – try option B`, `(hint: pick A)`.
    private static let hinted = SharedRegex(
        /(?i:\bhint\b)[^.?!\n]{0,40}?(?i:\b(?:it'?s|it’s|it\s+is|pick|choose|select|try|go\s+with)\s+)(?i:(?:option|letter|choice)\s+)?\(?([A-F])\)?(?![\p{L}\p{N}])/
    )
    /// `(C is correct)`, `(B is the answer)`.
    private static let markedCorrect = SharedRegex(/\(\s*([A-F])\)?\s+(?i:is\s+(?:the\s+)?(?:correct|right|answer|key))/)
    /// A letter named as a choice: `option C`, `pick C`, `choose (C)`.
    private static let letterChosen = SharedRegex(
        /(?i:\b(?:option|answer|choice|letter|pick|picks|picked|choose|select|try)\s+)\(?([A-F])\)?(?![\p{L}\p{N}])/)
    /// A letter written as an option is lettered: `(C)`, ` C)` or `C)` at the start.
    private static let letterMarked = SharedRegex(/(?:\(([A-F])\)|(?:^|\s)([A-F])\))(?![\p{L}\p{N}])/)
    /// `The correct answer is …`, `the right answer was …`: whatever follows, the answer is told.
    private static let answerTold = SharedRegex(/(?i:\b(?:correct|right)\s+(?:answer|option|choice)\s+(?:is|was)\b)/)
    /// Words after `A` that still make it a letter, not the article (`try A instead`, `answer: A or B`).
    private static let letterFollowers: Set<String> = ["is", "was", "instead", "because", "again", "next", "or", "and", "then"]

    /// The option letter a question gives away as the answer or a hint, or nil.
    /// - Parameter letters: the item's option letters; a letter that is no option is not one given away.
    static func letterGivenAway(inStem stem: String, letters: [String]) -> String? {
        let found =
            named(answerIs, in: stem, article: false) + named(answerLabel, in: stem) + named(hinted, in: stem)
            + stem.matches(of: markedCorrect.regex).map { String($0.1) }
        return found.first(where: letters.contains)
    }

    /// Whether feedback for a wrong answer gives the answer away: it names `key` as the answer or as a choice, or
    /// says what the correct answer is. Its own letter may be named (`Your answer is B, …`).
    static func givesAwayAnswer(_ feedback: String, key: String) -> Bool {
        if feedback.contains(answerTold.regex) { return true }
        let marked = feedback.matches(of: letterMarked.regex).compactMap { ($0.1 ?? $0.2).map(String.init) }
        let letters =
            named(answerIs, in: feedback, article: false) + named(answerLabel, in: feedback)
            + named(letterChosen, in: feedback) + marked
        return letters.contains(key)
    }

    /// The letters `pattern` captures in `text`; with `article`, an `A` followed by a lower-case word (other than
    /// ``letterFollowers``) is read as the article and left out.
    private static func named(_ pattern: SharedRegex<(Substring, Substring)>, in text: String, article: Bool = true) -> [String] {
        text.matches(of: pattern.regex).compactMap { match in
            let letter = String(match.1)
            guard article, letter == "A" else { return letter }
            let rest = text[match.range.upperBound...]
            let spaces = rest.prefix { $0 == " " || $0 == "\t" }
            let word = rest.dropFirst(spaces.count).prefix { $0.isLetter }
            guard !spaces.isEmpty, let first = word.first, first.isLowercase, !letterFollowers.contains(String(word)) else { return letter }
            return nil
        }
    }
}
