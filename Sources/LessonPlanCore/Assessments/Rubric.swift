import Foundation

/// A criteria × levels rubric for the plan's independent task: what `/rubric` keeps beside its plan version.
package struct Rubric: Codable, Equatable, Sendable {
    /// The default number of levels `/rubric` asks for, and the range it accepts.
    package static let defaultLevels = 4
    package static let levelRange = 2...6

    /// The task the rubric scores, as the answer names it; may be empty.
    package var task: String
    /// The levels, lowest first, as the header row names them.
    package var levels: [RubricLevel]
    /// The teacher's rows.
    package var criteria: [RubricCriterion]
    /// The same rubric in students' words (`I can …`), for handouts; empty when the answer gave none.
    package var studentCriteria: [RubricCriterion]

    package init(task: String = "", levels: [RubricLevel], criteria: [RubricCriterion], studentCriteria: [RubricCriterion] = []) {
        self.task = task
        self.levels = levels
        self.criteria = criteria
        self.studentCriteria = studentCriteria
    }

    /// The version handed to students: their own rows when the answer gave them, else the teacher's.
    package var forStudents: Rubric {
        Rubric(task: task, levels: levels, criteria: studentCriteria.isEmpty ? criteria : studentCriteria)
    }
}

/// One column of a rubric: a level's name and the points it is worth, if the header gives them.
package struct RubricLevel: Codable, Equatable, Sendable {
    package var name: String
    package var points: Int?

    package init(name: String, points: Int? = nil) {
        self.name = name
        self.points = points
    }

    /// The header as shown: `Proficient (3)`.
    package var title: String { points.map { "\(name) (\($0))" } ?? name }
}

/// One row of a rubric: what is judged, and what each level looks like.
package struct RubricCriterion: Codable, Equatable, Sendable {
    package var name: String
    /// One cell per level, in the levels' order; empty text where the answer left a cell blank.
    package var cells: [String]
    /// Cells written beyond the last level, which the check reports.
    package var extraCells: Int

    package init(name: String, cells: [String], extraCells: Int = 0) {
        self.name = name
        self.cells = cells
        self.extraCells = extraCells
    }
}

/// Reads a rubric from the model's answer: a pipe table, optionally a second one for students.
///
///     Rubric: Labelled diagram of photosynthesis
///     | Criterion | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |
///     | --- | --- | --- | --- | --- |
///     | Inputs and outputs | Names one input … | … | … | … |
///
///     Student version:
///     | I can … | Beginning (1) | … |
///
/// A level's points are read from `Name (3)`, `Name – 3`, `3 – Name` or `Name: 3 pts`. A row with fewer
/// cells than levels keeps empty cells, so the check can name them.
package enum RubricReader {
    private static let trailingPoints = SharedRegex(/^(.*?)\s*(?:\(\s*(\d{1,3})\s*(?:pts?|points?)?\s*\)|[:\-–—]\s*(\d{1,3})\s*(?:pts?|points?)?)$/)
    private static let leadingPoints = SharedRegex(/^(\d{1,3})\s*(?:pts?|points?)?\s*[:.\-–—)]?\s+(.+)$/)

    package static func read(_ text: String) -> Rubric {
        var rubric = Rubric(levels: [], criteria: [])
        var tables: [[[String]]] = []
        var current: [[String]] = []
        var studentTableIndex: Int?
        var sawStudentLabel = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("|") {
                if current.isEmpty, sawStudentLabel, studentTableIndex == nil { studentTableIndex = tables.count }
                let cells = cellsOf(line)
                if !cells.allSatisfy(isRule) { current.append(cells) }
                continue
            }
            if !current.isEmpty {
                tables.append(current)
                current = []
            }
            let plain = QuizReader.plain(line)
            let lower = plain.lowercased()
            if lower.contains("student") && (lower.hasSuffix(":") || lower.count < 40) { sawStudentLabel = true }
            if rubric.task.isEmpty, lower.hasPrefix("rubric"), let colon = plain.firstIndex(of: ":") {
                rubric.task = String(plain[plain.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
        }
        if !current.isEmpty { tables.append(current) }
        guard let teacher = tables.first, let header = teacher.first else { return rubric }
        rubric.levels = header.dropFirst().map(level)
        rubric.criteria = rows(teacher.dropFirst(), levels: rubric.levels.count)
        let student = studentTableIndex.flatMap { $0 < tables.count && $0 > 0 ? tables[$0] : nil } ?? (tables.count > 1 ? tables[1] : nil)
        if let student {
            // The student table may repeat the header or not.
            let body = student.first.map { Array($0.dropFirst()).map(level) == rubric.levels } == true ? student.dropFirst() : student[...]
            rubric.studentCriteria = rows(body, levels: rubric.levels.count)
        }
        return rubric
    }

    private static func rows(_ lines: ArraySlice<[String]>, levels: Int) -> [RubricCriterion] {
        lines.map { cells in
            let name = cells.first ?? ""
            var body = Array(cells.dropFirst())
            let extra = max(0, body.count - levels)
            // Trailing empty cells past the levels are the table's own edge, not extra writing.
            let extraWritten = body.dropFirst(levels).filter { !$0.isEmpty }.count
            body = Array(body.prefix(levels))
            while body.count < levels { body.append("") }
            return RubricCriterion(name: name, cells: body, extraCells: extra > 0 ? extraWritten : 0)
        }
    }

    /// The cells of a `| a | b |` row, trimmed, with bold markers removed.
    private static func cellsOf(_ line: String) -> [String] {
        var inner = Substring(line)
        if inner.hasPrefix("|") { inner = inner.dropFirst() }
        if inner.hasSuffix("|") { inner = inner.dropLast() }
        return inner.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "<br>", with: " ")
                .trimmingCharacters(in: .whitespaces)
        }
    }

    private static func isRule(_ cell: String) -> Bool {
        !cell.isEmpty && cell.allSatisfy { $0 == "-" || $0 == ":" || $0 == " " }
    }

    private static func level(_ cell: String) -> RubricLevel {
        if let match = cell.wholeMatch(of: trailingPoints.regex), let points = Int(match.2 ?? match.3 ?? "") {
            return RubricLevel(name: String(match.1).trimmingCharacters(in: .whitespaces), points: points)
        }
        if let match = cell.wholeMatch(of: leadingPoints.regex), let points = Int(match.1) {
            return RubricLevel(name: String(match.2).trimmingCharacters(in: .whitespaces), points: points)
        }
        return RubricLevel(name: cell)
    }
}
