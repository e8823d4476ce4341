import CoreTestSupport
import Foundation
import Testing

@testable import LessonPlanCore

/// The codes a plan, quiz or teacher cites, resolved against the catalogue (issue #41): invented ones are
/// problems, real ones for another band advice, and numbers that only look like codes are left alone.
@Suite struct StandardsCodesTests {
    let catalog = StandardsCatalog.builtIn
    let framework: Framework = (try? PromptLibrary.builtIn.framework("default")) ?? Framework(name: "default", headings: [])

    @Test func codesAreReadInTheirUsualFormsAndNumbersAreNot() {
        let text = """
            Standards: CCSS.MATH.CONTENT.4.NF.A.1 (equivalent fractions), 4.NF.9; NGSS MS-LS1-6. RL.5.2: theme.
            Minutes 0–5, 5-17 and 10:05; H2O, CO2, K-2, grades 3-5, U-235, step 1.2, RL.5 and Al2O3.
            """
        let cited = catalog.cited(in: text)
        #expect(cited.map(\.typed) == ["CCSS.MATH.CONTENT.4.NF.A.1", "4.NF.9", "MS-LS1-6", "RL.5.2"])
        #expect(cited.map { $0.standard?.code } == ["4.NF.A.1", nil, "MS-LS1-6", "RL.5.2"])
    }

    @Test func aPlanCitingOneRealAndOneInventedCodeGetsAProblemForTheInventedOneOnly() throws {
        let plan = PlanFixtures.passing(minutes: 45, topic: "Fractions").replacingOccurrences(
            of: "Materials\n", with: "Standards: 4.NF.A.1 and 4.NF.9\n\nMaterials\n")
        let report = framework.check(plan, lessonMinutes: 45, topic: "Fractions", grade: .threeTo5)
        let standards = (report.notes ?? []).filter { [ContentNote.Kind.unknownStandard, .standardOutsideBand, .pastBoundary].contains($0.kind) }
        #expect(standards.count == 1, "\(standards)")
        let note = try #require(standards.first)
        #expect(note.kind == .unknownStandard && !note.isAdvice)
        #expect(note.description.hasPrefix("Learning Objective: 4.NF.9 is not a Common Core standard; 4.NF.A.1 ("), "\(note)")
        #expect(report.contentProblems.contains(note))
        // Without the invented code the plan has no standards finding at all.
        let fixed = framework.check(plan.replacingOccurrences(of: " and 4.NF.9", with: ""), lessonMinutes: 45, topic: "Fractions", grade: .threeTo5)
        #expect(!(fixed.notes ?? []).contains { $0.kind == .unknownStandard || $0.kind == .standardOutsideBand })
    }

    @Test func aRealCodeForAnotherBandIsAdvice() throws {
        let plan = PlanFixtures.passing(minutes: 45, topic: "Plants").replacingOccurrences(
            of: "Materials\n", with: "Aligned to MS-LS1-6.\n\nMaterials\n")
        let report = framework.check(plan, lessonMinutes: 45, topic: "Plants", grade: .threeTo5)
        let note = try #require((report.notes ?? []).first { $0.kind == .standardOutsideBand })
        #expect(note.isAdvice)
        #expect(note.description.contains("MS-LS1-6 is for grades 6–8, not the lesson's 3–5."), "\(note)")
        #expect(!(framework.check(plan, lessonMinutes: 45, topic: "Plants", grade: .sixTo8).notes ?? []).contains { $0.kind == .standardOutsideBand })
    }

    @Test func aLinePastAnAssessmentBoundaryIsNamed() throws {
        let words = StandardsFindings.boundaryWords(of: try #require(catalog.standard(for: "MS-LS1-6")))
        #expect(words.contains("biochem") && words.contains("mechani"), "\(words)")
        let plan = PlanFixtures.passing(minutes: 45, topic: "Photosynthesis").replacingOccurrences(
            of: "Materials\n", with: "Standard: MS-LS1-6\n\nMaterials\n"
        ).replacingOccurrences(of: "Exit Ticket\n", with: "Exit Ticket\n1. Describe the biochemical mechanisms of the Calvin cycle.\n")
        let report = framework.check(plan, lessonMinutes: 45, topic: "Photosynthesis", grade: .sixTo8)
        let note = try #require((report.notes ?? []).first { $0.kind == .pastBoundary })
        #expect(note.isAdvice)
        #expect(note.description.contains("may go past MS-LS1-6's assessment boundary"), "\(note)")
        #expect(note.quote.contains("biochemical mechanisms"))
        let quizItems = [(label: "Item 1", text: "Which gas do plants take in?"), (label: "Item 2", text: "Which biochemical pathway fixes carbon?")]
        let sentences = StandardsFindings.pastBoundaries(quizItems, citedIn: "MS-LS1-6: Construct a scientific explanation")
        #expect(sentences.count == 1 && sentences[0].hasPrefix("Item 2: "), "\(sentences)")
    }

    @Test func typedStandardsAreResolvedAndWhatIsWrongIsSaidOnce() {
        let resolved = StandardsResolution("4.NF.1; 4.NF.9\nMS-LS1-6\nStudents compare fractions", band: .threeTo5)
        #expect(resolved.concerns.count == 2, "\(resolved.concerns)")
        #expect(resolved.concerns[0].hasPrefix("4.NF.9 is not a Common Core standard; 4.NF.A.1 ("))
        #expect(resolved.concerns[1] == "MS-LS1-6 is for grades 6–8, not the lesson's 3–5.")
        let lines = resolved.text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("4.NF.A.1: Explain why a fraction a/b is equivalent"))
        #expect(lines[1] == "4.NF.9")
        #expect(
            lines[2].hasPrefix("MS-LS1-6: Construct a scientific explanation")
                && lines[2].contains("Assessment boundary: Assessment does not include the biochemical"))
        #expect(lines[3] == "Students compare fractions")
        #expect(resolved.quotable[0].hasPrefix("Explain why a fraction a/b"))
        // Words alone, or real codes in the band, raise nothing.
        #expect(StandardsResolution("Explain equivalent fractions; 4.NF.A.2", band: .threeTo5).concerns.isEmpty)
        // A teacher's own words after a code stay beside the real text.
        #expect(StandardsResolution("4.NF.1 — with number lines", band: .threeTo5).text.hasSuffix(" — with number lines"))
    }
}
