import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

@Suite struct PlanCheckTests {
    let checker = PlanChecker(headings: PlanCorpus.headings)

    @Test func corpusHeadingsMatchThePromptFile() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("prompts/headings.txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        #expect(lines == PlanCorpus.headings)
    }

    @Test(arguments: PlanCorpus.good)
    func goodPlansPass(example: PlanCorpus.Case) {
        let report = checker.check(example.plan, lessonMinutes: example.lessonMinutes)
        #expect(report == example.expected)
        #expect(report.passed)
        #expect(report.score == 0)
    }

    @Test(arguments: PlanCorpus.broken)
    func brokenPlansGetExactlyTheirProblem(example: PlanCorpus.Case) {
        let report = checker.check(example.plan, lessonMinutes: example.lessonMinutes)
        #expect(report == example.expected)
        #expect(!report.passed)
    }

    @Test func fiveEPlanPassesWithItsChecksSwitchedOff() {
        let fiveE = PlanChecker(
            headings: PlanCorpus.fiveE, cfuHeading: nil, exitTicketHeading: nil, warmUpHeading: nil, warmUpMinutes: nil
        )
        #expect(
            fiveE.check(PlanCorpus.goodFiveE, lessonMinutes: 50)
                == PlanCheckReport(problems: [], pacedMinutes: 50, lessonMinutes: 50)
        )
        // With Evaluate as the CFU section, its two questions are too few.
        let strict = PlanChecker(
            headings: PlanCorpus.fiveE, cfuHeading: "Evaluate", exitTicketHeading: nil, warmUpHeading: "Engage",
            warmUpMinutes: 5
        )
        #expect(
            strict.check(PlanCorpus.goodFiveE, lessonMinutes: 50).problems
                == [.tooFewCFUQuestions(found: 2, minimum: 3)]
        )
    }

    @Test func defaultHeadingsFindNothingInA5EPlan() {
        let report = checker.check(PlanCorpus.goodFiveE, lessonMinutes: 50)
        #expect(report.problems == PlanCorpus.headings.map(PlanProblem.missingHeading) + [.noPacing])
        #expect(report.pacedMinutes == nil)
    }

    @Test func problemsComeInAFixedOrder() {
        let plan = """
            Warm-Up (10 min)
            Guess.
            Learning Objective
            Learn.
            Exit Ticket (5 min)
            1. One?
            Check for Understanding (5 min)
            Any questions?
            Exit Ticket
            Again.
            ```
            """
        let report = checker.check(plan, lessonMinutes: 45)
        #expect(
            report.problems == [
                .missingHeading("Materials"), .missingHeading("Direct Instruction"), .missingHeading("Guided Practice"),
                .missingHeading("Independent Practice"), .missingHeading("Differentiation"),
                .missingHeading("Homework / Extension (optional)"), .duplicateHeading("Exit Ticket"),
                .outOfOrder("Warm-Up (5 min)"), .outOfOrder("Exit Ticket"), .pacingTotal(found: 20, expected: 45),
                .warmUpMinutes(found: 10, expected: 5), .tooFewCFUQuestions(found: 1, minimum: 3),
                .exitTicketPrompts(found: 1, expected: 3), .codeFence,
            ]
        )
        #expect(report.pacedMinutes == 20)
    }

    @Test func aSectionMovedToTheEndIsTheOneOutOfOrder() {
        let materials = "2) Materials\n- Leaf diagram handout\n- Colored pencils\n- Exit ticket slips\n"
        let moved = PlanCorpus.goodNumbered.replacingOccurrences(of: materials, with: "") + "\n\n11) Materials\n- Paper\n"
        #expect(checker.check(moved, lessonMinutes: 45).problems == [.outOfOrder("Materials")])
    }

    @Test func homeworkTimeIsLeftOutOfPacingUnlessAsked() {
        #expect(checker.check(PlanCorpus.goodBold, lessonMinutes: 45).pacedMinutes == 45)
        let counting = PlanChecker(headings: PlanCorpus.headings, unpacedHeadings: [])
        #expect(
            counting.check(PlanCorpus.goodBold, lessonMinutes: 45).problems == [.pacingTotal(found: 65, expected: 45)]
        )
    }

    @Test(arguments: [
        (PlanProblem.missingHeading("Materials"), "The plan has no “Materials” section."),
        (.duplicateHeading("Guided Practice"), "“Guided Practice” appears more than once; keep one section."),
        (.outOfOrder("Exit Ticket"), "“Exit Ticket” is out of order; the sections should follow the framework’s order."),
        (.pacingTotal(found: 50, expected: 45), "Pacing adds up to 50 min, not 45."),
        (.noPacing, "No section says how many minutes it takes, so the pacing cannot be checked."),
        (.warmUpMinutes(found: 10, expected: 5), "The warm-up takes 10 min; it should take 5."),
        (.tooFewCFUQuestions(found: 2, minimum: 3), "Check for Understanding has 2 questions; it needs at least 3."),
        (.tooFewCFUQuestions(found: 1, minimum: 3), "Check for Understanding has 1 question; it needs at least 3."),
        (.exitTicketPrompts(found: 2, expected: 3), "Exit Ticket has 2 prompts; it needs exactly 3."),
        (.exitTicketPrompts(found: 4, expected: 3), "Exit Ticket has 4 prompts; it needs exactly 3."),
        (.codeFence, "The plan contains a code fence (```); it should be plain text."),
    ])
    func problemsReadAsOneSentence(problem: PlanProblem, text: String) {
        #expect(problem.description == text)
    }

    @Test func reportsRankSensibly() {
        func report(_ problems: [PlanProblem]) -> PlanCheckReport {
            PlanCheckReport(problems: problems, pacedMinutes: 45, lessonMinutes: 45)
        }
        let clean = report([])
        let slightlyOff = report([.pacingTotal(found: 50, expected: 45)])
        let farOff = report([.pacingTotal(found: 60, expected: 45)])
        let broken = report([.missingHeading("Materials"), .pacingTotal(found: 50, expected: 45)])

        #expect(clean.isBetter(than: slightlyOff))
        #expect(slightlyOff.isBetter(than: farOff))
        #expect(farOff.isBetter(than: broken))
        #expect(!broken.isBetter(than: farOff))
        #expect(!slightlyOff.isBetter(than: slightlyOff))
        #expect(!clean.isBetter(than: clean))
        // Same score: the report with fewer problems wins.
        let oneStructural = report([.outOfOrder("Materials")])
        let twoSmall = report([.warmUpMinutes(found: 10, expected: 5), .warmUpMinutes(found: 10, expected: 5)])
        #expect(oneStructural.score == twoSmall.score)
        #expect(oneStructural.isBetter(than: twoSmall))
        #expect(!twoSmall.isBetter(than: oneStructural))
        // A missing section outweighs the small problems the prompt rules name.
        let allSmall = report([
            .warmUpMinutes(found: 10, expected: 5), .tooFewCFUQuestions(found: 2, minimum: 3), .codeFence,
        ])
        #expect(allSmall.isBetter(than: report([.missingHeading("Materials")])))
    }

    @Test func aRepairedPlanChecksBetterThanItsDraft() {
        let draft = checker.check(PlanCorpus.pacingFifty, lessonMinutes: 45)
        let fixed = PlanCorpus.pacingFifty.replacingOccurrences(
            of: "Independent Practice (15 min)", with: "Independent Practice (10 min)"
        )
        let repaired = checker.check(fixed, lessonMinutes: 45)
        #expect(repaired.passed)
        #expect(repaired.isBetter(than: draft))
        #expect(!draft.isBetter(than: repaired))
    }

    @Test func reportRoundTripsThroughJSONWithPassed() throws {
        let report = PlanCheckReport(
            problems: [.missingHeading("Materials"), .pacingTotal(found: 50, expected: 45), .noPacing],
            pacedMinutes: 50, lessonMinutes: 45
        )
        let data = try JSONEncoder().encode(report)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"passed\":false"))
        #expect(try JSONDecoder().decode(PlanCheckReport.self, from: data) == report)
    }

    @Test(
        arguments: [
            (["1. What is it?", "2. Why?", "3. How?"], 3),
            (["Ask these questions:", "- one", "- two", "- three"], 3),
            (["1. Which is bigger?", "   a) 1/2", "   b) 1/3", "2. Why?"], 2),
            (["1. Which is bigger?", "a) 6", "b) 8"], 1),
            (["a) first", "b) second"], 2),
            (["What is a claim?", "Why does evidence matter?", "Explain your answer."], 2),
            (["- Is it alive?", "- Answer: yes", "- Look-fors: mentions growth"], 1),
            (["Q1: Name it.", "Q2 - Draw it.", "Question 3. Explain it."], 3),
            (["- main", "  - sub", "  - sub", "- main"], 2),
            (["- During guided practice, ask:", "  - \"What gas?\"", "  - \"Where from?\"", "  - \"Used for?\""], 3),
            (["1. Answer the question in a sentence.", "2) Draw it.", "(3) Label it."], 3),
            (["\"Is it alive?\""], 1),
            (["Students write on sticky notes."], 0),
            ([], 0),
            (["1.5 cups of water"], 0),
            (["**1.** Why?", "**2.** How?", "Why not?"], 2),
            (["– first", "– second", "– third"], 3),
        ] as [([String], Int)])
    func countsItems(body: [String], count: Int) {
        #expect(PlanChecker.countItems(body) == count)
    }
}
