import Foundation
import Synchronization

/// Swaps a class's names for their pseudonyms in what leaves the machine, and back in what the teacher sees.
///
/// A name is found as a whole word in any case and with or without accents: the full name, the first name
/// alone, and so their possessives ("Maria's" is "Student A's"). A name that is also an ordinary word
/// (`ordinaryWords`: Will, Grace, May) is found only capitalised, so "students will" stays as it is. A first
/// name two students share becomes both pseudonyms ("Student A or Student C"), which reads back as both full names.
package struct NameMap: Sendable, Equatable {
    /// Each form to find, longest first, with what replaces it.
    private let forms: [(form: String, pseudonym: String, capitalisedOnly: Bool)]
    /// Each pseudonym's name as the teacher sees it: the first name, or the full name when two share it.
    package let names: [String: String]

    package static func == (lhs: NameMap, rhs: NameMap) -> Bool {
        lhs.names == rhs.names && lhs.forms.map(\.form) == rhs.forms.map(\.form)
    }

    package init(roster: ClassRoster, ordinaryWords: Set<String> = []) {
        let byFirst = Dictionary(grouping: roster.students) { Self.key($0.firstName) }
        var forms: [(String, String, Bool)] = []
        var names: [String: String] = [:]
        for student in roster.students {
            let shared = (byFirst[Self.key(student.firstName)]?.count ?? 0) > 1
            names[student.pseudonym] = shared ? student.name : student.firstName
            if student.name != student.firstName { forms.append((student.name, student.pseudonym, false)) }
        }
        for (_, students) in byFirst.sorted(by: { $0.key < $1.key }) {
            let first = students[0].firstName
            let ordinary = ordinaryWords.contains(first.lowercased())
            forms.append((first, students.map(\.pseudonym).joined(separator: " or "), ordinary))
        }
        self.forms = forms.sorted { $0.0.count > $1.0.count }.map { (form: $0.0, pseudonym: $0.1, capitalisedOnly: $0.2) }
        self.names = names
    }

    /// Whether there is nothing to swap.
    package var isEmpty: Bool { forms.isEmpty }

    private static func key(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// `text` with every listed name replaced by its pseudonym.
    package func pseudonymised(_ text: String) -> String {
        var text = text
        for form in forms { text = Self.replacing(form.form, with: form.pseudonym, in: text, capitalisedOnly: form.capitalisedOnly) }
        return text
    }

    /// The listed names `text` still holds, as written: empty for anything ``pseudonymised(_:)`` returned.
    package func names(in text: String) -> [String] {
        forms.compactMap { form in
            Self.wholeWordRanges(of: form.form, in: text, capitalisedOnly: form.capitalisedOnly).first.map { String(text[$0]) }
        }
    }

    /// `text` with every pseudonym ("Student A", in any case of "student") put back as the name the teacher knows.
    package func restored(_ text: String) -> String {
        guard !names.isEmpty, text.range(of: "student", options: .caseInsensitive) != nil else { return text }
        var out = ""
        var rest = text[...]
        while let match = Self.nextPseudonym(in: rest) {
            out += rest[..<match.range.lowerBound]
            out += names[match.pseudonym] ?? String(rest[match.range])
            rest = rest[match.range.upperBound...]
        }
        return out + rest
    }

    /// The next "Student X" in `text` that stands as whole words.
    private static func nextPseudonym(in text: Substring) -> (range: Range<Substring.Index>, pseudonym: String)? {
        var searchFrom = text.startIndex
        while let found = text.range(of: "student ", options: .caseInsensitive, range: searchFrom..<text.endIndex) {
            searchFrom = found.upperBound
            if found.lowerBound > text.startIndex, isWordCharacter(text[text.index(before: found.lowerBound)]) { continue }
            var end = found.upperBound
            while end < text.endIndex, let ascii = text[end].asciiValue, (65...90).contains(ascii) { end = text.index(after: end) }
            guard end > found.upperBound, end == text.endIndex || !isWordCharacter(text[end]) else { continue }
            return (found.lowerBound..<end, "Student " + text[found.upperBound..<end])
        }
        return nil
    }

    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    private static func wholeWordRanges(of form: String, in text: String, capitalisedOnly: Bool) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var searchFrom = text.startIndex
        while let found = text.range(
            of: form, options: [.caseInsensitive, .diacriticInsensitive], range: searchFrom..<text.endIndex)
        {
            searchFrom = found.upperBound
            if found.lowerBound > text.startIndex, isWordCharacter(text[text.index(before: found.lowerBound)]) { continue }
            if found.upperBound < text.endIndex, isWordCharacter(text[found.upperBound]) { continue }
            if capitalisedOnly, text[found.lowerBound].isLowercase { continue }
            ranges.append(found)
        }
        return ranges
    }

    private static func replacing(_ form: String, with pseudonym: String, in text: String, capitalisedOnly: Bool) -> String {
        let ranges = wholeWordRanges(of: form, in: text, capitalisedOnly: capitalisedOnly)
        guard !ranges.isEmpty else { return text }
        var out = ""
        var last = text.startIndex
        for range in ranges {
            out += text[last..<range.lowerBound]
            out += pseudonym
            last = range.upperBound
        }
        return out + text[last...]
    }
}

/// Puts names back into an answer that arrives in pieces: a pseudonym split across two pieces ("Stud" + "ent A")
/// is held until it is whole, so the teacher never sees one.
package struct StreamingNameRestorer: Sendable {
    package let map: NameMap
    private var held = ""

    package init(map: NameMap) { self.map = map }

    /// What can be shown of the answer so far, names restored; a possible pseudonym at the end is held back.
    package mutating func feed(_ piece: String) -> String {
        held += piece
        let cut = Self.holdFrom(held)
        let ready = String(held[..<cut])
        held = String(held[cut...])
        return map.restored(ready)
    }

    /// Whatever was held back, restored: the answer has ended.
    package mutating func finish() -> String {
        defer { held = "" }
        return map.restored(held)
    }

    /// Where a pseudonym that may not be whole yet starts at the end of `text`: "S", "Stude", "Student ",
    /// "Student A" (it may go on to "Student AB"); the end when there is none.
    static func holdFrom(_ text: String) -> String.Index {
        let prefix = "student "
        var start = text.index(text.endIndex, offsetBy: -(prefix.count + 4), limitedBy: text.startIndex) ?? text.startIndex
        while start < text.endIndex {
            let tail = text[start...].lowercased()
            let boundary = start == text.startIndex || !(text[text.index(before: start)].isLetter || text[text.index(before: start)].isNumber)
            if boundary, !tail.isEmpty {
                if prefix.hasPrefix(tail) { return start }
                if tail.hasPrefix(prefix), text[start...].dropFirst(prefix.count).allSatisfy({ ("A"..."Z").contains($0) }) { return start }
            }
            start = text.index(after: start)
        }
        return text.endIndex
    }
}

/// The class a session is tied to, shared by what sends requests and what writes the transcript: `/class`
/// changes it for both at once.
package final class ClassNames: Sendable {
    private let current: Mutex<(roster: ClassRoster, map: NameMap)?>

    package init(roster: ClassRoster? = nil, map: NameMap? = nil) {
        current = Mutex(roster.flatMap { roster in map.map { (roster, $0) } })
    }

    /// The class's name and its map, or nil when the session has no class.
    package var value: (name: String, map: NameMap)? { current.withLock { $0.map { ($0.roster.name, $0.map) } } }
    package var map: NameMap? { value?.map }
    /// The class list itself (names and needs), for `/accommodate`; it is never sent.
    package var roster: ClassRoster? { current.withLock { $0?.roster } }

    package func set(roster: ClassRoster, map: NameMap) { current.withLock { $0 = (roster, map) } }

    /// `text` with the class's names swapped for pseudonyms; unchanged without a class.
    package func pseudonymised(_ text: String) -> String { map?.pseudonymised(text) ?? text }
}
