import Foundation

/// Quizzes and rubrics as a model answers `prompts/quiz.txt` and `rubric.txt`, for the scripted model.
package enum AssessmentFixtures {
    /// A quiz that passes the check: `items` items, one answer each, every wrong answer with its misconception and,
    /// unless `feedback` is false (a quiz as made before feedback was asked for), its feedback to the student.
    package static func quiz(kind: String = "exit", items: Int = 5, topic: String = "Tides", feedback: Bool = true) -> String {
        var lines = ["Quiz: \(kind)", "Misconceptions:", "- The Moon pulls only the water facing it.", ""]
        for number in 1...max(1, items) {
            let answer = ["A", "B", "C"][number % 3]
            lines.append("\(number). Question \(number) about \(topic): which statement is right?")
            for letter in ["A", "B", "C"] {
                lines.append(
                    letter == answer ? "\(letter)) The right idea number \(number)" : "\(letter)) Wrong idea \(letter) for question \(number)")
            }
            lines.append("Answer: \(answer)")
            for letter in ["A", "B", "C"] where letter != answer {
                lines.append("Misconception \(letter): students think wrong idea \(letter) holds.")
                if feedback { lines.append("Feedback \(letter): Look again at what question \(number) asks before you choose.") }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// An exit quiz of three fraction items that passes every check but the lesson's: on a plan about anything
    /// else it is off its lesson.
    package static let fractionsQuiz = """
        Quiz: exit
        1. Which fraction is equivalent to 1/2?
        A) 2/4
        B) 1/3
        C) 3/5
        Answer: A
        Misconception B: thinks a bigger denominator means a bigger fraction.
        Feedback B: Cut two strips into halves and thirds; which pieces are bigger?
        Misconception C: adds one to the numerator and denominator.
        Feedback C: Adding to the top and bottom changes the size; try drawing both.
        2. What is 1/4 + 1/4 as a fraction in simplest form?
        A) 2/8
        B) 1/2
        C) 1/8
        Answer: B
        Misconception A: adds the denominators.
        Feedback A: The pieces stay quarters when you add them; count how many quarters you have.
        Misconception C: multiplies instead of adding.
        Feedback C: The question asks you to add, so the total should be bigger than each part.
        3. Which fraction has the larger denominator?
        A) 3/4
        B) 5/8
        C) 1/2
        Answer: B
        Misconception A: compares the numerators.
        Feedback A: Look at the bottom numbers, not the top ones.
        Misconception C: picks the fraction that looks biggest.
        Feedback C: The question is about the denominator only; compare the bottom numbers.
        """

    /// A rubric that passes the check: three criteria, `levels` levels with points, and the students' version.
    package static func rubric(levels: Int = 4, task: String = "Tide diagram") -> String {
        let names = ["Beginning", "Emerging", "Developing", "Proficient", "Advanced", "Exemplary"]
        let chosen = levels == 4 ? ["Beginning", "Developing", "Proficient", "Exemplary"] : Array(names.prefix(levels))
        let header = chosen.enumerated().map { "\($0.element) (\($0.offset + 1))" }.joined(separator: " | ")
        let rule = Array(repeating: "---", count: chosen.count + 1).joined(separator: " | ")
        var lines = ["Rubric: \(task)", "| Criterion | \(header) |", "| \(rule) |"]
        for criterion in ["Explains the cause", "Labels the diagram", "Uses evidence"] {
            lines.append("| \(criterion) | " + chosen.map { "\(criterion) at \($0.lowercased()) level" }.joined(separator: " | ") + " |")
        }
        lines += ["", "Student version:", "| I can … | \(header) |", "| \(rule) |"]
        for criterion in ["I can explain the cause", "I can label the diagram", "I can use evidence"] {
            lines.append("| \(criterion) | " + chosen.map { "\($0) step" }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// A review as a model answers `prompts/review.txt` of ``PlanFixtures/passing(minutes:number:topic:)``: one
    /// block per built-in criterion, each quoting a sentence of that plan (in its own spacing and quotation marks),
    /// except that `invented` replaces the quotation of the criterion it names.
    package static func review(topic: String = "Tides", invented: (criterion: String, quote: String)? = nil) -> String {
        let rows: [(String, Int, String)] = [
            ("Degree of Alignment to Standards", 2, "Students will be able to explain the key ideas of \(topic) and apply them to a new example."),
            ("Quality of Explanation of the Subject Matter", 1, "Introduce the key vocabulary with one worked example; pause for questions."),
            ("Utility of Materials Designed to Support Teaching", 2, "Slides or board notes on \(topic)"),
            ("Quality of Assessment", 2, "What is the main idea of \(topic)?"),
            (
                "Quality of Instructional Tasks and Practice Exercises", 2,
                "In pairs, students work through two examples while the teacher circulates."
            ),
            ("Opportunities for Deeper Learning", 1, "Extension: students write their own example and explain it to a partner."),
            ("Assurance of Accessibility", 1, "Support: sentence frames and a labelled diagram."),
        ]
        return rows.map { name, score, quote in
            let quoted = invented?.criterion == name ? invented?.quote ?? quote : quote
            return "Criterion: \(name)\nScore: \(score) of 3\nEvidence: “\(quoted)”\nWhy: The plan says so for \(name.lowercased())."
        }.joined(separator: "\n\n")
    }

    /// The quiz, rubric or review a prompt asks for (or asks to repair), or nil for any other prompt.
    package static func answer(toPrompt input: String) -> String? {
        func number(after pattern: String) -> Int? {
            guard let range = input.range(of: pattern, options: .regularExpression) else { return nil }
            return Int(input[range].filter(\.isNumber))
        }
        if input.contains("quiz of exactly") || input.contains("quiz you wrote") {
            let kind = input.range(of: "starter quiz") == nil ? "exit" : "starter"
            return quiz(kind: kind, items: number(after: #"exactly \d+ (multiple-choice )?items"#) ?? 5)
        }
        if input.contains("Write a rubric") || input.contains("rubric you wrote") {
            return rubric(levels: number(after: #"xactly \d+ levels"#) ?? 4)
        }
        if input.contains("Review this plan for the teacher") {
            return review()
        }
        return nil
    }

    /// The `input` of a request's JSON body.
    package static func input(of body: Data) -> String {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return object?["input"] as? String ?? ""
    }
}
