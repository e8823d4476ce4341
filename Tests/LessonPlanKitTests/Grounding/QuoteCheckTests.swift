import Foundation
import LessonPlanKit
import LessonPlanCore
import Testing

/// Quotations found in an answer and checked by code against pages of known text.
@Suite struct QuoteCheckTests {
    let book = SourceDocument(
        name: "tides.pdf", path: "/nowhere/tides.pdf", bytes: 10, sha256: "",
        pages: [
            "The tide rises and falls twice each day along the coast.\nSailors learned to read the moon for warn-\nings of the coming spring tides. The moon’s pull is strong.",
            "The gravity of the moon pulls the oceans toward it,\nand the water bulges on the near side.",
            "Neap tides come when the sun and the moon pull at right angles.",
        ], paged: true)

    init() {}

    @Test func verifiedWrongPageAndNotInTheSource() {
        let answer = """
            Read aloud: "The gravity of the moon pulls the oceans toward it" (p. 2).
            Then: “Neap tides come when the sun and the moon pull at right angles” (p. 1).
            Finally, "The moon is made of green cheese" (p. 3).
            """
        let report = QuoteChecker.check(answer, against: [book])
        #expect(report.verdicts.map { $0.result } == [.verified, .wrongPage(found: 3), .notInSource])
        #expect(report.footer == "✗ 1 quote not in the source, 1 quote on the wrong page, 1 verified")
        #expect(report.problems.count == 2)
        #expect(report.problems[0].sentence.contains("is on page 3, not page 1: cite it as (p. 3)"))
    }

    @Test func normalisingLineBreaksHyphensQuotesAndCase() {
        let answer = """
            "sailors LEARNED to read the moon for warnings of the coming spring tides." (p. 1) and
            “The moon's pull is strong.” (p. 1) and
            "Sailors learned to read the moon for warn-ings" (p. 1) and
            "the water bulges on\nthe near side" (p. 2) and "it, and the water bulges" (p. 2)
            """
        let report = QuoteChecker.check(answer, against: [book])
        #expect(report.verdicts.allSatisfy { $0.result == .verified }, "\(report.verdicts)")
        #expect(report.footer == "✓ \(report.verdicts.count) quotes verified")
    }

    @Test func aQuoteRunningOverThePageBreakIsOnItsFirstPage() {
        let spanning = #""warnings of the coming spring tides. The gravity of the moon" (p. 1)"#
        let pages = SourceDocument(
            name: "a.txt", path: "/x", bytes: 1, sha256: "",
            pages: ["warnings of the coming spring tides.", "The gravity of the moon pulls."], paged: false)
        #expect(QuoteChecker.check(spanning, against: [pages]).verdicts.map { $0.result } == [.verified])
    }

    @Test func shortQuotedWordsAndUncitedQuotesAreNotQuotations() {
        let answer = #"The word "neap tides" (p. 3) and "a spring tide" (p. 1) and "The gravity of the moon pulls" with no page."#
        #expect(QuoteChecker.check(answer, against: [book]).verdicts.isEmpty)
    }

    @Test func ellipsisPartsMustAllBeOnThePageInOrder() {
        let right = #""The tide rises … twice each day" (p. 1)"#
        let reversed = #""twice each day ... The tide rises" (p. 1)"#
        #expect(QuoteChecker.check(right, against: [book]).verdicts.map { $0.result } == [.verified])
        #expect(QuoteChecker.check(reversed, against: [book]).verdicts.map { $0.result } == [.notInSource])
    }

    @Test func withSeveralSourcesTheCiteNamesTheFile() {
        let notes = SourceDocument(
            name: "notes.docx", path: "/x", bytes: 1, sha256: "",
            pages: ["Students should never turn their back on the incoming tide."], paged: false)
        let answer = """
            "Students should never turn their back" (notes.docx p. 1)
            "Students should never turn their back" (tides.pdf p. 1)
            "The tide rises and falls twice" (tides p. 1)
            """
        let report = QuoteChecker.check(answer, against: [book, notes])
        #expect(report.verdicts.map { $0.result } == [.verified, .notInSource, .verified])
        #expect(report.verdicts.map { $0.file } == ["notes.docx", "tides.pdf", "tides"])
    }

    @Test func withoutSourcesNothingIsChecked() {
        #expect(QuoteChecker.check(#""The tide rises and falls" (p. 1)"#, against: []).footer == nil)
    }
}
