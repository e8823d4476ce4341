import Foundation

/// A multiple-choice quiz written from a plan: what `/quiz` keeps beside the plan version it was made from.
///
/// A starter quiz tests only what students should already know (and names the misconceptions they may bring);
/// an exit quiz tests the lesson's own content. Each item has one key and two or three wrong answers, each
/// wrong answer built on a named misconception the teacher sees and students do not, and carrying feedback
/// written to the student who picks it (what a learning platform shows them).
package struct Quiz: Codable, Equatable, Sendable {
    /// When in the lesson the quiz is given.
    package enum Kind: String, Codable, CaseIterable, Sendable {
        case starter, exit

        /// Reads `starter` or `exit` (also `entry`, `pre`, `exit ticket`), any case.
        package init?(text: String) {
            switch text.lowercased().trimmingCharacters(in: .whitespaces) {
            case "starter", "entry", "pre", "prior", "starter quiz": self = .starter
            case "exit", "post", "exit quiz", "exit ticket": self = .exit
            default: return nil
            }
        }
    }

    /// The smallest and largest quiz `/quiz N` may ask for, and the default.
    package static let itemRange = 3...15
    package static let defaultItems = 5

    package var kind: Kind
    /// What students may wrongly believe, listed before the items (the starter quiz must name some).
    package var misconceptions: [String]
    package var items: [QuizItem]

    /// For a parallel form (`/quiz forms 2`): its letter, `A`, `B` …; nil for the quiz as written.
    package var form: String?

    /// `Exit quiz` or `Starter quiz` (`Exit quiz, form B` for a form), as pages head it.
    package var title: String { "\(kind == .starter ? "Starter" : "Exit") quiz" + (form.map { ", form \($0)" } ?? "") }

    /// The answer key's heading: `Answer key: exit quiz` (`…, form B`).
    package var keyTitle: String { "Answer key: \(kind.rawValue) quiz" + (form.map { ", form \($0)" } ?? "") }

    package init(kind: Kind, misconceptions: [String] = [], items: [QuizItem]) {
        self.kind = kind
        self.misconceptions = misconceptions
        self.items = items
    }
}

/// One multiple-choice question: its stem and lettered options, one of them marked as the answer.
package struct QuizItem: Codable, Equatable, Sendable {
    package var stem: String
    /// The options in the order students see them, lettered A, B, C …
    package var options: [QuizOption]
    /// The letters the answer marks as correct, as written; the check wants exactly one that is an option.
    package var answerLetters: [String]

    package init(stem: String, options: [QuizOption], answerLetters: [String]) {
        self.stem = stem
        self.options = options
        self.answerLetters = answerLetters
    }

    /// The correct option, when exactly one existing option is marked.
    package var key: QuizOption? {
        guard answerLetters.count == 1 else { return nil }
        return options.first { $0.letter == answerLetters[0] }
    }

    /// The key as an answer sheet shows it: `B) Carbon dioxide`, or what the item marks when that is not one option.
    package var keyText: String {
        key.map { "\($0.letter)) \($0.text)" }
            ?? (answerLetters.isEmpty ? "no answer marked" : "marked " + answerLetters.joined(separator: ", "))
    }

    /// The wrong answers: every option but the key (every option when the key is unclear).
    package var distractors: [QuizOption] {
        options.filter { !answerLetters.contains($0.letter) }
    }

    /// The wrong answers an answer key explains: those with a misconception or student feedback.
    package var explainedDistractors: [QuizOption] {
        distractors.filter { !$0.misconception.isEmpty || !$0.feedback.isEmpty }
    }
}

/// One lettered option of a quiz item.
package struct QuizOption: Codable, Equatable, Sendable {
    /// `A`, `B`, … as the item letters it.
    package var letter: String
    package var text: String
    /// The misconception a wrong answer is built on (teacher only); empty for the key or when none is named.
    package var misconception: String
    /// What a student who picks this wrong answer reads (`Feedback B: …`): written to them, guiding without giving
    /// the answer away; empty for the key, or in a quiz made before feedback was asked for.
    package var feedback: String

    package init(letter: String, text: String, misconception: String = "", feedback: String = "") {
        self.letter = letter
        self.text = text
        self.misconception = misconception
        self.feedback = feedback
    }

    /// The misconception as an answer key shows it, saying so when none is named.
    package var misconceptionShown: String {
        misconception.isEmpty ? "(no misconception named)" : misconception
    }

    /// The label in front of student feedback on the teacher's key, where it sits beside the misconception.
    package static let feedbackLabel = "Student feedback: "

    private enum CodingKeys: String, CodingKey {
        case letter, text, misconception, feedback
    }

    /// Reads an option; one stored before feedback was asked for has none.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        letter = try container.decode(String.self, forKey: .letter)
        text = try container.decode(String.self, forKey: .text)
        misconception = try container.decodeIfPresent(String.self, forKey: .misconception) ?? ""
        feedback = try container.decodeIfPresent(String.self, forKey: .feedback) ?? ""
    }
}

/// Which quiz a command names: the latest, quiz N, or the newest starter or exit quiz (`/show quiz 2`,
/// `/export quiz exit gift`, `export --quiz starter`).
package enum QuizChoice: Equatable, Sendable {
    case number(Int)
    case kind(Quiz.Kind)

    /// Reads a quiz's number (`2`) or kind (`starter`, `exit`, also `entry`, `pre`, `post`), any case.
    package init?(text: String) {
        if let number = Int(text), number > 0 {
            self = .number(number)
        } else if let kind = Quiz.Kind(text: text) {
            self = .kind(kind)
        } else {
            return nil
        }
    }
}
