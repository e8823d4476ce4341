import Foundation
import LessonPlanKit
import Testing

@Suite struct PlanDocumentTests {
    let headings = PlanCorpus.headings

    @Test(arguments: [
        ("1) Learning Objective", "Learning Objective", nil),
        ("1. Materials", "Materials", nil),
        ("2 - Materials", "Materials", nil),
        ("(2) Materials", "Materials", nil),
        ("Step 3: Warm-Up (5 min)", "Warm-Up (5 min)", 5),
        ("## Warm Up (5 minutes)", "Warm-Up (5 min)", 5),
        ("### Warmup", "Warm-Up (5 min)", nil),
        ("**WARM-UP:**", "Warm-Up (5 min)", nil),
        ("__Warm-Up__ — 10 minutes", "Warm-Up (5 min)", 10),
        ("  Direct Instruction   (10 min):  ", "Direct Instruction", 10),
        ("Direct Instruction – 12 minutes", "Direct Instruction", 12),
        ("Direct Instruction: 10 min", "Direct Instruction", 10),
        ("IV. Direct Instruction", "Direct Instruction", nil),
        ("Guided Practice (15–25 min)", "Guided Practice", 10),
        ("Guided Practice (minutes 15-25)", "Guided Practice", 10),
        ("**Guided Practice (about 8 mins)**", "Guided Practice", 8),
        ("Guided Practice (pairs, about 10 min)", "Guided Practice", 10),
        ("Guided Practice — 10 minutes (pairs)", "Guided Practice", 10),
        ("Indépendent practice", "Independent Practice", nil),
        ("(8) Check for Understanding (CFU)", "Check for Understanding", nil),
        ("**Check For Understanding (CFU)** — 5 minutes", "Check for Understanding", 5),
        ("Check for Understanding (ongoing)", "Check for Understanding", nil),
        ("B) Exit Ticket [5 min]", "Exit Ticket", 5),
        ("*Exit Ticket*", "Exit Ticket", nil),
        ("Step 9 - Exit Ticket", "Exit Ticket", nil),
        ("Exit Ticket (3 prompts)", "Exit Ticket", nil),
        ("Homework/Extension", "Homework / Extension (optional)", nil),
        ("Homework / Extension (optional)", "Homework / Extension (optional)", nil),
        ("10) Homework & Extension (Optional):", "Homework / Extension (optional)", nil),
    ] as [(String, String, Int?)])
    func recognisesDecoratedHeadings(line: String, heading: String, minutes: Int?) {
        let match = PlanDocument.matchHeading(line, in: headings)
        #expect(match?.heading == heading && match?.minutes == minutes)
    }

    @Test(arguments: [
        "", "Materials: pencils, paper", "Warm-Up activity", "- Exit Ticket", "> Exit Ticket", "The exit ticket",
        "Check for understanding questions", "1) What is the main idea?", "Warm-Up (5 min) Students pair up",
        "Practice", "5 min",
    ])
    func leavesBodyLinesAlone(line: String) {
        #expect(PlanDocument.matchHeading(line, in: headings) == nil)
    }

    @Test func keysIgnoreCaseSpacingPunctuationAndParentheses() {
        #expect(PlanDocument.key("Warm-Up (5 min)") == "warmup")
        #expect(PlanDocument.key("Homework / Extension (optional)") == "homeworkextension")
        #expect(PlanDocument.key("Check for Understanding") == "checkforunderstanding")
    }

    @Test func cutsPlanIntoSectionsWithPreambleRangesAndBodies() {
        let plan = "Title line\n\n1) Materials\n- pencils\n\n2) Warm-Up (5 min)\nThink of a number.\n\n\n3) Exit Ticket\n"
        let structure = PlanDocument(parsing: plan, headings: headings)
        #expect(structure.title == ["Title line"])
        #expect(
            structure.sections == [
                PlanSection(heading: "Materials", title: "1) Materials", lineRange: 2..<5, body: ["- pencils"], minutes: nil),
                PlanSection(
                    heading: "Warm-Up (5 min)", title: "2) Warm-Up (5 min)", lineRange: 5..<9,
                    body: ["Think of a number."], minutes: 5
                ),
                PlanSection(heading: "Exit Ticket", title: "3) Exit Ticket", lineRange: 9..<11, body: [], minutes: nil),
            ]
        )
        #expect(structure.section("Exit Ticket")?.lineRange == 9..<11)
        #expect(structure.section("Differentiation") == nil)
    }

    @Test func readsCRLFAndCRLineEndings() {
        let crlf = PlanDocument(parsing: "Materials\r\nPaper\r\nWarm-Up\r\n0-5 min: draw", headings: headings)
        #expect(crlf.sections.map(\.heading) == ["Materials", "Warm-Up (5 min)"])
        #expect(crlf.sections.map(\.body) == [["Paper"], ["0-5 min: draw"]])
        #expect(crlf.sections.last?.minutes == 5)
        let cr = PlanDocument(parsing: "Materials\rPaper", headings: headings)
        #expect(cr.sections.first?.body == ["Paper"])
    }

    @Test func planWithoutHeadingsIsAllPreamble() {
        let structure = PlanDocument(parsing: "Just some text\nabout plants.", headings: headings)
        #expect(structure.sections.isEmpty)
        #expect(structure.title == ["Just some text", "about plants."])
    }

    // MARK: Minutes

    @Test(arguments: [
        (["0–5 min: hook", "5–12 min: model"], 12),
        (["15–22 min: partners sort", "22–25 min: share out"], 10),
        (["(minutes 15–25)"], 10),
        (["3 to 8 mins: silent reading"], 5),
        (["Think (2 min)", "Pair (3 min)", "Share for 5 minutes."], 10),
        (["20–30 min: sort cards", "Give 2 min of think time first."], 10),
        (["Partners talk for 4 minutes.", "Total time: 45 minutes"], 4),
    ] as [([String], Int)])
    func bodyTimesGiveMinutes(body: [String], minutes: Int) {
        #expect(PlanDocument.bodyMinutes(body) == minutes)
    }

    @Test(arguments: [
        ["Watch a 5-minute video."], ["Read pages 5-15."], ["Work in groups of 3-4."],
        ["10:00–10:15 Model the steps."], ["Objective: compare fractions."], [],
    ])
    func otherNumbersAreNotTimes(body: [String]) {
        #expect(PlanDocument.bodyMinutes(body) == nil)
    }

    @Test func headingTimeWinsOverBody() {
        let match = HeadingMatch(heading: "Direct Instruction", minutes: 10)
        #expect(PlanDocument.sectionMinutes(headingLine: match, body: ["0–15 min: model"]) == 10)
        #expect(PlanDocument.sectionMinutes(headingLine: match, body: []) == 10)
    }

    @Test func copiedTemplateTimeGivesWayToBodyTimes() {
        let copied = HeadingMatch(heading: "Warm-Up (5 min)", minutes: 5)
        #expect(PlanDocument.sectionMinutes(headingLine: copied, body: ["Do-now for 10 minutes."]) == 10)
        #expect(PlanDocument.sectionMinutes(headingLine: copied, body: ["Do-now."]) == 5)
        let changed = HeadingMatch(heading: "Warm-Up (5 min)", minutes: 10)
        #expect(PlanDocument.sectionMinutes(headingLine: changed, body: ["0–5 min: do-now"]) == 10)
    }

    @Test func untimedSectionsHaveNoMinutes() {
        let structure = PlanDocument(parsing: PlanCorpus.goodNumbered, headings: headings)
        let untimed = structure.sections.filter { $0.minutes == nil }.map(\.heading)
        #expect(untimed == ["Learning Objective", "Materials", "Differentiation", "Homework / Extension (optional)"])
    }
}
