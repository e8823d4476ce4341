import LessonPlanKit
import Testing

@Suite struct PacingChartTests {
    let segments = [
        PacingSegment(heading: "Warm-Up (5 min)", start: 0, end: 5),
        PacingSegment(heading: "Direct Instruction", start: 5, end: 15),
        PacingSegment(heading: "Exit Ticket", start: 15, end: 20),
    ]

    @Test func barsSitOnTheLessonsClock() {
        let chart = PacingChart.render(segments, lessonMinutes: 20, untimed: ["Materials"], width: 60)
        #expect(
            chart == """
                Warm-Up (5 min)       0–5   5 min  ██████···················
                Direct Instruction   5–15  10 min  ······█████████████······
                Exit Ticket         15–20   5 min  ···················██████
                                                   0                  20 min
                The sections add up to the lesson's 20 minutes.
                No time given: Materials.

                """)
    }

    @Test func timePastTheEndIsShownAndSaid() {
        let over = segments + [PacingSegment(heading: "Closure", start: 20, end: 25)]
        let chart = PacingChart.render(over, lessonMinutes: 20, width: 60)
        let rows = chart.split(separator: "\n")
        #expect(rows[3].hasPrefix("Closure") && rows[3].hasSuffix("░░░░░"))
        #expect(rows[0].hasSuffix("·") && !rows[0].contains("░"))
        #expect(chart.contains("The sections add up to 25 min, not the lesson's 20 (░ runs over)."))
        let short = PacingChart.render(Array(segments.prefix(2)), lessonMinutes: 20, width: 60)
        #expect(short.contains("The sections add up to 15 min, not the lesson's 20."))
    }

    @Test func colourPaintsBarsAndDimsTheTrack() {
        let chart = PacingChart.render(segments, lessonMinutes: 20, width: 60, colour: true)
        #expect(chart.contains("\u{1B}[36m██████\u{1B}[0m\u{1B}[2m····"))
        #expect(chart.contains("\u{1B}[32m████████████"))
        #expect(chart.contains("\u{1B}[2m···················\u{1B}[0m\u{1B}[33m██████\u{1B}[0m"))
        #expect(!PacingChart.render(segments, lessonMinutes: 20, width: 60).contains("\u{1B}"))
    }

    @Test func withoutTimesThereIsNothingToDraw() {
        #expect(PacingChart.render([], lessonMinutes: 45) == "No section says how many minutes it takes, so there is no timeline to draw.\n")
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
