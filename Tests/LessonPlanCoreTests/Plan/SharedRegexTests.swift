import CoreTestSupport
import Foundation
import LessonPlanCore
import Testing

/// The plan check's patterns are compiled once and shared (`SharedRegex`); checking from many tasks at
/// once, including the very first use that compiles them, must give the reports a serial check gives.
@Suite struct SharedRegexTests {
    @Test func concurrentChecksMatchTheSerialReports() async {
        let cases = PlanCorpus.good + PlanCorpus.broken
        let checker = PlanChecker(headings: PlanCorpus.headings)
        let reports = await withTaskGroup(of: (Int, PlanCheckReport, String).self) { group in
            for _ in 0..<8 {
                for (index, item) in cases.enumerated() {
                    group.addTask {
                        let report = checker.check(item.plan, lessonMinutes: item.lessonMinutes)
                        let text = ReadingLevel.studentFacingText(of: item.plan, headings: PlanCorpus.headings)
                        return (index, report, text)
                    }
                }
            }
            var all: [(Int, PlanCheckReport, String)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(reports.count == cases.count * 8)
        for (index, report, text) in reports {
            #expect(report == cases[index].expected, "\(cases[index].name)")
            #expect(text == ReadingLevel.studentFacingText(of: cases[index].plan, headings: PlanCorpus.headings))
        }
    }
}
