import Foundation
import LessonPlanCore
import Testing

@Suite struct PacingChartTests {
    let segments = [
        PacingSegment(heading: "Warm-Up (5 min)", start: 0, end: 5),
        PacingSegment(heading: "Direct Instruction", start: 5, end: 15),
        PacingSegment(heading: "Exit Ticket", start: 15, end: 20),
    ]

    @Test func barsSitOnTheLessonsClock() {
        let chart = PacingChart.render(segments, lessonMinutes: 20, untimed: ["Materials"], width: 60).plain
        #expect(
            chart == """
                Warm-Up (5 min)       0–5   5 min  ██████··················│
                Direct Instruction   5–15  10 min  ······████████████······│
                Exit Ticket         15–20   5 min  ··················██████│
                                                   0 lesson ends at 20 min ▲
                The sections add up to the lesson's 20 minutes.
                The plan gives lengths, not times, so each section is placed
                after the one before.
                No time given: Materials.

                """)
    }

    @Test func timePastTheEndIsShadedAfterTheLessonEndMark() {
        let over = segments + [PacingSegment(heading: "Closure", start: 20, end: 25)]
        let chart = PacingChart.render(over, lessonMinutes: 20, width: 60).plain
        let rows = chart.split(separator: "\n")
        #expect(rows[3].hasPrefix("Closure") && rows[3].hasSuffix("│░░░░░"))
        #expect(rows[0].hasSuffix("·│") && !rows[0].contains("░"))
        // The lesson-end mark stands in the same column in every row, and the axis points at it.
        let marks = rows.prefix(4).map { $0.distance(from: $0.startIndex, to: $0.firstIndex(of: "│") ?? $0.endIndex) }
        #expect(Set(marks).count == 1)
        let axis = rows[4]
        #expect(axis.distance(from: axis.startIndex, to: axis.firstIndex(of: "▲") ?? axis.startIndex) == marks[0])
        #expect(chart.contains("lesson ends at 20 min"))
        #expect(chart.contains("The sections add up to 25 min, not the lesson's 20."))
        #expect(chart.contains("░ Runs over: the plan ends at 25 min, 5 min past the\nlesson's end at 20."))
        let short = PacingChart.render(Array(segments.prefix(2)), lessonMinutes: 20, width: 60).plain
        #expect(short.contains("The sections add up to 15 min, not the lesson's 20."))
        #expect(!short.contains("░"))
    }

    @Test func statedTimesAreDrawnWhereThePlanPutsThem() {
        let stated = [
            PacingSegment(heading: "Warm-Up", start: 0, end: 5, stated: true),
            PacingSegment(heading: "Direct Instruction", start: 5, end: 17, stated: true),
            PacingSegment(heading: "Guided Practice", start: 20, end: 35, stated: true),
            PacingSegment(heading: "Exit Ticket", start: 35, end: 40),
        ]
        let chart = PacingChart.render(stated, lessonMinutes: 40, width: 80).plain
        #expect(chart.contains("Direct Instruction    5–17  12 min"))
        #expect(chart.contains("Guided Practice      20–35  15 min"))
        #expect(chart.contains("Exit Ticket         35–40*   5 min"))
        #expect(chart.contains("Gap: nothing is planned from 17 to 20 min, between Direct Instruction and Guided\nPractice."))
        #expect(chart.contains("The sections add up to 37 min, not the lesson's 40."))
        #expect(chart.contains("* placed after the section before; the plan gives only a length."))
        let overlapping = [
            PacingSegment(heading: "Explore", start: 0, end: 20, stated: true),
            PacingSegment(heading: "Explain", start: 15, end: 30, stated: true),
        ]
        #expect(PacingChart.render(overlapping, lessonMinutes: 30).plain.contains("Overlap: Explore and Explain both claim 15–20 min."))
    }

    @Test(arguments: [40, 52, 60, 80, 120])
    func everyLineFitsTheWidthAndNoWordIsSplit(width: Int) {
        let long = [
            PacingSegment(heading: "Guided Practice with partners and manipulatives", start: 0, end: 20, stated: true),
            PacingSegment(heading: "Independent Practice", start: 25, end: 50, stated: true),
            PacingSegment(heading: "Exit Ticket", start: 50, end: 60),
        ]
        let chart = PacingChart.render(
            long, lessonMinutes: 45, untimed: ["Learning Objective", "Materials", "Differentiation", "Homework / Extension (optional)"],
            width: width
        ).plain
        let words = Set(
            (long.map(\.heading) + ["Learning Objective", "Materials", "Differentiation", "Homework", "Extension"])
                .flatMap { $0.split(separator: " ").map(String.init) }.filter { $0.count > 3 })
        for line in chart.split(separator: "\n") {
            #expect(line.count <= width, "too wide at \(width): \(line)")
            for token in line.split(separator: " ") {
                let word = token.trimmingCharacters(in: CharacterSet(charactersIn: ".,:…()"))
                // A token that is part of a known word but not the whole word would be a split word.
                let split = words.contains { $0 != word && $0.hasPrefix(word) && word.count > 2 && !token.hasSuffix("…") }
                #expect(!split, "split word at \(width): \(token) in \(line)")
            }
        }
    }

    @Test func colourPaintsBarsAndDimsTheTrack() {
        let chart = PacingChart.render(segments, lessonMinutes: 20, width: 60).rendered(colour: true)
        #expect(chart.contains("\u{1B}[36m██████\u{1B}[0m\u{1B}[2m····"))
        #expect(chart.contains("\u{1B}[32m████████████"))
        #expect(chart.contains("\u{1B}[2m··················\u{1B}[0m\u{1B}[33m██████\u{1B}[0m\u{1B}[31m│\u{1B}[0m"))
        #expect(!PacingChart.render(segments, lessonMinutes: 20, width: 60).rendered(colour: false).contains("\u{1B}"))
    }

    @Test func withoutTimesThereIsNothingToDraw() {
        #expect(PacingChart.render([], lessonMinutes: 45).plain == "No section says how many minutes it takes, so there is no timeline to draw.\n")
    }
}

@Suite struct StandardsAndMaterialsTests {
    @Test func standardsAreSplitOnSemicolonsAndLines() {
        #expect(StandardsAlignment.items(" A one; B two \n\nC three;") == ["A one", "B two", "C three"])
    }

    @Test func aStandardMustBeQuotedWordForWord() {
        let plan = """
            Standards addressed:
            - “4-ESS2-1 Make observations  of the effects of weathering” — Guided Practice
            - "RI.4.1 Refer to details" — Exit Ticket
            """
        let standards = [
            "4‑ESS2‑1 Make observations of the effects of weathering", "RI.4.1 Refer to details",
            "RI.4.2 Determine the main idea", "ri.4.1 refer to details",
        ]
        #expect(StandardsAlignment.unquoted(standards, in: plan) == ["RI.4.2 Determine the main idea", "ri.4.1 refer to details"])
    }

    @Test func teacherOnlyLinesAreFound() {
        let handout = """
            Tides — student handout
            Name: ________
            1. What pulls the ocean?
            - Answer: the moon
            Answer key: 1) moon
            **Teacher note:** collect the slips
            Look-fors: mentions gravity
            A: the moon   B: the sun
            Key words: tide, moon
            Notes to the teacher - none
            """
        #expect(
            StudentMaterials.teacherOnlyLines(handout) == [
                "- Answer: the moon", "Answer key: 1) moon", "Teacher note: collect the slips",
                "Look-fors: mentions gravity", "Notes to the teacher - none",
            ])
    }
}
