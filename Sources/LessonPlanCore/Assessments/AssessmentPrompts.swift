import Foundation

/// The placeholder values `prompts/quiz.txt`, `rubric.txt` and their repair templates use, beside a plan's own.
package enum AssessmentPrompts {
    /// The templates these commands render, for ``PromptLibrary/validate(templates:)`` at start-up.
    package static let templates = ["quiz", "quiz-repair", "rubric", "rubric-repair"]

    /// `{{quiz_kind}}`, `{{quiz_items}}` and `{{quiz_focus}}`: what the kind of quiz may test.
    package static func quizValues(kind: Quiz.Kind, items: Int) -> [String: String] {
        let focus =
            switch kind {
            case .starter:
                "This is a starter quiz, given before the lesson: test only what students should already know from earlier lessons, never the new content this plan teaches. Under Misconceptions, list at least one wrong idea students may bring to this lesson."
            case .exit:
                "This is an exit quiz, given at the end: test only what this plan's learning objective says students will learn in this lesson."
            }
        return ["quiz_kind": kind.rawValue, "quiz_items": String(items), "quiz_focus": focus]
    }

    /// The level names a rubric of `count` levels asks for, lowest first.
    package static func levelNames(_ count: Int) -> [RubricLevel] {
        let names: [String] =
            switch count {
            case ...2: ["Not yet", "Got it"]
            case 3: ["Beginning", "Developing", "Proficient"]
            case 4: ["Beginning", "Developing", "Proficient", "Exemplary"]
            case 5: ["Beginning", "Emerging", "Developing", "Proficient", "Exemplary"]
            default: ["Beginning", "Emerging", "Developing", "Proficient", "Advanced", "Exemplary"]
            }
        return names.prefix(max(2, count)).enumerated().map { RubricLevel(name: $0.element, points: $0.offset + 1) }
    }

    /// `{{rubric_levels}}`, `{{rubric_level_names}}`, `{{rubric_header}}` and `{{rubric_rule}}` for `levels` levels.
    package static func rubricValues(levels: Int) -> [String: String] {
        let named = levelNames(levels)
        return [
            "rubric_levels": String(named.count),
            "rubric_level_names": named.map(\.title).joined(separator: ", "),
            "rubric_header": named.map(\.title).joined(separator: " | "),
            "rubric_rule": Array(repeating: "---", count: named.count).joined(separator: " | "),
        ]
    }

    /// `{{problems}}` for a repair prompt: one problem sentence a line.
    package static func problemList(_ problems: [some CustomStringConvertible]) -> String {
        problems.map { "- \($0.description)" }.joined(separator: "\n")
    }
}
