import Foundation

/// Parallel forms of a quiz for the next row of desks (`/quiz forms 2`): the same items in another order, each
/// item's options in another order, made by a seeded shuffle (no model call), so the seed alone makes them again.
package enum QuizForms {
    /// The most forms a quiz may have.
    package static let most = 4

    /// `count` forms of `quiz`, lettered A, B …: form A is the quiz as written, the others shuffled from `seed`.
    package static func make(_ quiz: Quiz, count: Int, seed: UInt64) -> [Quiz] {
        var generator = SplitMix64(seed: seed)
        var forms: [Quiz] = []
        for index in 0..<max(1, min(count, most)) {
            var form = quiz
            form.form = String(UnicodeScalar(UInt8(65 + index)))
            if index > 0 {
                form.items = generator.shuffle(quiz.items).map { shuffled($0, using: &generator) }
            }
            forms.append(form)
        }
        return forms
    }

    /// An item with its options in another order, lettered again, its key and each option's notes moving with them.
    static func shuffled(_ item: QuizItem, using generator: inout SplitMix64) -> QuizItem {
        let options = generator.shuffle(item.options)
        let newLetter = Dictionary(
            uniqueKeysWithValues: options.enumerated().map { ($0.element.letter, String(UnicodeScalar(UInt8(65 + $0.offset)))) })
        var relettered: [QuizOption] = []
        var answers: [String] = []
        for option in options {
            var moved = option
            moved.letter = newLetter[option.letter] ?? option.letter
            // A note that names a letter ("a student who picks C …") names the option's letter on this form.
            moved.misconception = relettering(option.misconception, newLetter)
            moved.feedback = relettering(option.feedback, newLetter)
            if item.answerLetters.contains(option.letter) { answers.append(moved.letter) }
            relettered.append(moved)
        }
        var shuffled = item
        shuffled.options = relettered
        shuffled.answerLetters = answers
        return shuffled
    }

    /// A letter named as an option (`picks C`, `option B`, `answer (A)`) in `text`, written as this form letters it.
    static func relettering(_ text: String, _ newLetter: [String: String]) -> String {
        text.replacing(optionNamed.regex) { match in
            let letter = String(match.output.2)
            // `the answer A bigger piece …`: after "answer", an A before a word in lower case is the article.
            let next = text[match.range.upperBound...].drop { $0 == " " }.prefix { $0.isLetter }
            if letter == "A", match.output.3.isEmpty, match.output.1.lowercased().hasPrefix("answer"), let first = next.first, first.isLowercase,
                !["is", "was", "instead", "because", "again", "or", "and", "then"].contains(String(next))
            {
                return String(match.output.0)
            }
            return match.output.1 + (newLetter[letter] ?? letter) + match.output.3
        }
    }

    /// `picks C`, `chose (B)`, `option A`: a word that names an option, then its letter standing alone.
    private static let optionNamed = SharedRegex(
        /(\b(?i:picks?|picked|chose|chooses|choosing|option|answer|letter|choice)\s+\(?)([A-F])(\)?)(?![\p{L}\p{N}])/)

    /// Checked by code: every form has every item of the quiz once, and each item's key is the same answer text as
    /// the quiz's. One sentence per problem; none when the forms are sound.
    package static func problems(_ forms: [Quiz], of quiz: Quiz) -> [String] {
        var problems: [String] = []
        let keys = Dictionary(quiz.items.map { ($0.stem, $0.key?.text) }, uniquingKeysWith: { first, _ in first })
        for form in forms {
            let name = "Form \(form.form ?? "?")"
            if form.items.map(\.stem).sorted() != quiz.items.map(\.stem).sorted() {
                problems.append("\(name) does not hold every item of the quiz once")
            }
            for (index, item) in form.items.enumerated() where item.key?.text != keys[item.stem] ?? nil {
                problems.append("\(name), item \(index + 1): its key is not the quiz's answer “\(keys[item.stem].flatMap { $0 } ?? "?")”")
            }
        }
        return problems
    }
}

/// SplitMix64: a small generator whose sequence a seed fixes on every machine, so forms are made again the same.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `elements` in an order this generator fixes: Fisher–Yates written here, not the standard library's shuffle,
    /// whose way of drawing may change between Swift versions and so change the forms a saved seed makes.
    package mutating func shuffle<Element>(_ elements: [Element]) -> [Element] {
        var shuffled = elements
        var index = shuffled.count
        while index > 1 {
            let other = Int(next() % UInt64(index))
            index -= 1
            shuffled.swapAt(index, other)
        }
        return shuffled
    }
}
