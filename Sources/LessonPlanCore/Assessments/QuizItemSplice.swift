import Foundation

/// One quiz item written again (`/quiz item N`): the model's answer for that item put in its place, every other
/// line of the quiz kept byte for byte.
///
/// An item runs from its numbered line (`2. …`, `2) …`) to the line before the next item's number, or the end; the
/// quiz's `Quiz:` line and `Misconceptions:` list before item 1 are not part of any item.
package struct QuizItemSplice: Equatable, Sendable {
    /// The quiz text the item is replaced in, as it was sent.
    package let quiz: String
    /// The item's number, from 1.
    package let item: Int

    package init(quiz: String, item: Int) {
        self.quiz = quiz
        self.item = item
    }

    /// Why an answer could not be put in, one sentence each.
    package enum Failure: Error, Equatable, Sendable {
        case noItem(Int)
        case noAnswer(Int)
        case unchanged(Int)

        package var sentence: String {
            switch self {
            case .noItem(let number): "The quiz has no item \(number); the quiz is unchanged."
            case .noAnswer(let number):
                "The answer held no item to put in as item \(number); the quiz is unchanged. Try again, or say more of what to change."
            case .unchanged(let number): "The answer's item \(number) is the one the quiz has already, so no new quiz was made."
            }
        }
    }

    /// The quiz with item ``item`` replaced by the first item the answer writes, numbered as the old one.
    /// - Throws: ``Failure`` when the quiz lacks the item, the answer holds none, or nothing would change.
    package func splice(_ answer: String) throws(Failure) -> String {
        let lines = SectionSplice.linesKeepingEnds(quiz)
        let plain = lines.map { $0.trimmingCharacters(in: .newlines) }
        guard let range = Self.itemRange(item, in: plain) else { throw .noItem(item) }
        let answerLines = PlanDocument.lines(of: answer)
        guard let first = answerLines.firstIndex(where: { Self.number(of: $0) != nil }) else { throw .noAnswer(item) }
        let next = answerLines[(first + 1)...].firstIndex { Self.number(of: $0) != nil } ?? answerLines.count
        var written = PlanDocument.trimmedBlankEdges(Array(answerLines[first..<next]))
        guard let opening = written.first, let stem = Self.opening(of: opening)?.stem, !stem.isEmpty else { throw .noAnswer(item) }
        written[0] = "\(item). \(stem)"
        let ending = lines[range.lowerBound].hasSuffix("\r\n") ? "\r\n" : "\n"
        let trailingBlanks = plain[range].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).isEmpty }.count
        var middle = written.map { $0 + ending }
        if trailingBlanks > 0 {
            middle += Array(lines[(range.upperBound - trailingBlanks)..<range.upperBound])
        } else if range.upperBound == lines.count, let last = lines.last, !last.hasSuffix("\n"), !middle.isEmpty {
            middle[middle.count - 1].removeLast(ending.count)
        }
        let result = (lines[..<range.lowerBound] + middle + lines[range.upperBound...]).joined()
        guard result != quiz else { throw .unchanged(item) }
        return result
    }

    /// The lines of item `number`: from its numbered line to the next item's, or the end.
    static func itemRange(_ number: Int, in lines: [String]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { Self.number(of: $0) == number }) else { return nil }
        let end = lines[(start + 1)...].firstIndex { Self.number(of: $0) != nil } ?? lines.count
        return start..<end
    }

    /// The number an item's first line opens with (`2. …`, `2) …`, `**2.** …`), or nil.
    static func number(of line: String) -> Int? { opening(of: line)?.number }

    /// An item's first line read as its number and its stem, or nil for a line that opens no item.
    static func opening(of line: String) -> (number: Int, stem: String)? {
        let text = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "**", with: "")
        let digits = text.prefix { $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, let number = Int(digits) else { return nil }
        let rest = text.dropFirst(digits.count)
        guard let mark = rest.first, mark == "." || mark == ")", rest.dropFirst().first == " " else { return nil }
        return (number, rest.dropFirst().trimmingCharacters(in: .whitespaces))
    }
}
