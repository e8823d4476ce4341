import CoreTestSupport
import LessonPlanCore
import Testing

@Suite struct PacingTests {
    @Test func timedSectionsLineUpEndToEnd() {
        let sections = PlanDocument(parsing: PlanCorpus.goodNumbered, headings: PlanCorpus.headings).sections
        #expect(
            Pacing.segments(of: sections) == [
                PacingSegment(heading: "Warm-Up (5 min)", start: 0, end: 5),
                PacingSegment(heading: "Direct Instruction", start: 5, end: 15),
                PacingSegment(heading: "Guided Practice", start: 15, end: 25),
                PacingSegment(heading: "Independent Practice", start: 25, end: 35),
                PacingSegment(heading: "Check for Understanding", start: 35, end: 40),
                PacingSegment(heading: "Exit Ticket", start: 40, end: 45),
            ]
        )
        #expect(Pacing.total(of: sections) == 45)
    }

    @Test func rangesInBodiesBecomeDurations() {
        let sections = PlanDocument(parsing: PlanCorpus.goodMarkdownRanges, headings: PlanCorpus.headings).sections
        #expect(Pacing.segments(of: sections).map(\.minutes) == [5, 15, 15, 12, 5, 8])
        #expect(Pacing.segments(of: sections).last?.end == 60)
    }

    @Test func excludedSectionsTakeNoTime() {
        let sections = PlanDocument(parsing: PlanCorpus.goodBold, headings: PlanCorpus.headings).sections
        let homework = "Homework / Extension (optional)"
        #expect(Pacing.segments(of: sections).last == PacingSegment(heading: homework, start: 45, end: 65))
        #expect(Pacing.total(of: sections, excluding: [homework]) == 45)
        #expect(Pacing.segments(of: sections, excluding: [homework]).allSatisfy { $0.heading != homework })
    }

    @Test func noTimesMeansNoTotal() {
        #expect(Pacing.total(of: []) == nil)
        let untimed = PlanDocument(parsing: PlanCorpus.untimed, headings: PlanCorpus.headings).sections
        #expect(Pacing.segments(of: untimed).isEmpty)
        #expect(Pacing.total(of: untimed) == nil)
    }
}
