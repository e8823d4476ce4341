import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit

/// `/redo`'s splice (issue #38): the answer for one section goes in its place, and every other section of the
/// plan stays byte for byte, for every section of every framework.
@Suite struct SectionSpliceTests {
    /// A plan of `framework` with two lines under every heading, numbered so any change shows.
    static func plan(_ framework: Framework, ending: String = "\n") -> String {
        framework.headings.enumerated().map { index, heading in
            ["\(index + 1)) \(heading)", "- First line of part \(index + 1).", "- Second line of part \(index + 1).", ""]
                .joined(separator: ending)
        }.joined(separator: ending) + "Plan footer line." + ending
    }

    static let frameworks: [Framework] = PromptLibrary.builtIn.frameworkNames.compactMap { try? PromptLibrary.builtIn.framework($0) }

    @Test func everySectionOfEveryFrameworkIsReplacedAloneByteForByte() throws {
        #expect(Self.frameworks.count >= 5)
        for framework in Self.frameworks {
            let plan = Self.plan(framework)
            for heading in framework.headings {
                let splice = SectionSplice(plan: plan, heading: heading, headings: framework.headings)
                let answer = "\(heading)\n- A new line, written again.\n- Another new line."
                let result = try splice.splice(answer)
                #expect(
                    SectionSplice.changedSections(from: plan, to: result, headings: framework.headings) == [heading],
                    "\(framework.name) · \(heading)")
                #expect(result.contains("- A new line, written again.\n- Another new line.\n"), "\(framework.name) · \(heading)")
                // Byte for byte: the text before and after the section is the old plan's own.
                let old = PlanDocument(parsing: plan, headings: framework.headings)
                let range = try #require(old.section(heading)?.lineRange)
                let lines = SectionSplice.linesKeepingEnds(plan)
                #expect(result.hasPrefix(lines[..<range.lowerBound].joined()))
                #expect(result.hasSuffix(lines[(range.upperBound - 1)...].joined()), "\(framework.name) · \(heading)")
            }
        }
    }

    @Test func anAnswerWithoutItsHeadingGoesUnderThePlansHeadingLine() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        let plan = Self.plan(framework)
        let result = try SectionSplice(plan: plan, heading: "Materials", headings: framework.headings).splice("- Counters\n- Dice")
        #expect(result.contains("2) Materials\n- Counters\n- Dice\n\n3) Warm-Up (5 min)"), "\(result)")
    }

    @Test func whatElseTheAnswerWroteIsLeftOut() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        let plan = Self.plan(framework)
        let answer = "Materials\n- Counters\n\nWarm-Up (5 min)\n- A different warm-up the teacher did not ask for."
        let result = try SectionSplice(plan: plan, heading: "Materials", headings: framework.headings).splice(answer)
        #expect(SectionSplice.changedSections(from: plan, to: result, headings: framework.headings) == ["Materials"])
        #expect(!result.contains("did not ask for"))
    }

    @Test func windowsLineEndingsAndAMissingFinalNewlineAreKept() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        let crlf = Self.plan(framework, ending: "\r\n")
        let result = try SectionSplice(plan: crlf, heading: "Exit Ticket", headings: framework.headings).splice("Exit Ticket\n1. A\n2. B\n3. C")
        #expect(result.contains("9) Exit Ticket\r\n1. A\r\n2. B\r\n3. C\r\n"))
        #expect(!result.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let bare = "Learning Objective\nStudents will.\n\nMaterials\n- Paper"
        let last = try SectionSplice(plan: bare, heading: "Materials", headings: framework.headings).splice("- Pencils")
        #expect(last == "Learning Objective\nStudents will.\n\nMaterials\n- Pencils")
    }

    @Test func anEmptyAnswerOrAMissingSectionIsRefused() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        let plan = Self.plan(framework)
        // A model that sends the whole plan back as it was changes nothing: no new version.
        #expect(throws: SectionSplice.Failure.unchanged("Materials")) {
            try SectionSplice(plan: plan, heading: "Materials", headings: framework.headings).splice(plan)
        }
        #expect(throws: SectionSplice.Failure.emptyAnswer("Materials")) {
            try SectionSplice(plan: plan, heading: "Materials", headings: framework.headings).splice("  \n")
        }
        #expect(throws: SectionSplice.Failure.noSection("Materials")) {
            try SectionSplice(plan: "Learning Objective\nStudents will.", heading: "Materials", headings: framework.headings).splice("- Paper")
        }
    }

    @Test func aSectionIsNamedByNamePrefixOrNumber() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        #expect(try RedoCommand.section(named: "warm-up more hands-on", framework: framework) == ("Warm-Up (5 min)", "more hands-on"))
        #expect(try RedoCommand.section(named: "exit ticket", framework: framework) == ("Exit Ticket", ""))
        #expect(try RedoCommand.section(named: "6", framework: framework) == ("Independent Practice", ""))
        #expect(try RedoCommand.section(named: "guided shorter steps", framework: framework) == ("Guided Practice", "shorter steps"))
        #expect(throws: CommandError.self) { try RedoCommand.section(named: "d", framework: framework) }
        #expect(throws: CommandError.self) { try RedoCommand.section(named: "11", framework: framework) }
        #expect(throws: CommandError.self) { try RedoCommand.section(named: "lunch", framework: framework) }
    }
}
