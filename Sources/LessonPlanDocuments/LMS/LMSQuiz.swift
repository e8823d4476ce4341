import Foundation
import LessonPlanCore

/// A quiz as the platforms take it: numbered items, each with its options in order, exactly one key, and the
/// student feedback of each wrong answer as that option's feedback.
///
/// The misconception behind a wrong answer is the teacher's note and never reaches a platform: a student reads
/// only the feedback written to them (`Feedback B: …`).
package struct LMSQuiz: Equatable, Sendable {
    /// One question, numbered as the quiz numbers it.
    package struct Item: Equatable, Sendable {
        package var number: Int
        package var stem: String
        package var options: [Option]
        /// The position of the one correct option in ``options``.
        package var keyIndex: Int
    }

    /// One option and what a student who picks it is told.
    package struct Option: Equatable, Sendable {
        package var text: String
        /// What a student who picks this wrong answer reads; empty for the key, or when the quiz has none for it.
        package var feedback: String
        package var isKey: Bool
    }

    /// `Exit quiz: Tides`, as a platform lists it.
    package var title: String
    /// `Exit quiz`, which names each question (`Exit quiz 3`).
    package var kindTitle: String
    package var items: [Item]
    /// A stable identifier for the platforms that key imports by it (letters and digits only).
    package var identifier: String

    package init(title: String, kindTitle: String, items: [Item], identifier: String) {
        self.title = title
        self.kindTitle = kindTitle
        self.items = items
        self.identifier = identifier
    }

    /// Reads `quiz` for a platform.
    /// - Throws: ``ExportError`` naming each item that has no stem, fewer than two options, or not exactly one key
    ///   among its options: a platform cannot score it, so nothing is written.
    package init(_ quiz: Quiz, topic: String, identifier: String) throws(ExportError) {
        var items: [Item] = []
        var broken: [String] = []
        for (offset, item) in quiz.items.enumerated() {
            let number = offset + 1
            let keys = item.options.indices.filter { item.answerLetters.contains(item.options[$0].letter) }
            guard !item.stem.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, item.options.count >= 2, keys.count == 1,
                let keyIndex = keys.first
            else {
                broken.append("\(number)")
                continue
            }
            let options = item.options.enumerated().map { index, option in
                Option(text: option.text, feedback: index == keyIndex ? "" : option.feedback, isKey: index == keyIndex)
            }
            items.append(Item(number: number, stem: item.stem, options: options, keyIndex: keyIndex))
        }
        if quiz.items.isEmpty {
            throw ExportError("The quiz has no items to export; type /quiz to make a new one.")
        }
        if !broken.isEmpty {
            throw ExportError(
                "\(LMSQuiz.items(broken).capitalizedFirst) \(broken.count == 1 ? "has" : "have") no question, fewer than two answers or not exactly one answer marked, so a platform could not score \(broken.count == 1 ? "it" : "them"); nothing written. Type /quiz to make a new quiz."
            )
        }
        self.init(title: "\(quiz.title): \(topic)", kindTitle: quiz.title, items: items, identifier: identifier)
    }

    /// The numbers of the items with a wrong answer that has feedback for the student.
    var itemsWithFeedback: [Int] {
        items.filter { $0.options.contains { !$0.isKey && !$0.feedback.isEmpty } }.map(\.number)
    }

    /// `item 3`, `items 1 and 4`, `items 1, 2 and 5`.
    static func items(_ numbers: [String]) -> String {
        guard let last = numbers.last else { return "no items" }
        return numbers.count == 1 ? "item \(last)" : "items " + numbers.listed()
    }

    static func items(_ numbers: [Int]) -> String { items(numbers.map(String.init)) }

    /// A sentence for a format without feedback: whose student feedback it leaves out, or nil when there is none.
    func feedbackLeftOut(_ format: String) -> String? {
        let numbers = itemsWithFeedback
        guard !numbers.isEmpty else { return nil }
        return "\(format) has no feedback for an answer: the student feedback on the wrong answers of \(Self.items(numbers)) is left out."
    }

    /// A sentence for a format with feedback: which items have a wrong answer whose student reads none (a quiz
    /// made before feedback was asked for), or nil when every wrong answer has some.
    func feedbackMissing(_ format: String) -> String? {
        let numbers = items.filter { $0.options.contains { !$0.isKey && $0.feedback.isEmpty } }.map(\.number)
        guard !numbers.isEmpty else { return nil }
        return
            "\(format) carries each wrong answer's student feedback, but \(Self.items(numbers)) \(numbers.count == 1 ? "has" : "have") a wrong answer with none, so a student who picks it is told nothing more; type /quiz to make a quiz with feedback."
    }

    /// A sentence for a format that keeps each text on one line: whose line breaks (and, with `tabs`, tabs) become
    /// spaces, or nil when none do.
    func lineBreaksFlattened(_ format: String, tabs: Bool = false) -> String? {
        func flattened(_ text: String) -> Bool { LMSText.hasLineBreak(text) || (tabs && text.contains("\t")) }
        let numbers = items.filter { item in flattened(item.stem) || item.options.contains { flattened($0.text) } }.map(\.number)
        guard !numbers.isEmpty else { return nil }
        let what = tabs ? "line breaks and tabs" : "line breaks"
        return "\(format) keeps a question and each answer on one line: the \(what) in \(Self.items(numbers)) become spaces."
    }
}

extension String {
    /// The string with its first letter in upper case (`item 3` → `Item 3`).
    package var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }

    /// Line breaks (LF, CRLF, CR) as single spaces.
    var oneLine: String {
        LMSText.lines(self).joined(separator: " ")
    }
}
