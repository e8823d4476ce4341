import Foundation
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

    /// One quoted word is a term; two or three words with a page are a quotation like any other, so an invented
    /// one beside a real one is never hidden behind "✓ 1 quote verified".
    @Test func oneQuotedWordAndUncitedQuotesAreNotQuotationsButShortCitedOnesAre() {
        let terms = #"The word "neap" (p. 3) and "The gravity of the moon pulls" with no page."#
        #expect(QuoteChecker.check(terms, against: [book]).verdicts.isEmpty)
        let short = #"The book says "neap tides" (p. 3) and "a spring tide" (p. 1)."#
        let report = QuoteChecker.check(short, against: [book])
        #expect(report.verdicts.map(\.result) == [.verified, .notInSource])
        #expect(report.footer != "✓ 1 quote verified")
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

    /// Words match whole: a part of a word is not the word, in a source or in a plan's text for /review.
    @Test func aPartOfAWordIsNotTheWord() {
        let rules = SourceDocument(
            name: "rules.txt", path: "/x", bytes: 1, sha256: "",
            pages: ["It is illegal to swim in the quarry after dark.", "Teachers explain the key ideas first."], paged: false)
        let answer = #""legal to swim in the quarry after dark" (p. 1) and "It is illegal to swim in the quarry" (p. 1)"#
        #expect(QuoteChecker.check(answer, against: [rules]).verdicts.map(\.result) == [.notInSource, .verified])
        #expect(!QuoteChecker.isQuoted("plain the key ideas", in: "Teachers explain the key ideas first."))
        #expect(QuoteChecker.isQuoted("explain the key ideas", in: "Teachers explain the key ideas first."))
        #expect(!QuoteChecker.isQuoted("the key ide", in: "Teachers explain the key ideas first."))
    }

    /// An ellipsis shortens a sentence: a part of one letter, or parts far apart, verify nothing.
    @Test func ellipsisPartsAreBounded() {
        let vowels = #""a ... e ... i ... o" (p. 1)"#
        #expect(QuoteChecker.check(vowels, against: [book]).verdicts.map(\.result) == [.tooLittleAroundEllipsis])
        let single = #""The tide rises and falls … a … e … i" (p. 1)"#
        #expect(QuoteChecker.check(single, against: [book]).verdicts.map(\.result) == [.tooLittleAroundEllipsis])
        #expect(!QuoteChecker.isQuoted("Teachers … first", in: "Teachers explain the key ideas first."))
        let far = String(repeating: "filler words here ", count: 40)
        let long = SourceDocument(name: "l.txt", path: "/x", bytes: 1, sha256: "", pages: ["The tide rises " + far + "the moon pulls."], paged: false)
        #expect(QuoteChecker.check(#""The tide rises … the moon pulls" (p. 1)"#, against: [long]).verdicts.map(\.result) == [.notInSource])
        let near = SourceDocument(
            name: "n.txt", path: "/x", bytes: 1, sha256: "", pages: ["The tide rises slowly, and then the moon pulls."], paged: false)
        #expect(QuoteChecker.check(#""The tide rises … the moon pulls" (p. 1)"#, against: [near]).verdicts.map(\.result) == [.verified])
    }

    /// A quotation wholly on the next page is on the wrong page, even though a quote may run over onto it.
    @Test func aQuoteWhollyOnTheNextPageIsNotOnTheCitedOne() {
        let cited = #""The gravity of the moon pulls the oceans" (p. 1)"#
        #expect(QuoteChecker.check(cited, against: [book]).verdicts.map(\.result) == [.wrongPage(found: 2)])
        let range = #""The gravity of the moon pulls the oceans" (pp. 1-2) and "Neap tides come when the sun" (pp. 1-2)"#
        #expect(QuoteChecker.check(range, against: [book]).verdicts.map(\.result) == [.verified, .wrongPage(found: 3)])
    }

    /// Canonical forms fold ("é" written two ways), compatibility forms do not ("10²" is not "102").
    @Test func noCompatibilityFolding() {
        let science = SourceDocument(
            name: "s.txt", path: "/x", bytes: 1, sha256: "",
            pages: ["The population grew to 102 people by the year 1900.\nThe café re\u{301}sume\u{301} is ﬁnished here."], paged: false)
        let answer = #""The population grew to 10² people" (p. 1) "The café résumé is finished" (p. 1)"#
        #expect(QuoteChecker.check(answer, against: [science]).verdicts.map(\.result) == [.notInSource, .verified])
    }

    /// Every usual kind of quotation mark, page ranges, huge page numbers and long quotations get a verdict.
    @Test func everyFormGetsAVerdict() {
        let lines = "The gravity of the moon\npulls the oceans\ntoward it,\nand the water\nbulges on the near side"
        let answer = """
            'The tide rises and falls twice' (p. 1) and ‘The moon’s pull is strong’ (p. 1),
            « Neap tides come when the sun » (p. 3) and „Neap tides come when the sun“ (p. 3),
            »Neap tides come when the sun« (p. 3) and "The gravity of the moon pulls" (pp. 2-3),
            "Neap tides come when the sun" (p. 99999999999999999999999999) and "\(lines)" (p. 2),
            "The gravity of the moon pulls" (page two)
            """
        let report = QuoteChecker.check(answer, against: [book])
        #expect(
            report.verdicts.map(\.result) == [
                .verified, .verified, .verified, .verified, .verified, .verified, .wrongPage(found: 3), .verified, .wrongPage(found: 2),
            ], "\(report.verdicts.map(\.quote))")
        #expect(report.verdicts[6].sentence.contains("not page 99999999999999999999999999"))
        #expect(report.verdicts[5].cite == "(pp. 2-3)")
    }

    /// An apostrophe never opens a quotation: the quotation is the words after the opening mark.
    @Test func apostrophesDoNotOpenQuotations() {
        let answer = "The students' task: 'The tide rises and falls twice' (p. 1)."
        #expect(QuoteChecker.quotations(in: answer).map(\.quote) == ["The tide rises and falls twice"])
    }

    /// A real quotation beside an invented one in a form once unchecked is not "✓ 1 quote verified".
    @Test func anInventedQuotationBesideARealOneIsAProblem() {
        let answer = #""The tide rises and falls twice" (p. 1). «The moon is made of green cheese» (p. 2)"#
        let report = QuoteChecker.check(answer, against: [book])
        #expect(report.footer == "✗ 1 quote not in the source, 1 verified")
        #expect(report.problems.count == 1)
    }

    /// With several sources a cite without a file name is not accepted, and a verified one says which file.
    @Test func withSeveralSourcesACiteWithoutAFileIsNotAccepted() {
        let notes = SourceDocument(
            name: "notes.docx", path: "/x", bytes: 1, sha256: "",
            pages: ["Page one of the notes.", "Students should never turn their back on the incoming tide."], paged: false)
        let third = SourceDocument(name: "map.md", path: "/x", bytes: 1, sha256: "", pages: ["A map."], paged: false)
        let answer = #""Students should never turn their back" (p. 2) and "Students should never turn their back" (notes.docx, p. 2)"#
        let report = QuoteChecker.check(answer, against: [book, notes, third])
        #expect(report.verdicts.map(\.result) == [.unnamedSource(source: "notes.docx", page: 2), .verified])
        #expect(report.verdicts[0].sentence.contains("cite it as (notes.docx p. 2)"))
        #expect(report.verdicts[1].sentence.contains("verified on page 2 of notes.docx"), "\(report.verdicts[1].sentence)")
        #expect(report.footer == "✗ 1 quote naming no source, 1 verified")
    }

    @Test func withoutSourcesNothingIsChecked() {
        #expect(QuoteChecker.check(#""The tide rises and falls" (p. 1)"#, against: []).footer == nil)
    }
}
