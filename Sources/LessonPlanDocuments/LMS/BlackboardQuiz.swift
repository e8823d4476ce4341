import Foundation

/// Blackboard Learn's tab-delimited question upload: one question to a row, `MC`, the question, then each answer
/// followed by `correct` or `incorrect`.
///
/// The upload has no escapes of its own and Blackboard shows its text as HTML, so each field is written as an HTML
/// fragment: `& < > "` as entities, a tab as `&#9;` (a raw one would split the field), a line break as `<br>`.
/// It has no field for an answer's feedback, which the export says before it writes.
package enum BlackboardQuiz {
    package static func losses(_ quiz: LMSQuiz) -> [String] {
        [quiz.feedbackLeftOut("Blackboard's upload")].compactMap { $0 }
    }

    package static func render(_ quiz: LMSQuiz) -> String {
        quiz.items.map { item in
            (["MC", LMSText.html(item.stem)] + item.options.flatMap { [LMSText.html($0.text), $0.isKey ? "correct" : "incorrect"] })
                .joined(separator: "\t")
        }.joined(separator: "\n") + "\n"
    }
}
