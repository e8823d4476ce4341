import Foundation

/// The table `/accommodate` puts in a plan's Differentiation section: a row for each student and each timed
/// activity, `| Student | Needs | Activity | Support |`.
package struct AccommodationTable: Equatable, Sendable {
    package struct Row: Equatable, Sendable {
        package var student: String
        package var needs: String
        package var activity: String
        package var support: String
    }

    package var rows: [Row]

    /// The rows of the first table in `text` whose header starts `| Student |`; the rule line is skipped.
    package init(parsing text: String) {
        var rows: [Row] = []
        var inTable = false
        for line in text.split(whereSeparator: \.isNewline) {
            guard Self.isTableLine(line) else {
                if inTable { break }
                continue
            }
            let cells = Self.cells(line)
            if !inTable {
                inTable = cells.first.map(Self.fold) == "student"
                continue
            }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }
            guard cells.count >= 4 else { continue }
            rows.append(Row(student: cells[0], needs: cells[1], activity: cells[2], support: cells[3...].joined(separator: " | ")))
        }
        self.rows = rows
    }

    /// Whether a line is a row of a pipe table: it starts and ends with `|`.
    package static func isTableLine(_ line: some StringProtocol) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 1 && trimmed.hasPrefix("|") && trimmed.hasSuffix("|")
    }

    /// The cells of a table row, trimmed.
    package static func cells(_ line: some StringProtocol) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
    }

    /// `text` with each accommodations table (a pipe table headed `| Student |`) replaced by `replacement`'s lines
    /// for it, in place; any other table stays as it is.
    package static func replacingTables(in text: String, with replacement: (AccommodationTable) -> [String]) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var index = 0
        while index < lines.count {
            guard isTableLine(lines[index]), cells(lines[index]).first.map(fold) == "student" else {
                out.append(lines[index])
                index += 1
                continue
            }
            var end = index
            while end < lines.count, isTableLine(lines[end]) { end += 1 }
            out += replacement(AccommodationTable(parsing: lines[index..<end].joined(separator: "\n")))
            index = end
        }
        return out.joined(separator: "\n")
    }

    /// `text` without its accommodations tables: the plan as handouts are written from it, with no row about a student.
    package static func withoutTables(_ text: String) -> String {
        replacingTables(in: text) { _ in [] }
    }
}

/// Whether every listed need of every student has a support in every timed activity, checked by code.
package struct AccommodationCoverage: Equatable, Sendable {
    /// One student as the check knows them: every name the table may use for them, and their needs.
    package struct Student: Equatable, Sendable {
        package var shown: String
        package var aliases: [String]
        package var needs: [String]

        package init(shown: String, aliases: [String], needs: [String]) {
            self.shown = shown
            self.aliases = aliases
            self.needs = needs
        }
    }

    /// One sentence per gap, e.g. "Maria has no row for Guided Practice".
    package var gaps: [String]
    /// Student × activity pairs that have a row naming every need, and how many there should be.
    package var covered: Int
    package var expected: Int

    package var passed: Bool { gaps.isEmpty && expected > 0 }

    package static func check(_ table: AccommodationTable, students: [Student], activities: [String]) -> AccommodationCoverage {
        var gaps: [String] = []
        var covered = 0
        for student in students {
            let names = Set(([student.shown] + student.aliases).map(AccommodationTable.fold))
            let rows = table.rows.filter { names.contains(AccommodationTable.fold($0.student)) }
            var missing: [String] = []
            var unnamedNeeds: [String] = []
            for activity in activities {
                let key = AccommodationTable.fold(activity)
                guard let row = rows.first(where: { AccommodationTable.fold($0.activity).hasPrefix(key) }),
                    !row.support.trimmingCharacters(in: .whitespaces).isEmpty
                else {
                    missing.append(activity)
                    continue
                }
                let named = AccommodationTable.fold(row.needs + " " + row.support)
                let unnamed = student.needs.filter { !named.contains(AccommodationTable.fold($0)) }
                if unnamed.isEmpty {
                    covered += 1
                } else {
                    unnamedNeeds.append("\(student.shown)'s \(activity) row does not name \(unnamed.joined(separator: "; "))")
                }
            }
            if !missing.isEmpty { gaps.append("\(student.shown) has no support for \(missing.joined(separator: ", "))") }
            gaps += unnamedNeeds
        }
        return AccommodationCoverage(gaps: gaps, covered: covered, expected: students.count * activities.count)
    }
}
