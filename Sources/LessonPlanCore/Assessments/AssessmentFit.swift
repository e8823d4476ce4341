import Foundation

/// Whether a quiz or rubric written for one plan still fits a later version of it, checked by code: the same
/// topic and grade band, the old objective's terms still in the plan, and every term an item asks about that the
/// old plan taught still taught. One sentence per reason it does not fit; none when it does.
package enum AssessmentFit {
    /// A plan as the check reads it: its text and inputs, and its version number for sentences.
    package struct Plan: Sendable {
        package var number: Int
        package var text: String
        package var inputs: LessonInputs

        package init(number: Int, text: String, inputs: LessonInputs) {
            self.number = number
            self.text = text
            self.inputs = inputs
        }
    }

    /// Why what was written for `old` does not fit `new`; the items of `quiz` are read when there is one.
    package static func problems(writtenFor old: Plan, now new: Plan, quiz: Quiz? = nil) -> [String] {
        var problems: [String] = []
        if old.inputs.topic.lowercased() != new.inputs.topic.lowercased() {
            problems.append("the topic changed from “\(old.inputs.topic)” to “\(new.inputs.topic)”")
        }
        if old.inputs.grade != new.inputs.grade {
            problems.append("it was written for grades \(old.inputs.grade.rawValue), and v\(new.number) is for grades \(new.inputs.grade.rawValue)")
        }
        let taught = terms(in: new.text)
        let objective = terms(in: objectiveText(old.text))
        let lost = objective.filter { taught[$0.key] == nil }
        if objective.count >= 2, lost.count * 2 > objective.count {
            let words = lost.values.sorted().prefix(3).map { "“\($0)”" }.joined(separator: ", ")
            problems.append("the objective changed: v\(new.number) no longer has \(words)")
        }
        let oldTerms = terms(in: old.text)
        for (index, item) in (quiz?.items ?? []).enumerated() {
            let asked = terms(in: ([item.stem] + (item.key.map { [$0.text] } ?? [])).joined(separator: " "))
            if let gone = asked.filter({ oldTerms[$0.key] != nil && taught[$0.key] == nil }).values.sorted().first {
                problems.append("item \(index + 1) asks about “\(gone)”, which v\(new.number) no longer teaches")
            }
        }
        return problems
    }

    /// The lesson's terms, each by its stem with the word as first written (folded): words of five letters or
    /// more, but for words any quiz or plan uses.
    static func terms(in text: String) -> [String: String] {
        var terms: [String: String] = [:]
        for word in ContentText.words(text) where word.count >= 5 && !common.contains(word) {
            let stem = ContentText.stem(word)
            if terms[stem] == nil { terms[stem] = word }
        }
        return terms
    }

    /// The objective's lines: those under the first short line that names an objective, up to a blank line.
    static func objectiveText(_ plan: String) -> String {
        let lines = plan.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let heading = lines.firstIndex(where: { $0.count <= 40 && $0.lowercased().contains("objective") }) else { return "" }
        var body: [String] = []
        for line in lines[(heading + 1)...] {
            if line.isEmpty { if body.isEmpty { continue } else { break } }
            body.append(line)
        }
        return body.joined(separator: " ")
    }

    /// Words too common in plans and quizzes to say what a lesson teaches.
    static let common: Set<String> = [
        "about", "above", "after", "again", "answer", "answers", "because", "before", "being", "below", "between",
        "check", "choose", "class", "correct", "could", "describe", "different", "during", "each", "every", "example",
        "examples", "explain", "first", "following", "their", "there", "these", "thing", "things", "think", "those",
        "three", "through", "under", "understand", "using", "where", "which", "while", "would", "write", "minutes",
        "lesson", "student", "students", "teacher", "question", "questions", "partner", "practice", "statement",
        "other", "another", "happens", "happen", "learned", "learn", "should", "still", "apply", "ideas", "key",
    ]
}
