import Foundation

/// One row of a rubric written again (`/rubric row N`): the model's row put in place of row N of the teacher's
/// table, and its "I can …" row in place of row N of the student version when the rubric has one; every other
/// line kept byte for byte.
package struct RubricRowSplice: Equatable, Sendable {
    /// The rubric's text as it was sent.
    package let rubric: String
    /// The row's number among the criteria, from 1.
    package let row: Int

    package init(rubric: String, row: Int) {
        self.rubric = rubric
        self.row = row
    }

    /// The lines of the rubric's tables' data rows: the teacher's first, then the student version's (if any).
    static func dataRows(_ lines: [String]) -> (teacher: [Int], student: [Int]) {
        var teacher: [Int] = []
        var student: [Int] = []
        var inStudent = false
        var seenHeader = false
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.lowercased().hasPrefix("student version") {
                inStudent = true
                seenHeader = false
                continue
            }
            guard line.hasPrefix("|") else { continue }
            if isSeparator(line) { continue }
            if !seenHeader {
                seenHeader = true
                continue
            }
            if inStudent { student.append(index) } else { teacher.append(index) }
        }
        return (teacher, student)
    }

    /// A table's rule line, `| --- | :---: |`.
    static func isSeparator(_ line: String) -> Bool {
        line.allSatisfy { "|-: ".contains($0) } && line.contains("-")
    }

    /// The rubric with row ``row`` replaced: the answer's first table row that is no header or rule for the
    /// teacher's table, and its first row starting `| I can` for the student version's.
    /// - Throws: ``SpliceRefusal`` when the rubric has no such row, the answer holds none, or nothing would change.
    package func splice(_ answer: String) throws(SpliceRefusal) -> String {
        var lines = SectionSplice.linesKeepingEnds(rubric)
        let rows = Self.dataRows(lines)
        guard (1...max(1, rows.teacher.count)).contains(row), row <= rows.teacher.count else {
            throw SpliceRefusal("The rubric has no row \(row); it has \(rows.teacher.count).")
        }
        let written = PlanDocument.lines(of: answer).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("|") && !Self.isSeparator($0) && !$0.lowercased().hasPrefix("| criterion") }
        let studentRow = written.first { $0.lowercased().hasPrefix("| i can") }
        guard let teacherRow = written.first(where: { !$0.lowercased().hasPrefix("| i can") }) else {
            throw SpliceRefusal("The answer held no table row to put in as row \(row); the rubric is unchanged.")
        }
        func put(_ text: String, at index: Int) {
            let ending = lines[index].hasSuffix("\r\n") ? "\r\n" : (lines[index].hasSuffix("\n") ? "\n" : "")
            lines[index] = text + ending
        }
        put(teacherRow, at: rows.teacher[row - 1])
        if let studentRow, row <= rows.student.count { put(studentRow, at: rows.student[row - 1]) }
        let result = lines.joined()
        guard result != rubric else { throw SpliceRefusal("The answer's row \(row) is the one the rubric has already, so no new rubric was made.") }
        return result
    }
}

/// Why a part written again (a quiz item, a rubric row) could not be put in, in one sentence.
package struct SpliceRefusal: Error, Equatable, Sendable {
    package let sentence: String
    package init(_ sentence: String) { self.sentence = sentence }
}
