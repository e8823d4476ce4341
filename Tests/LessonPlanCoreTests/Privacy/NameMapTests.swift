import Foundation
import Testing

@testable import LessonPlanCore

/// The class list and the swap between names and pseudonyms, as plain values.
@Suite struct NameMapTests {
    static let csv = """
        name,needs
        Maria Lopez,ELL;IEP: extended time
        Dev Patel,"504: preferential seating, near the board",sentence frames
        Will Chen
        Maria Okafor,
        Jonah Reyes\tIEP: extended time
        """

    static func roster() throws -> ClassRoster {
        var roster = ClassRoster(name: "4B")
        roster.add(try ClassRoster.parse(csv))
        return roster
    }

    @Test func aCSVGivesNamesNeedsAndStablePseudonyms() throws {
        var roster = try Self.roster()
        #expect(roster.students.map(\.name) == ["Maria Lopez", "Dev Patel", "Will Chen", "Maria Okafor", "Jonah Reyes"])
        #expect(roster.students.map(\.pseudonym) == ["Student A", "Student B", "Student C", "Student D", "Student E"])
        #expect(roster.students[0].needs == ["ELL", "IEP: extended time"])
        // A quoted cell is one need, commas and all; further cells are needs of their own.
        #expect(roster.students[1].needs == ["504: preferential seating, near the board", "sentence frames"])
        #expect(roster.students[4].needs == ["IEP: extended time"])
        // Adding again keeps each pseudonym; new needs replace old ones; a new name takes the next letter.
        roster.add(try ClassRoster.parse("dev patel,ELL\nAaliyah Brooks"))
        #expect(roster.students[1].pseudonym == "Student B" && roster.students[1].needs == ["ELL"])
        #expect(roster.students.last?.pseudonym == "Student F")
        #expect(ClassRoster.letters(26) == "AA" && ClassRoster.letters(27) == "AB")
    }

    @Test func aLineThatIsNoNameIsRefusedWithItsNumber() {
        #expect(throws: ClassRoster.ParseError.badName(line: 2, name: "<script>")) { try ClassRoster.parse("Ana\n<script>,ELL") }
        #expect(throws: ClassRoster.ParseError.empty) { try ClassRoster.parse("# nobody\n\n") }
    }

    @Test func everyFormOfAListedNameIsSwappedAndNothingElse() throws {
        let map = NameMap(roster: try Self.roster(), ordinaryWords: ["will"])
        let sent = map.pseudonymised(
            "Maria Lopez's group: DEV and maría need frames; students will pair with Will. Jonah’s extended time. Devon stays.")
        #expect(
            sent
                == "Student A's group: Student B and Student A or Student D need frames; students will pair with Student C. Student E’s extended time. Devon stays."
        )
        #expect(map.names(in: sent).isEmpty)
        #expect(map.names(in: "Ask dev about it") == ["dev"])
    }

    @Test func pseudonymsReadBackAsTheNamesTheTeacherKnows() throws {
        let map = NameMap(roster: try Self.roster())
        #expect(
            map.restored("Student B's frames; Student A or Student D; Student E. Student Z stays; Students AB")
                == "Dev's frames; Maria Lopez or Maria Okafor; Jonah. Student Z stays; Students AB")
    }

    @Test func aStreamedPseudonymSplitAcrossPiecesIsNeverShown() throws {
        let map = NameMap(roster: try Self.roster())
        let answer = "Pair Student B with Student E. Students start. Student B"
        for size in 1...12 {
            var restorer = StreamingNameRestorer(map: map)
            var shown = ""
            var rest = answer[...]
            while !rest.isEmpty {
                let piece = rest.prefix(size)
                rest = rest.dropFirst(size)
                let out = restorer.feed(String(piece))
                #expect(!out.contains("Student B") && !out.contains("Student E"), "piece size \(size): \(out)")
                shown += out
            }
            shown += restorer.finish()
            #expect(shown == "Pair Dev with Jonah. Students start. Dev", "piece size \(size)")
        }
    }
}
