import Foundation

/// One student on a class list: the name the teacher knows, the pseudonym the model sees, and their needs.
package struct RosterStudent: Codable, Equatable, Sendable {
    /// The name as the teacher gave it, e.g. "Maria Lopez".
    package var name: String
    /// What every request carries instead, e.g. "Student A"; kept in the class file so it never changes.
    package var pseudonym: String
    /// Needs as the teacher wrote them: `ELL`, `IEP: extended time`, `504: preferential seating`, free text.
    package var needs: [String]

    package init(name: String, pseudonym: String, needs: [String] = []) {
        self.name = name
        self.pseudonym = pseudonym
        self.needs = needs
    }

    /// The first word of the name.
    package var firstName: String { name.split(separator: " ").first.map(String.init) ?? name }
}

/// A class list: kept on the teacher's machine only, the map between names and pseudonyms with it.
package struct ClassRoster: Codable, Equatable, Sendable {
    package var name: String
    package var students: [RosterStudent]

    package init(name: String, students: [RosterStudent] = []) {
        self.name = name
        self.students = students
    }

    /// The students with at least one need.
    package var withNeeds: [RosterStudent] { students.filter { !$0.needs.isEmpty } }

    /// Adds students (name and needs) in order: a name already listed keeps its pseudonym and takes the new
    /// needs when any are given; a new one gets the next free pseudonym.
    package mutating func add(_ entries: [(name: String, needs: [String])]) {
        for entry in entries {
            if let index = students.firstIndex(where: { $0.name.lowercased() == entry.name.lowercased() }) {
                if !entry.needs.isEmpty { students[index].needs = entry.needs }
            } else {
                students.append(RosterStudent(name: entry.name, pseudonym: nextPseudonym(), needs: entry.needs))
            }
        }
    }

    /// "Student A" … "Student Z", then "Student AA": the first not yet taken.
    private func nextPseudonym() -> String {
        let taken = Set(students.map(\.pseudonym))
        var number = 0
        while true {
            let candidate = "Student " + Self.letters(number)
            if !taken.contains(candidate) { return candidate }
            number += 1
        }
    }

    static func letters(_ number: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var number = number
        var letters = ""
        repeat {
            letters = String(alphabet[number % 26]) + letters
            number = number / 26 - 1
        } while number >= 0
        return letters
    }

    /// What can go wrong reading a class list, in one sentence that says what to do.
    package enum ParseError: Error, Equatable, Sendable, LocalizedError {
        case empty
        case badName(line: Int, name: String)

        package var errorDescription: String? {
            switch self {
            case .empty:
                "The class list has no names; give a CSV (name, then needs) or one name a line."
            case .badName(let line, let name):
                "Line \(line): “\(name.prefix(60))” is not a name lessonplan can keep apart from other words; use letters, spaces, hyphens and apostrophes, starting with a letter."
            }
        }
    }

    /// Reads a class list: one student a line, either a name alone or CSV (`name,needs…`), the needs after the
    /// first comma or tab separated by `;` or further commas (`Maria Lopez,ELL;IEP: extended time`). A first line
    /// whose first cell is `name` or `student` is a header; blank lines and `#` lines are skipped.
    package static func parse(_ text: String) throws(ParseError) -> [(name: String, needs: [String])] {
        var entries: [(name: String, needs: [String])] = []
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let cells = csvCells(line)
            let name = cells.first?.split(whereSeparator: \.isWhitespace).joined(separator: " ") ?? ""
            if entries.isEmpty, ["name", "student", "students", "student name"].contains(name.lowercased()) { continue }
            guard isName(name) else { throw .badName(line: offset + 1, name: name) }
            let needs = cells.dropFirst()
                .flatMap { $0.split(separator: ";") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            entries.append((name, needs))
        }
        if entries.isEmpty { throw .empty }
        return entries
    }

    /// Whether `text` can be kept apart from other words: letters, with spaces, hyphens and apostrophes between.
    package static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter, text.count <= 60 else { return false }
        return text.allSatisfy { $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" || $0 == "’" }
    }

    /// The cells of one CSV line (a tab also separates); a quoted cell may hold commas and doubled quotes.
    static func csvCells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" {
                            cell.append("\"")
                        } else {
                            quoted = false
                            if next == "," || next == "\t" {
                                cells.append(cell)
                                cell = ""
                            } else {
                                cell.append(next)
                            }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"", cell.trimmingCharacters(in: .whitespaces).isEmpty {
                quoted = true
                cell = ""
            } else if character == "," || character == "\t" {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
        }
        cells.append(cell)
        return cells.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
