import Foundation
import Testing

@testable import LessonPlanCore

/// The standards compiled into the binary: a code in any usual form finds its real text, an invented one is
/// named with the nearest real codes, and a standard knows its grades.
@Suite struct StandardsCatalogTests {
    let catalog = StandardsCatalog.builtIn

    @Test func theEmbeddedFileHoldsEachSet() {
        for subject in Standard.Subject.allCases {
            #expect(catalog.standards.filter { $0.subject == subject && !$0.isHeading }.count > 150, "\(subject)")
        }
    }

    @Test(arguments: ["4.NF.1", "4.nf.a.1", "CCSS.MATH.CONTENT.4.NF.A.1", " ccss.math.content.4.nf.a.1. "])
    func aCodeInAnyUsualFormIsOneStandard(typed: String) throws {
        let standard = try #require(catalog.standard(for: typed))
        #expect(standard.code == "4.NF.A.1")
        #expect(standard.grades == [4])
        #expect(standard.text.hasPrefix("Explain why a fraction a/b is equivalent to a fraction (n × a)/(n × b)"))
    }

    @Test func componentsAndHighSchoolCodesAreReadEachWay() {
        for typed in ["6.EE.2c", "6.EE.A.2.c", "6.ee.2.c", "CCSS.Math.Content.6.EE.A.2c"] {
            #expect(catalog.standard(for: typed)?.code == "6.EE.A.2c", "\(typed)")
        }
        for typed in ["A-APR.1", "HSA-APR.A.1", "hsa.apr.a.1", "A.APR.1"] {
            #expect(catalog.standard(for: typed)?.code == "HSA-APR.A.1", "\(typed)")
        }
        #expect(catalog.standard(for: "CCSS.ELA-Literacy.RL.5.2")?.code == "RL.5.2")
        #expect(catalog.standard(for: "MP.1")?.code == "MP1")
    }

    @Test func anInventedCodeGetsTheClosestRealOnesOfItsGradeAndDomain() {
        #expect(catalog.standard(for: "4.NF.9") == nil)
        let near = catalog.suggestions(for: "4.NF.9")
        #expect(near.map(\.code) == ["4.NF.A.1", "4.NF.A.2"])
        #expect(
            catalog.unknownSentence(for: "4.NF.9")
                == "4.NF.9 is not a Common Core standard; 4.NF.A.1 (Explain why a fraction a/b is equivalent to a fraction (n …) is closest, then 4.NF.A.2."
        )
        #expect(catalog.unknownSentence(for: "MS-LS1-9").hasPrefix("MS-LS1-9 is not an NGSS performance expectation; MS-LS1-"))
        #expect(catalog.unknownSentence(for: "QQQ-77").contains("no real code is near it"))
    }

    @Test func anNGSSExpectationCarriesItsBoundaryAndItsBand() throws {
        let standard = try #require(catalog.standard(for: "ms-ls1-6"))
        #expect(standard.code == "MS-LS1-6" && standard.subject == .science)
        #expect(standard.grades == [6, 7, 8] && standard.gradeText == "grades 6–8")
        #expect(standard.parent == "MS-LS1")
        #expect(standard.clarification == "Emphasis is on tracing movement of matter and flow of energy.")
        #expect(standard.boundary == "Assessment does not include the biochemical mechanisms of photosynthesis.")
        #expect(!standard.isInside(.threeTo5))
        #expect(standard.isInside(.sixTo8))
        #expect(StandardsCatalog.outsideBandSentence(standard, band: .threeTo5) == "MS-LS1-6 is for grades 6–8, not the lesson's 3–5.")
        // An anchor standard is for every grade, so no band is outside it.
        let anchor = try #require(catalog.standard(for: "CCRA.R.1"))
        #expect(GradeBand.allCases.allSatisfy { anchor.isInside($0) })
    }

    @Test func searchFindsByWordsSubjectAndGrade() {
        let found = catalog.search(["photosynthesis"], subject: .science, grades: 6...8)
        #expect(found.map(\.code).contains("MS-LS1-6"))
        #expect(catalog.search(["photosynthesis"], subject: .math).isEmpty)
        let fractions = catalog.search(["equivalent", "fraction"], subject: .math, grades: 4...4)
        #expect(fractions.first?.code == "4.NF.A.1")
        #expect(fractions.allSatisfy { $0.grades == [4] && !$0.isHeading })
    }

    @Test func onlyCodeShapedTextIsLookedUp() {
        for code in ["4.NF.9", "MS-LS1-6", "RL.5.2", "CCSS.MATH.CONTENT.4.NF.A.1", "K-PS2-1,"] {
            #expect(StandardsCatalog.looksLikeCode(code), "\(code)")
        }
        for words in ["fractions on a number line", "photosynthesis", "grade 4", "", "CCSS"] {
            #expect(!StandardsCatalog.looksLikeCode(words), "\(words)")
        }
    }

    @Test func aDamagedLineCostsOneStandardNotTheCatalogue() {
        let header = "subject\tcode\tfull\talt\tgrades\tkind\tparent\ttext\tclarification\tboundary"
        let good = "math\t4.NF.A.1\tCCSS.Math.Content.4.NF.A.1\t4.NF.1\t4\tStandard\t4.NF.A\tExplain.\t\t"
        let small = StandardsCatalog(tsv: [header, "math\tbroken", "poetry\tX.1\t\t\t4\tStandard\t\tt\t\t", good].joined(separator: "\n"))
        #expect(small.standards.map(\.code) == ["4.NF.A.1"])
        #expect(small.standard(for: "4.nf.1")?.text == "Explain.")
        #expect(StandardsCatalog(tsv: "").standard(for: "4.NF.1") == nil)
    }

    @Test func theSubcommandPrintsTextsAndNamesTheUnknown() async {
        let (status, host) = await SubcommandTableTests.run(["standards", "4.NF.1", "4.NF.9", "MS-LS1-6"])
        #expect(status == 1)
        #expect(host.lines.first == "4.NF.A.1 · Common Core Mathematics · grade 4")
        #expect(host.lines.contains("  Assessment boundary: Assessment does not include the biochemical mechanisms of photosynthesis."))
        #expect(host.errors.count == 1 && host.errors.first?.hasPrefix("4.NF.9 is not a Common Core standard; 4.NF.A.1") == true)
        let (known, _) = await SubcommandTableTests.run(["standards", "4.NF.1,RL.5.2"])
        #expect(known == 0)
        let (bare, empty) = await SubcommandTableTests.run(["standards"])
        #expect(bare == 2 && empty.errors.count == 1)
        let (badSubject, wrong) = await SubcommandTableTests.run(["standards", "search", "x", "--subject", "art"])
        #expect(badSubject == 2 && wrong.errors == ["standards search: --subject is math, ela or science, not “art”."])
    }

    @Test func aboutPrintsTheNotices() async throws {
        let (status, host) = await SubcommandTableTests.run(["standards", "--about"])
        #expect(status == 0)
        let page = try #require(host.pages.first)
        #expect(
            page.contains(
                "© Copyright 2010. National Governors Association Center for Best Practices and Council of Chief State School Officers. All rights reserved."
            ))
        #expect(
            page.contains(
                "NGSS is a registered trademark of Achieve. Neither Achieve nor the lead states and partners that developed the NGSS were involved in the production of this product, and do not endorse it."
            ))
        #expect(page.contains("CC BY 3.0 US") && page.contains("D2L Corporation"))
    }
}
