import CoreTestSupport
import Foundation
import LessonPlanDocuments
import Testing

/// `replay` diffs lines numbered once per plan; that must give exactly the script the string
/// diff gives, including for lines that are equal as Strings without being the same bytes.
@Suite struct NumberedLineDiffTests {
    /// Lines that collide in awkward ways: canonically equal spellings, blanks, a Windows ending.
    private static let lines = [
        "Learning Objective", "Materials", "", " ", "- Sticky notes 📝", "Warm-Up (5 min) – ask a question",
        "caf\u{E9}", "cafe\u{301}", "Grades 3–5", "Grades 3-5", "Exit Ticket", "x", "y", "z", "line\r",
    ]

    private static func text(_ random: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...14, using: &random)
        let body = (0..<count).map { _ in lines.randomElement(using: &random) ?? "" }.joined(separator: "\n")
        return Bool.random(using: &random) ? body + "\n" : body
    }

    /// The next version of a plan: a few lines changed, added, removed or moved.
    private static func revise(_ text: String, _ random: inout SeededGenerator) -> String {
        var parts = text.components(separatedBy: "\n")
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let at = Int.random(in: 0...parts.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: parts.insert(lines.randomElement(using: &random) ?? "", at: at)
            case 1 where at < parts.count: parts.remove(at: at)
            default: if at < parts.count { parts[at] = lines.randomElement(using: &random) ?? "" }
            }
        }
        return parts.joined(separator: "\n")
    }

    @Test func numberedDiffsMatchStringDiffsAcrossManyVersions() {
        var random = SeededGenerator(seed: 31)
        var numbering = LineNumbering()
        var versions = [Self.text(&random)]
        for _ in 0..<2_000 {
            let base = Bool.random(using: &random) ? (versions.last ?? "") : (versions.randomElement(using: &random) ?? "")
            let next = Bool.random(using: &random) ? Self.revise(base, &random) : Self.text(&random)
            versions.append(next)
            let numbered = LineDiff.diff(numbering.number(base), numbering.number(next))
            #expect(numbered == LineDiff.diff(base, next), "\(base.debugDescription) → \(next.debugDescription)")
        }
    }

    @Test func equalSpellingsShareANumberAndKeepTheOldText() {
        var numbering = LineNumbering()
        let old = numbering.number("caf\u{E9}\nb")
        let new = numbering.number("cafe\u{301}\nc")
        #expect(old.lines == ["caf\u{E9}", "b"])
        #expect(LineDiff.diff(old, new) == [.same("caf\u{E9}"), .removed("b"), .added("c")])
        #expect(LineDiff.diff(old, new) == LineDiff.diff("caf\u{E9}\nb", "cafe\u{301}\nc"))
    }
}
