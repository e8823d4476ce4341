import Foundation

/// One lesson of a unit as its overview plans it, before the lesson itself is written.
package struct UnitLessonOutline: Codable, Equatable, Sendable {
    package var title: String
    /// One sentence: what students will be able to do after it.
    package var objective: String
    /// What earlier lesson or prior knowledge it builds on.
    package var buildsOn: String

    package init(title: String, objective: String, buildsOn: String = "") {
        self.title = title
        self.objective = objective
        self.buildsOn = buildsOn
    }
}

/// A unit's overview: its goal, essential questions and one outline per lesson, read by code from the fixed
/// layout `prompts/unit-overview.txt` asks for, so each lesson can be written with the others as context.
package struct UnitPlan: Equatable, Sendable {
    package var goal: String
    package var questions: [String]
    package var lessons: [UnitLessonOutline]
    /// The numbers the lessons were written with, in order; a check compares them with 1…N.
    package var numbers: [Int]

    package init(goal: String, questions: [String], lessons: [UnitLessonOutline], numbers: [Int]? = nil) {
        self.goal = goal
        self.questions = questions
        self.lessons = lessons
        self.numbers = numbers ?? lessons.indices.map { $0 + 1 }
    }

    /// The smallest and largest number of lessons a unit may have.
    package static let lessonRange = 2...15

    /// Reads an overview in the layout asked for, leniently: Markdown marks (`**`, `#`, `-`) around the labels
    /// are ignored, and a label may end with `:` or a dash. Lines it does not know are skipped.
    package init(reading text: String) {
        var goal = ""
        var questions: [String] = []
        var lessons: [UnitLessonOutline] = []
        var numbers: [Int] = []
        var inQuestions = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = Self.stripped(String(raw))
            guard !line.isEmpty else { continue }
            if let (number, title) = Self.lessonHeading(line) {
                inQuestions = false
                numbers.append(number)
                lessons.append(UnitLessonOutline(title: title, objective: ""))
            } else if let value = Self.value(of: line, labels: ["objective", "learning objective"]) {
                inQuestions = false
                if !lessons.isEmpty, lessons[lessons.count - 1].objective.isEmpty { lessons[lessons.count - 1].objective = value }
            } else if let value = Self.value(of: line, labels: ["builds on", "building on"]) {
                inQuestions = false
                if !lessons.isEmpty { lessons[lessons.count - 1].buildsOn = value }
            } else if let value = Self.value(of: line, labels: ["goal", "unit goal"]) {
                inQuestions = false
                goal = value
            } else if let value = Self.value(of: line, labels: ["essential questions", "essential question"]) {
                inQuestions = lessons.isEmpty
                if !value.isEmpty { questions.append(value) }
            } else if inQuestions, let item = Self.listItem(String(raw)) {
                questions.append(item)
            }
        }
        self.init(goal: goal, questions: questions, lessons: lessons, numbers: numbers)
    }

    /// What the check by code finds wrong, one sentence each, in the words a repair prompt can quote:
    /// exactly `expected` lessons numbered 1…N, each with a title and an objective, no two objectives alike.
    package func problems(expected: Int) -> [String] {
        var problems: [String] = []
        if lessons.count != expected {
            problems.append(
                "It has \(lessons.count) lesson\(lessons.count == 1 ? "" : "s"); it must have exactly \(expected), numbered 1 to \(expected).")
        } else if numbers != Array(1...expected) {
            problems.append("The lessons are not numbered 1 to \(expected) in order; number them Lesson 1 to Lesson \(expected).")
        }
        for (index, lesson) in lessons.enumerated() {
            if lesson.title.isEmpty { problems.append("Lesson \(index + 1) has no title after “Lesson \(index + 1):”.") }
            if lesson.objective.isEmpty { problems.append("Lesson \(index + 1) has no “Objective:” line.") }
        }
        var seen: [String: Int] = [:]
        for (index, lesson) in lessons.enumerated() where !lesson.objective.isEmpty {
            let key = Self.comparable(lesson.objective)
            if let earlier = seen[key] {
                problems.append("Lessons \(earlier) and \(index + 1) have the same objective; give each lesson an objective of its own.")
            } else {
                seen[key] = index + 1
            }
        }
        return problems
    }

    /// The overview in the layout it was asked for: what `/unit` shows, lessons' prompts carry and exports print.
    package var text: String {
        var lines: [String] = []
        if !goal.isEmpty { lines.append("Goal: \(goal)") }
        if !questions.isEmpty {
            lines.append("Essential questions:")
            lines += questions.map { "- \($0)" }
        }
        for (index, lesson) in lessons.enumerated() {
            lines.append("")
            lines.append("Lesson \(index + 1): \(lesson.title)")
            lines.append("Objective: \(lesson.objective)")
            if !lesson.buildsOn.isEmpty { lines.append("Builds on: \(lesson.buildsOn)") }
        }
        return lines.joined(separator: "\n")
    }

    /// An objective as compared for likeness: its words, without the "Students will (be able to)" every one starts with.
    package static func comparable(_ objective: String) -> String {
        var words = ContentText.words(objective)
        for prefix in [["students", "will", "be", "able", "to"], ["students", "will"], ["swbat"], ["i", "can"]]
        where words.starts(with: prefix) {
            words.removeFirst(prefix.count)
            break
        }
        return words.map(ContentText.stem).joined(separator: " ")
    }

    /// A line without Markdown emphasis, heading marks or surrounding space.
    private static func stripped(_ line: String) -> String {
        var text = line.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
        text = String(text.drop { $0 == "#" || $0 == " " || $0 == "\t" })
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// `Lesson 3: Title`, `Lesson 3 — Title`, `Lesson 3. Title`: the number and the title.
    private static func lessonHeading(_ line: String) -> (Int, String)? {
        guard line.lowercased().hasPrefix("lesson ") else { return nil }
        let rest = line.dropFirst("lesson ".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, let number = Int(digits) else { return nil }
        let title = rest.dropFirst(digits.count).drop { ":.–—-) \t".contains($0) }
        return (number, title.trimmingCharacters(in: .whitespaces))
    }

    /// The text after `Label:` (or `Label —`) when the line starts with one of the labels, case aside.
    private static func value(of line: String, labels: [String]) -> String? {
        let lower = line.lowercased()
        for label in labels.sorted(by: { $0.count > $1.count }) where lower.hasPrefix(label) {
            let rest = line.dropFirst(label.count)
            let mark = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = mark.first else { return rest.isEmpty ? "" : nil }
            guard ":–—-".contains(first) else { continue }
            return mark.drop { ":–—- \t".contains($0) }.trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// A list item (`- x`, `* x`, `• x`, `1. x`, `1) x`) without its marker.
    private static func listItem(_ raw: String) -> String? {
        let line = raw.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "**", with: "")
        if let first = line.first, "-*•".contains(first) {
            let item = line.dropFirst().trimmingCharacters(in: .whitespaces)
            return item.isEmpty ? nil : item
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let mark = line.dropFirst(digits.count).first, mark == "." || mark == ")" else { return nil }
        let item = line.dropFirst(digits.count + 1).trimmingCharacters(in: .whitespaces)
        return item.isEmpty ? nil : item
    }
}
