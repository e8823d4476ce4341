import Foundation

/// One thing wrong with a quiz, worded so the sentence can go straight into a repair prompt.
package enum QuizProblem: Equatable, Sendable, CustomStringConvertible {
    case noItems
    case itemCount(found: Int, expected: Int)
    case wrongKind(stated: Quiz.Kind, expected: Quiz.Kind)
    case noMisconceptions
    case emptyStem(item: Int)
    case noKey(item: Int)
    case severalKeys(item: Int, letters: [String])
    case keyNotAnOption(item: Int, letter: String)
    case distractorCount(item: Int, count: Int)
    case sameOption(item: Int, letters: [String])
    case emptyOption(item: Int, letter: String)
    case allOrNone(item: Int, letter: String)
    case missingMisconception(item: Int, letter: String)
    /// A wrong answer with no `Feedback X:` line for the student who picks it.
    case missingFeedback(item: Int, letter: String)
    /// A wrong answer whose feedback is its misconception word for word: the teacher's note, not written to the student.
    case feedbackIsNote(item: Int, letter: String)
    /// A question that names an answer letter as the answer or a hint (`(answer: B)`, `Hint: it's C`).
    case answerInStem(item: Int, letter: String)
    /// A wrong answer's feedback that names the key's letter or says what the answer is.
    case answerInFeedback(item: Int, letter: String)
    /// Most items share no content word with the lesson (its topic and plan): a quiz on something else.
    case offLesson(items: [Int])

    package var description: String {
        switch self {
        case .noItems:
            "The answer has no numbered quiz items; write each item as “1. question”, its options “A) …”, then “Answer: <letter>”."
        case .itemCount(let found, let expected):
            "The quiz has \(counted(found, "item")), not \(expected); write exactly \(expected)."
        case .wrongKind(let stated, let expected):
            "The quiz calls itself \(stated == .exit ? "an exit" : "a starter") quiz, but \(expected == .exit ? "an exit" : "a starter") quiz was asked for; write “Quiz: \(expected.rawValue)” and items to match."
        case .noMisconceptions:
            "The starter quiz lists no misconceptions; add a “Misconceptions:” list of what students may already wrongly believe, and test only what they learned before this lesson."
        case .emptyStem(let item):
            "Item \(item) has no question; write its question after the number."
        case .noKey(let item):
            "Item \(item) marks no answer; add one line “Answer: <letter>”."
        case .severalKeys(let item, let letters):
            "Item \(item) marks \(letters.listed()) as the answer; mark exactly one option as correct."
        case .keyNotAnOption(let item, let letter):
            "Item \(item)'s answer is \(letter), which is not one of its options; give the letter of the correct option."
        case .distractorCount(let item, let count):
            "Item \(item) has \(counted(count, "wrong answer")); give 2 or 3 plausible wrong answers besides the key."
        case .sameOption(let item, let letters):
            "Item \(item)'s options \(letters.listed()) say the same thing; make every option different."
        case .emptyOption(let item, let letter):
            "Item \(item)'s option \(letter) is empty; write its text."
        case .allOrNone(let item, let letter):
            "Item \(item)'s option \(letter) is “all of the above” or “none of the above”; replace it with a plausible wrong answer."
        case .offLesson(let items):
            "\(items.count == 1 ? "Item" : "Items") \(items.map(String.init).listed()) \(items.count == 1 ? "shares" : "share") no word with the lesson's topic and plan; ask about what this lesson teaches."
        case .missingMisconception(let item, let letter):
            "Item \(item)'s wrong answer \(letter) names no misconception; add “Misconception \(letter): …” saying what a student who picks it believes."
        case .missingFeedback(let item, let letter):
            "Item \(item)'s wrong answer \(letter) has no feedback for the student; add “Feedback \(letter): …”, one or two sentences to a student who picks it that guide without giving the answer away."
        case .feedbackIsNote(let item, let letter):
            "Item \(item)'s feedback for \(letter) repeats its misconception, which is the teacher's note; write “Feedback \(letter): …” to the student who picks it, guiding without giving the answer away."
        case .answerInStem(let item, let letter):
            "Item \(item)'s question gives away an answer letter (\(letter)); take the answer and any hint at it out of the question."
        case .answerInFeedback(let item, let letter):
            "Item \(item)'s feedback for \(letter) gives away the answer; guide the student without naming the correct letter or saying what the answer is."
        }
    }
}

/// The deterministic quiz check: what `/quiz` repairs once, as plans are repaired.
package enum QuizCheck {
    /// The quiz's problems, in item order after the quiz-wide ones; empty when it passes.
    /// - Parameters:
    ///   - expectedItems: How many items were asked for.
    ///   - kind: The kind asked for; a starter quiz must list the misconceptions it probes.
    /// - Parameter lesson: the lesson's topic and plan text; when given, a quiz most of whose items share no
    ///   content word with it is a problem (a fractions quiz on a photosynthesis plan).
    /// - Parameter feedbackAsked: whether the prompt asked for student feedback (``QuizReader/asksForFeedback(_:)``);
    ///   when not (a quiz made before it was asked for), a wrong answer without feedback is no problem.
    package static func problems(
        _ quiz: Quiz, expectedItems: Int, kind: Quiz.Kind, lesson: String? = nil, feedbackAsked: Bool = true
    ) -> [QuizProblem] {
        guard !quiz.items.isEmpty else { return [.noItems] }
        var problems: [QuizProblem] = []
        if quiz.items.count != expectedItems { problems.append(.itemCount(found: quiz.items.count, expected: expectedItems)) }
        if quiz.kind != kind { problems.append(.wrongKind(stated: quiz.kind, expected: kind)) }
        if kind == .starter, quiz.misconceptions.isEmpty { problems.append(.noMisconceptions) }
        for (index, item) in quiz.items.enumerated() {
            problems += self.problems(item, number: index + 1) + feedbackProblems(item, number: index + 1, asked: feedbackAsked)
        }
        if let lesson, let off = offLesson(quiz, lesson: lesson) { problems.append(off) }
        return problems
    }

    /// The items sharing no content word (stemmed, stop words out) with the lesson, when they are nearly all of
    /// the quiz (four in five, and at least two).
    ///
    /// A question may name what a short plan only implies ("What pulls the ocean most? … The Moon's gravity" on
    /// a tides plan that never says "moon"), so a few such items are left alone; a quiz nearly all of whose items
    /// share nothing with the lesson is about something else.
    static func offLesson(_ quiz: Quiz, lesson: String) -> QuizProblem? {
        let taught = ContentText.contentStems(lesson)
        guard !taught.isEmpty else { return nil }
        let off = quiz.items.indices.filter { index in
            let item = quiz.items[index]
            let words = ContentText.contentStems(([item.stem] + item.options.map(\.text)).joined(separator: " "))
            return words.isDisjoint(with: taught)
        }
        return off.count >= 2 && off.count * 5 >= quiz.items.count * 4 ? .offLesson(items: off.map { $0 + 1 }) : nil
    }

    /// Whether the quiz passes the check.
    package static func passes(_ quiz: Quiz, expectedItems: Int, kind: Quiz.Kind, lesson: String? = nil, feedbackAsked: Bool = true) -> Bool {
        problems(quiz, expectedItems: expectedItems, kind: kind, lesson: lesson, feedbackAsked: feedbackAsked).isEmpty
    }

    private static func problems(_ item: QuizItem, number: Int) -> [QuizProblem] {
        var problems: [QuizProblem] = []
        // A stem of punctuation alone ("?") asks nothing, and a platform such as Moodle skips the item.
        if !item.stem.contains(where: { $0.isLetter || $0.isNumber }) { problems.append(.emptyStem(item: number)) }
        if let letter = QuizLeaks.letterGivenAway(inStem: item.stem, letters: item.options.map(\.letter)) {
            problems.append(.answerInStem(item: number, letter: letter))
        }
        let letters = Set(item.options.map(\.letter))
        switch item.answerLetters.count {
        case 0: problems.append(.noKey(item: number))
        case 1:
            if !letters.contains(item.answerLetters[0]) {
                problems.append(.keyNotAnOption(item: number, letter: item.answerLetters[0]))
            }
        default: problems.append(.severalKeys(item: number, letters: item.answerLetters))
        }
        let distractors = item.options.count - (item.key == nil ? 0 : 1)
        if item.key != nil, !(2...3).contains(distractors) {
            problems.append(.distractorCount(item: number, count: distractors))
        }
        var seen: [String: String] = [:]
        var reported: Set<String> = []
        for option in item.options {
            let key = comparable(option.text)
            if key.isEmpty {
                problems.append(.emptyOption(item: number, letter: option.letter))
                continue
            }
            if let first = seen[key], !reported.contains(key) {
                reported.insert(key)
                let same = item.options.filter { comparable($0.text) == key }.map(\.letter)
                problems.append(.sameOption(item: number, letters: same.isEmpty ? [first, option.letter] : same))
            }
            seen[key] = seen[key] ?? option.letter
            if isAllOrNone(key) { problems.append(.allOrNone(item: number, letter: option.letter)) }
        }
        if item.key != nil {
            for option in item.distractors
            where option.misconception.trimmingCharacters(in: .whitespaces).isEmpty && !isAllOrNone(comparable(option.text)) {
                problems.append(.missingMisconception(item: number, letter: option.letter))
            }
        }
        return problems
    }

    /// What is wrong with the feedback of an item's wrong answers: missing (when it was asked for), the teacher's
    /// misconception copied, or giving the answer away. Nothing for an item whose key is unclear.
    private static func feedbackProblems(_ item: QuizItem, number: Int, asked: Bool) -> [QuizProblem] {
        guard let key = item.key else { return [] }
        var problems: [QuizProblem] = []
        for option in item.distractors where !isAllOrNone(comparable(option.text)) {
            let feedback = option.feedback.trimmingCharacters(in: .whitespaces)
            if feedback.isEmpty {
                if asked { problems.append(.missingFeedback(item: number, letter: option.letter)) }
                continue
            }
            if !option.misconception.isEmpty, comparable(feedback) == comparable(option.misconception) {
                problems.append(.feedbackIsNote(item: number, letter: option.letter))
            } else if QuizLeaks.givesAwayAnswer(feedback, key: key.letter) {
                problems.append(.answerInFeedback(item: number, letter: option.letter))
            }
        }
        return problems
    }

    /// Lower case, letters and digits only, single spaces: `The Soil.` and `the soil` are the same option.
    static func comparable(_ text: String) -> String {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: " ")
    }

    private static func isAllOrNone(_ key: String) -> Bool {
        [
            "all of the above", "none of the above", "all of these", "none of these", "both a and b", "all the above",
            "none of them", "all of them",
        ].contains { key.hasPrefix($0) }
    }
}
