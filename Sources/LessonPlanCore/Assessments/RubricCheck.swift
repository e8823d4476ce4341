import Foundation

/// One thing wrong with a rubric, worded so the sentence can go straight into a repair prompt.
package enum RubricProblem: Equatable, Sendable, CustomStringConvertible {
    case noTable
    case levelCount(found: Int, expected: Int)
    case levelWithoutPoints(level: String)
    case levelsNotOrdered(levels: [String])
    case duplicateLevel(level: String)
    case noCriteria
    case duplicateCriterion(criterion: String)
    case emptyCriterionName(row: Int)
    case emptyCell(criterion: String, level: String)
    case extraCells(criterion: String, count: Int)
    case studentRowCount(found: Int, expected: Int)
    case emptyStudentCell(criterion: String, level: String)

    package var description: String {
        switch self {
        case .noTable:
            "The answer has no rubric table; write it as a table “| Criterion | Level (1) | … |” with one row per criterion."
        case .levelCount(let found, let expected):
            "The rubric has \(counted(found, "level")), not \(expected); use exactly \(expected) level columns."
        case .levelWithoutPoints(let level):
            "The level “\(level)” has no points; write every level as “Name (points)”, lowest first."
        case .levelsNotOrdered(let levels):
            "The levels \(levels.map { "“\($0)”" }.joined(separator: ", ")) are not in order; put the lowest level first and give each more points than the one before."
        case .duplicateLevel(let level):
            "The level “\(level)” appears twice; give every level its own name."
        case .noCriteria:
            "The rubric has no criteria rows; add one row per criterion under the header."
        case .duplicateCriterion(let criterion):
            "The criterion “\(criterion)” appears twice; merge the rows or judge something different in each."
        case .emptyCriterionName(let row):
            "Row \(row) of the rubric names no criterion; write what it judges in the first cell."
        case .emptyCell(let criterion, let level):
            "The cell for “\(criterion)” at “\(level)” is empty; describe what work at that level looks like."
        case .extraCells(let criterion, let count):
            "The row “\(criterion)” has \(counted(count, "cell")) more than there are levels; give one cell per level."
        case .studentRowCount(let found, let expected):
            "The student version has \(counted(found, "row")), but the rubric has \(counted(expected, "criterion", "criteria")); give each criterion one student row."
        case .emptyStudentCell(let criterion, let level):
            "The student version's cell for “\(criterion)” at “\(level)” is empty; fill it in students' words."
        }
    }
}

/// The deterministic rubric check: what `/rubric` repairs once, as plans are repaired.
package enum RubricCheck {
    /// The rubric's problems, header first then row by row; empty when it passes.
    package static func problems(_ rubric: Rubric, expectedLevels: Int) -> [RubricProblem] {
        guard !rubric.levels.isEmpty else { return [.noTable] }
        var problems: [RubricProblem] = []
        if rubric.levels.count != expectedLevels {
            problems.append(.levelCount(found: rubric.levels.count, expected: expectedLevels))
        }
        var levelNames: Set<String> = []
        for level in rubric.levels where !levelNames.insert(QuizCheck.comparable(level.name)).inserted {
            problems.append(.duplicateLevel(level: level.name))
        }
        let missing = rubric.levels.filter { $0.points == nil }
        problems += missing.map { .levelWithoutPoints(level: $0.name) }
        let points = rubric.levels.compactMap(\.points)
        if zip(points, points.dropFirst()).contains(where: { $0 >= $1 }) {
            problems.append(.levelsNotOrdered(levels: rubric.levels.map(\.title)))
        }
        guard !rubric.criteria.isEmpty else { return problems + [.noCriteria] }
        problems += rowProblems(rubric.criteria, levels: rubric.levels, student: false)
        if !rubric.studentCriteria.isEmpty {
            if rubric.studentCriteria.count != rubric.criteria.count {
                problems.append(.studentRowCount(found: rubric.studentCriteria.count, expected: rubric.criteria.count))
            }
            problems += rowProblems(rubric.studentCriteria, levels: rubric.levels, student: true)
        }
        return problems
    }

    /// Whether the rubric passes the check.
    package static func passes(_ rubric: Rubric, expectedLevels: Int) -> Bool {
        problems(rubric, expectedLevels: expectedLevels).isEmpty
    }

    private static func rowProblems(_ rows: [RubricCriterion], levels: [RubricLevel], student: Bool) -> [RubricProblem] {
        var problems: [RubricProblem] = []
        var names: Set<String> = []
        for (index, row) in rows.enumerated() {
            let name = row.name.trimmingCharacters(in: .whitespaces)
            if name.isEmpty {
                if !student { problems.append(.emptyCriterionName(row: index + 1)) }
            } else if !student, !names.insert(QuizCheck.comparable(name)).inserted {
                problems.append(.duplicateCriterion(criterion: name))
            }
            let label = name.isEmpty ? "row \(index + 1)" : name
            for (cell, level) in zip(row.cells, levels) where cell.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append(student ? .emptyStudentCell(criterion: label, level: level.name) : .emptyCell(criterion: label, level: level.name))
            }
            if row.extraCells > 0, !student { problems.append(.extraCells(criterion: label, count: row.extraCells)) }
        }
        return problems
    }
}
