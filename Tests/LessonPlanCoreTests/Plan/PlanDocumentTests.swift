import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

@Suite struct PlanDocumentTests {
    let headings = PlanCorpus.headings

    @Test(
        arguments: [
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

    @Test(
        arguments: [
            (["0–5 min: hook", "5–12 min: model"], 12),
            (["15–22 min: partners sort", "22–25 min: share out"], 10),
            (["(minutes 15–25)"], 10),
            (["3 to 8 mins: silent reading"], 5),
            (["Think (2 min)", "Pair (3 min)", "Share (5 min)."], 10),
            // Pacing is read where plans state it: a duration inside a sentence is an instruction (issue #34).
            (["Think (2 min)", "Pair (3 min)", "Share for 5 minutes."], 5),
            (["10 min: stations", "Switch every 10 minutes.", "Start a 10 minute timer."], 10),
            (["0–5 min: hook", "Give them about 6 minutes to sketch."], 5),
            (["Students sort evidence cards (7 min), then share the strongest (3 min)."], 10),
            (["10 minutes:", "- Partners quiz each other."], 10),
            // With no stamp at all, the first duration of the first line is the section's.
            (["Students have 10 minutes to sort the cards.", "Give them about 6 minutes more if needed."], 10),
            (["20–30 min: sort cards", "Give 2 min of think time first."], 10),
            (["Partners talk for 4 minutes.", "Total time: 45 minutes"], 4),
            // A wall clock places nothing on the lesson's clock, but says how long.
            (["10:00–10:15 Model the steps."], 15),
            (["(9:05–9:10) Show the pose.", "(9:10–9:16) Try it."], 11),
            (["(0:05–0:10) Show the pose.", "Hold it for 5 seconds."], 5),
            (["0:05–0:10: Show the pose."], 5),
        ] as [([String], Int)])
    func bodyTimesGiveMinutes(body: [String], minutes: Int) {
        #expect(PlanDocument.bodyMinutes(body) == minutes)
    }

    @Test(arguments: [
        ["Watch a 5-minute video."], ["Read pages 5-15."], ["Work in groups of 3-4."],
        ["Objective: compare fractions."], [],
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

    /// A line such as "Kindergarten Math (30 minutes)" under the objective names the lesson's length, not the
    /// objective's: a section the framework gives no time takes one only from its heading or its first line's stamp.
    @Test func aTitleUnderTheObjectiveIsNotItsTime() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        let plan = PlanFixtures.passing(minutes: 30).replacingOccurrences(
            of: "Learning Objective\n", with: "Learning Objective\nKindergarten Math (30 minutes)\n")
        #expect(plan.contains("Kindergarten Math (30 minutes)"))
        #expect(framework.document(of: plan).section("Learning Objective")?.minutes == nil)
        #expect(framework.check(plan, lessonMinutes: 30).problems.isEmpty)
        let stamped = plan.replacingOccurrences(of: "Kindergarten Math (30 minutes)", with: "(2 min) Read the objective aloud.")
        #expect(framework.document(of: stamped).section("Learning Objective")?.minutes == 2)
    }

    /// A label before a heading's time (`— Time: 12 min`, `| Duration: 12 minutes`) goes with the time: the line
    /// is still the heading, with its minutes.
    @Test(arguments: ["## Direct Instruction — Time: 12 min", "Direct Instruction | Duration: 12 minutes", "**Direct Instruction, about 12 min**"])
    func aLabelBeforeAHeadingsTimeGoesWithIt(line: String) {
        let match = PlanDocument.matchHeading(line, in: ["Direct Instruction", "Guided Practice"])
        #expect(match?.heading == "Direct Instruction" && match?.minutes == 12, "\(line): \(String(describing: match))")
    }

    @Test func untimedSectionsHaveNoMinutes() {
        let structure = PlanDocument(parsing: PlanCorpus.goodNumbered, headings: headings)
        let untimed = structure.sections.filter { $0.minutes == nil }.map(\.heading)
        #expect(untimed == ["Learning Objective", "Materials", "Differentiation", "Homework / Extension (optional)"])
    }
}

/// The one reader's decisions that the check, pacing, level, handouts and exports all rely on.
@Suite struct PlanDocumentReadingTests {
    let headings = PlanCorpus.headings

    static func numbers(_ document: PlanDocument, under heading: String) -> [Int] {
        guard
            let start = document.blocks.firstIndex(where: {
                if case .heading(let found) = $0 { return found.text.hasPrefix(heading) } else { return false }
            })
        else { return [] }
        var numbers: [Int] = []
        for block in document.blocks[(start + 1)...] {
            if case .heading = block { break }
            if case .item(let item) = block, let number = item.number { numbers.append(number) }
        }
        return numbers
    }

    @Test func anUnnamedNumberedHeadingIsAHeadingAndItsListRestarts() throws {
        let document = PlanDocument(parsing: PlanCorpus.wrapUp, headings: headings)
        let wrap = try #require(document.blocks.compactMap { if case .heading(let h) = $0, h.framework == nil { h } else { nil } }.first)
        #expect(wrap.text == "Wrap-up (5 min)" && wrap.plainText == "Wrap-up" && wrap.opensSection && wrap.minutes == 5)
        #expect(Self.numbers(document, under: "Wrap-up") == [1, 2, 3])
        #expect(Self.numbers(document, under: "Check for Understanding") == [1, 2])
        // The CFU section ends at the wrap-up, so its prompts are not counted as questions.
        #expect(document.section("Check for Understanding")?.body.count == 2)
        #expect(document.title == ["Lesson Plan: Area"])
    }

    @Test func theCheckDoesNotCountTheWrapUpsPromptsAsCFUQuestions() {
        let report = PlanChecker(headings: headings).check(PlanCorpus.wrapUp, lessonMinutes: 45)
        #expect(report.problems.contains(.missingHeading("Exit Ticket")))
        #expect(report.problems.contains(.tooFewCFUQuestions(found: 2, minimum: 3)))
        #expect(report.pacedMinutes == 40)
    }

    @Test func aPlanConvertedWithItsOldHeadingsKeepsThemAsHeadings() {
        let document = PlanDocument(parsing: PlanCorpus.goodNumbered, headings: PlanCorpus.fiveE)
        let opened = document.blocks.compactMap { if case .heading(let h) = $0, h.opensSection { h.plainText } else { nil } }
        #expect(
            opened == PlanCorpus.headings.map { $0 == "Homework / Extension (optional)" ? $0 : $0.replacingOccurrences(of: " (5 min)", with: "") })
        #expect(Self.numbers(document, under: "Exit Ticket") == [1, 2, 3])
        #expect(document.sections.isEmpty)
    }

    @Test func listsAreNumberedByTheirOwnList() {
        let plan = """
            ## Exit Ticket
            10. First
            11. Second

            12. Third
            ## Check for Understanding
            1. One
            - a hint
            2. Two
            Then, in pairs:
            1. Again
            """
        let document = PlanDocument(parsing: plan, headings: headings)
        #expect(Self.numbers(document, under: "Exit Ticket") == [1, 2, 3])
        #expect(Self.numbers(document, under: "Check for Understanding") == [1, 2, 1])
    }

    @Test func subHeadingsStayInsideTheirSection() {
        let plan = """
            ## Direct Instruction (10 min)
            ### Key vocabulary
            - photosynthesis
            ## Check for Understanding (5 min)
            **Questions to ask:**
            1. What is it?
            2. Why?
            3. How?
            """
        let document = PlanDocument(parsing: plan, headings: headings)
        #expect(document.sections.map(\.heading) == ["Direct Instruction", "Check for Understanding"])
        #expect(document.section("Direct Instruction")?.body.count == 2)
        #expect(PlanChecker.countItems(document.section("Check for Understanding")?.body ?? []) == 3)
        let sub = document.blocks.compactMap { if case .heading(let h) = $0, !h.opensSection { h.text } else { nil } }
        #expect(sub == ["Key vocabulary", "Questions to ask"])
    }

    @Test func statedTimesPlaceSections() throws {
        let plan = """
            # Fractions (Grade 3–5, 60 minutes)
            ## Warm-Up
            0:00–0:05 Fold strips.
            ## Direct Instruction (5–17 min)
            Model it.
            ## Guided Practice
            0–3 min: hook
            3–10 min: partners
            ## Independent Practice
            1:05–1:20 later work
            ## Exit Ticket
            10:00–10:15 is a wall clock, 15 minutes; 5 minutes inside the words are not.
            """
        let document = PlanDocument(parsing: plan, headings: headings)
        #expect(document.title == ["Fractions (Grade 3–5, 60 minutes)"])
        let times = document.sections.map { [$0.minutes, $0.start, $0.end] }
        #expect(times[0] == [5, 0, 5])
        #expect(times[1] == [12, 5, 17])
        // After another timed section a range from 0 counts from the section's own start.
        #expect(times[2] == [10, nil, nil])
        // Once the plan counts from 0:00, later hours are lesson time too.
        #expect(times[3] == [15, 65, 80])
        #expect(times[4] == [15, nil, nil])
        let segments = Pacing.segments(of: document)
        #expect(segments.map(\.stated) == [true, true, false, true, false])
        #expect(segments[2] == PacingSegment(heading: "Guided Practice", start: 17, end: 27))
        #expect(
            Pacing.notes(segments, lessonMinutes: 60) == [
                .gap(after: "Guided Practice", before: "Independent Practice", from: 27, to: 65),
                .overrun(lessonMinutes: 60, end: 95),
            ])
        #expect(try #require(PlanDocument.matchHeading("Explore (0:05–0:25)", in: ["Explore"])).span == 5...25)
    }

    @Test func teacherOnlyPartsAreFoundInAnyForm() {
        let handout = """
            Tides handout
            Name: ______   Date: ____

            Exit Ticket (5 min)
            1. What pulls the ocean?
            Answer: ____________
            A: the moon   B: the sun
            - Answer: the moon
            0–5 min: hand out slips
            Write for 5 minutes.

            7) Differentiation
            - Support: word bank
            - Extend: spring tides

            **TEACHER NOTES**
            Collect the slips.
            """
        let notes = PlanDocument(parsing: handout, headings: headings).teacherNotes
        #expect(
            notes == [
                TeacherNote(line: "Exit Ticket (5 min)", reason: .minuteStamp, linesUnder: 0),
                TeacherNote(line: "- Answer: the moon", reason: .label, linesUnder: 0),
                TeacherNote(line: "0–5 min: hand out slips", reason: .minuteStamp, linesUnder: 0),
                TeacherNote(line: "7) Differentiation", reason: .heading, linesUnder: 2),
                TeacherNote(line: "TEACHER NOTES", reason: .heading, linesUnder: 1),
            ])
    }

    @Test(arguments: [
        ("Answer: the moon", true), ("Sample answer - 12", true), ("Look-fors: names gravity", true),
        ("Teacher's notes: watch pairs", true), ("Note to the teacher: none", true), ("A: oxygen", true),
        ("A: 1/2   B: 1/3", false), ("Answer: __________", false), ("A small plant grows.", false),
        ("Key words: tide", false), ("Answer the question in a sentence.", false),
    ])
    func oneTeacherLabelRule(text: String, labelled: Bool) {
        #expect(TeacherLabel.isLabelled(text) == labelled)
    }
}
