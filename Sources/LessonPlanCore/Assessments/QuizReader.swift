import Foundation

/// Reads a quiz from the model's answer in the layout `prompts/quiz.txt` asks for, forgiving the usual drift.
///
/// The layout, one item after another:
///
///     Quiz: exit
///     Misconceptions:
///     - Plants take their food from the soil.
///
///     1. Where does most of a plant's mass come from?
///     A) The soil
///     B) Carbon dioxide from the air
///     C) Water taken up by the roots
///     Answer: B
///     Misconception A: Plants take their food from the soil.
///     Feedback A: Think about what a seed takes in as it grows into a tree.
///     Misconception C: Water is what plants eat.
///     Feedback C: Water matters, but most of it leaves through the leaves; what else goes in?
///
/// A quiz written before feedback was asked for has no `Feedback` lines and reads as before, its options with no
/// feedback. Forgiven: markdown (`#`, `**`, bullets in front of options), lower-case letters, `A.` `(A)` or `A:` for
/// an option, `Correct answer:` or `Key:` for the answer, `Why A:` for a misconception, `Student feedback A:` or
/// `Feedback for A:` for feedback, an answer given as
/// `B) Carbon dioxide` or as the option's text, a key marked `(correct)` after its option, and a stem that
/// runs over several lines. Nothing is thrown: what is missing or doubled stays visible for ``QuizCheck``.
package enum QuizReader {
    private static let itemLine = SharedRegex(/^(?:\(?(\d{1,2})[.):]|(?i:q|question)\s*(\d{1,2})\s*[.):\-–—]?)\s+(.+)$/)
    private static let optionLine = SharedRegex(/^\(?([A-Fa-f])[.):]\s+(.+)$/)
    private static let answerLine = SharedRegex(/^(?i)(?:the\s+)?(?:correct\s+)?(?:answer|key)s?(?:\s+key)?\s*[:\-–—]\s*(.+)$/)
    private static let misconceptionLine = SharedRegex(
        /^(?i)(?:misconception|why(?:\s+not)?)\s*(?:for\s+)?\(?([A-F])\)?\s*[:\-–—]\s*(.+)$/)
    private static let feedbackLine = SharedRegex(
        /^(?i)(?:student\s+)?feedback\s*(?:for\s+|to\s+)?\(?([A-F])\)?\s*[:\-–—]\s*(.+)$/)
    /// How a prompt asks for the feedback lines: `Feedback A:` or `Feedback <letter>:` in the layout it shows.
    private static let feedbackAsk = SharedRegex(/Feedback (?:[A-F]|<letter>):/)
    private static let correctMark = SharedRegex(/(?i)\s*(?:\((?:correct|key|answer)\)|✓|✔|\*)\s*$/)

    /// Reads `text`; `kind` is what was asked for, kept unless the answer states its own.
    package static func read(_ text: String, kind: Quiz.Kind) -> Quiz {
        var quiz = Quiz(kind: kind, items: [])
        var inMisconceptions = false
        var current: QuizItem?
        var stemOpen = false

        func finish() {
            if let item = current { quiz.items.append(item) }
            current = nil
        }

        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = plain(String(raw))
            if line.isEmpty {
                inMisconceptions = false
                stemOpen = false
                continue
            }
            if current == nil, quiz.items.isEmpty, let stated = statedKind(line) {
                quiz.kind = stated
                continue
            }
            if isMisconceptionHeading(line) {
                finish()
                inMisconceptions = true
                continue
            }
            if inMisconceptions, current == nil, let bullet = bulletText(line) {
                quiz.misconceptions.append(bullet)
                continue
            }
            let unbulleted = bulletText(line) ?? line
            if let match = unbulleted.wholeMatch(of: itemLine.regex) {
                finish()
                inMisconceptions = false
                current = QuizItem(stem: String(match.3).trimmingCharacters(in: .whitespaces), options: [], answerLetters: [])
                stemOpen = true
                continue
            }
            guard var item = current else { continue }
            defer { current = item }
            if let match = unbulleted.wholeMatch(of: answerLine.regex) {
                stemOpen = false
                for letter in letters(in: String(match.1), options: item.options) where !item.answerLetters.contains(letter) {
                    item.answerLetters.append(letter)
                }
                continue
            }
            if readNote(unbulleted, into: &item) {
                stemOpen = false
                continue
            }
            if let match = unbulleted.wholeMatch(of: optionLine.regex) {
                stemOpen = false
                var optionText = String(match.2).trimmingCharacters(in: .whitespaces)
                let letter = match.1.uppercased()
                if let mark = optionText.firstMatch(of: correctMark.regex) {
                    optionText = String(optionText[..<mark.range.lowerBound]).trimmingCharacters(in: .whitespaces)
                    if !item.answerLetters.contains(letter) { item.answerLetters.append(letter) }
                }
                item.options.append(QuizOption(letter: letter, text: optionText))
                continue
            }
            if stemOpen, item.options.isEmpty {
                item.stem += " " + line
            }
        }
        finish()
        return quiz
    }

    /// Reads a `Misconception B: …` or `Feedback B: …` line onto its option; false for any other line.
    private static func readNote(_ line: String, into item: inout QuizItem) -> Bool {
        let note: (letter: Substring, text: Substring, isFeedback: Bool)
        if let match = line.wholeMatch(of: misconceptionLine.regex) {
            note = (match.1, match.2, false)
        } else if let match = line.wholeMatch(of: feedbackLine.regex) {
            note = (match.1, match.2, true)
        } else {
            return false
        }
        let letter = note.letter.uppercased()
        guard let index = item.options.firstIndex(where: { $0.letter == letter }) else { return true }
        let text = String(note.text).trimmingCharacters(in: .whitespaces)
        if note.isFeedback { item.options[index].feedback = text } else { item.options[index].misconception = text }
        return true
    }

    /// Whether a prompt shows the layout's `Feedback` lines, so the quiz written from it must carry them.
    ///
    /// A quiz turn records the answer (`quiz_feedback`), since a resumed session does not read its prompt back: a
    /// quiz made before student feedback was asked for is read, shown and exported as it was, and not failed for
    /// lacking what it was never asked to write.
    package static func asksForFeedback(_ prompt: String) -> Bool {
        prompt.contains(feedbackAsk.regex)
    }

    /// A line without markdown heading marks, bold markers and surrounding spaces.
    static func plain(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("#") { text.removeFirst() }
        return text.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// The text after a bullet (`- `, `* `, `• `), or nil when the line has none.
    static func bulletText(_ line: String) -> String? {
        for bullet in ["- ", "* ", "• ", "– "] where line.hasPrefix(bullet) {
            return String(line.dropFirst(bullet.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// `Quiz: exit`, `Starter quiz`, `Quiz (starter)`: the kind a header line states.
    private static func statedKind(_ line: String) -> Quiz.Kind? {
        let lower = line.lowercased()
        guard lower.contains("quiz"), lower.count <= 60, !lower.hasPrefix("1") else { return nil }
        let words = lower.split { !$0.isLetter }.map(String.init)
        if words.contains("starter") || words.contains("entry") { return .starter }
        if words.contains("exit") { return .exit }
        return nil
    }

    private static func isMisconceptionHeading(_ line: String) -> Bool {
        let lower = line.lowercased()
        return lower.hasSuffix(":") && lower.contains("misconception") && !lower.hasPrefix("misconception ")
            || lower == "misconceptions" || lower == "prior misconceptions"
    }

    /// The letters an answer line names: `B`, `B) Carbon dioxide`, `B and C`, or an option's own text.
    private static func letters(in value: String, options: [QuizOption]) -> [String] {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        var found: [String] = []
        var rest = Substring(trimmed)
        while let first = rest.first, first.isLetter, "ABCDEFabcdef".contains(first) {
            let after = rest.dropFirst().first
            guard after == nil || !(after?.isLetter ?? false) else { break }
            found.append(first.uppercased())
            rest = rest.dropFirst()
            // Another letter only after a list separator: `B, C`, `B and C`, `B & C`, `B/C`.
            let separator = rest.prefix { $0 == " " || $0 == "," || $0 == "&" || $0 == "/" }
            var next = rest.dropFirst(separator.count)
            if next.lowercased().hasPrefix("and ") { next = next.dropFirst(4) }
            guard
                separator.contains(",") || separator.contains("&") || separator.contains("/")
                    || rest.dropFirst(separator.count).lowercased().hasPrefix("and ")
            else { break }
            rest = next
        }
        if !found.isEmpty { return found }
        let key = trimmed.lowercased()
        return options.filter { $0.text.lowercased() == key }.map(\.letter)
    }
}
