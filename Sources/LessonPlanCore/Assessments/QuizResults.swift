import Foundation

/// How many students chose each option of each item of a quiz: counts only, never who chose what.
package struct QuizResults: Codable, Equatable, Sendable {
    /// For each item in order, the count for each option letter (`A` …).
    package var counts: [[String: Int]]

    package init(counts: [[String: Int]]) { self.counts = counts }

    /// What can be wrong with results, in one sentence that says what to do.
    package enum Failure: Error, Equatable, Sendable, LocalizedError {
        case empty
        case badLine(line: Int, text: String)
        case noItem(line: Int, item: Int, items: Int)
        case noOption(line: Int, item: Int, option: String, letters: String)

        package var errorDescription: String? {
            switch self {
            case .empty:
                "The results hold no counts; give a CSV of item,option,count (e.g. 2,B,9), or Canvas's quiz statistics JSON."
            case .badLine(let line, let text):
                "Line \(line) (“\(TerminalSanitizer.cleanLine(text, limit: 40))”) is not item,option,count; write e.g. 2,B,9 (item 2, option B, 9 students)."
            case .noItem(let line, let item, let items):
                "Line \(line) counts item \(item), but the quiz has items 1 to \(items); check that the results are for this quiz."
            case .noOption(let line, let item, let option, let letters):
                "Line \(line): item \(item) has no option “\(TerminalSanitizer.cleanLine(option, limit: 20))”; its options are \(letters)."
            }
        }
    }

    /// Reads the counts for `quiz` from Canvas's quiz statistics JSON (its `question_statistics`, each question's
    /// `answers` with `text` and `responses`, matched to the quiz by position and by option text), or from CSV
    /// lines `item,option,count` (a header and blank lines skipped; an option by its letter or its text; counts
    /// of one item and option added up). Any other column, a student's name say, is never read.
    /// - Throws: ``Failure`` naming the line that cannot be used.
    package static func read(_ text: String, quiz: Quiz) throws(Failure) -> QuizResults {
        if let canvas = canvasCounts(text, quiz: quiz) { return canvas }
        var counts = [[String: Int]](repeating: [:], count: quiz.items.count)
        var any = false
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let cells = line.split(separator: line.contains("\t") ? "\t" : ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\""))) }
            guard cells.count >= 3, let item = Int(cells[0].filter(\.isNumber)), let count = Int(cells[2]), count >= 0 else {
                if !any, cells.first?.lowercased().hasPrefix("item") == true || cells.first?.lowercased().hasPrefix("question") == true { continue }
                throw .badLine(line: offset + 1, text: line)
            }
            guard quiz.items.indices.contains(item - 1) else { throw .noItem(line: offset + 1, item: item, items: quiz.items.count) }
            guard let letter = letter(cells[1], in: quiz.items[item - 1]) else {
                throw .noOption(
                    line: offset + 1, item: item, option: cells[1], letters: quiz.items[item - 1].options.map(\.letter).joined(separator: ", "))
            }
            counts[item - 1][letter, default: 0] += count
            any = true
        }
        guard any else { throw .empty }
        return QuizResults(counts: counts)
    }

    /// The option `typed` names in `item`: its letter (`B`, `b)`), or its text.
    static func letter(_ typed: String, in item: QuizItem) -> String? {
        let bare = typed.trimmingCharacters(in: CharacterSet(charactersIn: " .)")).uppercased()
        if let option = item.options.first(where: { $0.letter == bare }) { return option.letter }
        let key = typed.lowercased().trimmingCharacters(in: .whitespaces)
        return item.options.first { $0.text.lowercased().trimmingCharacters(in: .whitespaces) == key }?.letter
    }

    /// Canvas's quiz statistics (the API's object, or `{"quiz_statistics": [it]}`), when `text` is that JSON.
    static func canvasCounts(_ text: String, quiz: Quiz) -> QuizResults? {
        guard let data = text.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let statistics = (json["quiz_statistics"] as? [[String: Any]])?.first ?? json
        guard let questions = statistics["question_statistics"] as? [[String: Any]] else { return nil }
        var counts = [[String: Int]](repeating: [:], count: quiz.items.count)
        for (index, question) in questions.enumerated() {
            let position = (question["position"] as? Int) ?? index + 1
            guard quiz.items.indices.contains(position - 1) else { continue }
            let item = quiz.items[position - 1]
            for (answerIndex, answer) in ((question["answers"] as? [[String: Any]]) ?? []).enumerated() {
                let responses = (answer["responses"] as? Int) ?? 0
                let byText = (answer["text"] as? String).flatMap { letter($0, in: item) }
                let byOrder = item.options.indices.contains(answerIndex) ? item.options[answerIndex].letter : nil
                if let letter = byText ?? byOrder, responses > 0 { counts[position - 1][letter, default: 0] += responses }
            }
        }
        return counts.contains { !$0.isEmpty } ? QuizResults(counts: counts) : nil
    }
}

/// What results say, computed by code: each item's right-answer rate and the misconceptions ranked by how many
/// students chose the wrong answer built on each.
package struct ResultsAnalysis: Equatable, Sendable {
    package struct Item: Equatable, Sendable {
        package var number: Int
        package var answered: Int
        package var right: Int
    }

    package struct Chosen: Equatable, Sendable {
        package var item: Int
        package var letter: String
        package var misconception: String
        package var count: Int
        package var answered: Int

        /// "9 of 24 chose B on item 2 (thinks the moon pushes the water)".
        package var sentence: String {
            let idea = misconception.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
            return "\(count) of \(answered) chose \(letter) on item \(item)" + (idea.isEmpty ? "" : " (\(idea))")
        }
    }

    package var items: [Item]
    /// Wrong answers chosen at least once, the most chosen first.
    package var misconceptions: [Chosen]

    package init(_ results: QuizResults, quiz: Quiz) {
        var items: [Item] = []
        var chosen: [Chosen] = []
        for (index, item) in quiz.items.enumerated() {
            let counts = results.counts.indices.contains(index) ? results.counts[index] : [:]
            let answered = counts.values.reduce(0, +)
            items.append(Item(number: index + 1, answered: answered, right: item.key.map { counts[$0.letter] ?? 0 } ?? 0))
            for option in item.distractors where (counts[option.letter] ?? 0) > 0 {
                chosen.append(
                    Chosen(
                        item: index + 1, letter: option.letter, misconception: option.misconception, count: counts[option.letter] ?? 0,
                        answered: answered))
            }
        }
        self.items = items
        misconceptions = chosen.sorted { ($0.count, -$0.item) > ($1.count, -$1.item) }
    }

    /// The report as lines: each item's right-answer rate, then the misconceptions, most chosen first.
    package var lines: [String] {
        var lines = items.map { item in
            item.answered == 0
                ? "Item \(item.number): no answers counted"
                : "Item \(item.number): \(item.right) of \(item.answered) right (\(Int((Double(item.right) / Double(item.answered) * 100).rounded()))%)"
        }
        if misconceptions.isEmpty {
            lines.append("No wrong answer was chosen.")
        } else {
            lines.append("Misconceptions, most chosen first (counted by code):")
            lines += misconceptions.enumerated().map { "\($0.offset + 1). \($0.element.sentence)" }
        }
        return lines
    }
}
