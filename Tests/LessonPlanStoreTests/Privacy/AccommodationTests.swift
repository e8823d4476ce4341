import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanStore

/// The accommodations table read and checked by code, and a transcript line's strings swapped without
/// touching anything else.
@Suite struct AccommodationTests {
    static let section = """
        Differentiation
        - Support: sentence frames.
        Accommodations:
        | Student | Needs | Activity | Support |
        |---|---|---|---|
        | Maria | ELL; IEP: extended time | Warm-Up | Picture cards and 3 extra minutes. |
        | Maria | ELL | Guided Practice (12–20 min) | A sentence frame: "I think ___ because ___." |
        | Dev | 504: preferential seating | Warm-Up | Seat at the front. |
        | Dev | 504: preferential seating | Guided Practice |  |
        """

    static let students = [
        AccommodationCoverage.Student(shown: "Maria", aliases: ["Maria Lopez", "Student A"], needs: ["ELL", "IEP: extended time"]),
        AccommodationCoverage.Student(shown: "Dev", aliases: ["Dev Patel", "Student B"], needs: ["504: preferential seating"]),
        AccommodationCoverage.Student(shown: "Jonah", aliases: ["Jonah Reyes", "Student C"], needs: ["IEP: extended time"]),
    ]

    @Test func theTableIsReadFromItsHeaderAndRuleIsSkipped() {
        let table = AccommodationTable(parsing: Self.section)
        #expect(table.rows.count == 4)
        #expect(
            table.rows[1]
                == .init(
                    student: "Maria", needs: "ELL", activity: "Guided Practice (12–20 min)", support: "A sentence frame: \"I think ___ because ___.\""
                ))
        #expect(AccommodationTable.withoutTables(Self.section) == "Differentiation\n- Support: sentence frames.\nAccommodations:")
        // Another table is not a student's: it stays, wherever it is.
        let vocabulary = "| Word | Meaning |\n|---|---|\n| tide | the sea rising |"
        #expect(
            AccommodationTable.withoutTables(vocabulary + "\n" + Self.section + "\nCheck") == vocabulary
                + "\nDifferentiation\n- Support: sentence frames.\nAccommodations:\nCheck")
    }

    @Test func everyGapIsNamedAndOnlyWholeRowsCount() {
        let coverage = AccommodationCoverage.check(
            AccommodationTable(parsing: Self.section), students: Self.students, activities: ["Warm-Up", "Guided Practice"])
        #expect(coverage.expected == 6)
        #expect(coverage.covered == 2, "Maria's warm-up and Dev's warm-up")
        #expect(
            coverage.gaps == [
                "Maria's Guided Practice row does not name IEP: extended time",
                "Dev has no support for Guided Practice",
                "Jonah has no support for Warm-Up, Guided Practice",
            ])
        #expect(!coverage.passed)
        let whole = AccommodationTable(
            parsing: """
                | Student | Needs | Activity | Support |
                | Student A | ELL, IEP: Extended time | warm-up | Cards. |
                """)
        #expect(
            AccommodationCoverage.check(whole, students: [Self.students[0]], activities: ["Warm-Up"]).passed,
            "a pseudonym and any case are the student")
    }

    @Test func aTranscriptLineHasOnlyItsStringsChangedAndItsEscapesKept() throws {
        let map = NameMap(
            roster: {
                var roster = ClassRoster(name: "4B")
                roster.add([("Maria Lopez", []), ("Dev Patel", [])])
                return roster
            }())
        let line = Data(#"{"type":"name","v":1,"at":"2026-11-29T12:31:18.024Z","name":"Maria\n\"Dev\" \u00e9","text":"a/b"}"#.utf8)
        let swapped = String(decoding: TranscriptNames.transformingStrings(in: line, map.pseudonymised), as: UTF8.self)
        #expect(swapped == #"{"type":"name","v":1,"at":"2026-11-29T12:31:18.024Z","name":"Student A\n\"Student B\" é","text":"a/b"}"#)
        // A record goes through the coder: names out, and back.
        let record = TranscriptRecord.named(NameRecord(at: Date(timeIntervalSince1970: 0), name: "Dev's tides"))
        let written = record.transformingText(map.pseudonymised)
        #expect(written == .named(NameRecord(at: Date(timeIntervalSince1970: 0), name: "Student B's tides")))
        #expect(written.transformingText(map.restored) == record)
    }
}
