import Foundation
import LessonPlanCore

/// `/level`: the reading level of the current plan's student-facing text against its band.
package struct LevelCommand: PlanReportCommand, Equatable {
    package static let name = "level"
    package static let usage = "/level"
    package static let summary = "reading level (Flesch–Kincaid) of what students read, against the band's range"
    package static let details = """
        Expected ranges, after the Common Core text-complexity bands: K–2 up to 2.5, 3–5 2–5.5, 6–8 6–10, 9–12 8–14.
        /regrade measures the new plan and, if it misses its band's range, asks once more with the measured level.
        """

    package init() {}

    /// What `/level` prints, naming only the sections it measured.
    package static func report(of version: PlanVersion, framework: Framework) -> StyledText {
        let document = framework.document(of: version.text)
        let measure = ReadingMeasure(studentText: framework.studentFacingText(of: document), band: version.inputs.grade)
        let sections = ReadingLevel.measuredSections(of: document, studentFacing: framework.studentFacingHeadings)
        let measured = sections.present.isEmpty ? "no student-facing section" : sections.present.joined(separator: ", ")
        let missing = sections.missing.isEmpty ? "" : " · not in the plan: \(sections.missing.joined(separator: ", "))"
        var text = StyledText("── reading level of v\(version.number) · measured: \(measured)\(missing)\n", style: .dim)
        guard measure.grade != nil else {
            text.append("There is no student-facing text to measure in v\(version.number) (the sections students read are empty or missing).")
            return text
        }
        let verdict =
            measure.inRange
            ? "✓ within the \(measure.expectedText) expected for grades \(measure.band.rawValue)"
            : "✗ outside the \(measure.expectedText) expected for grades \(measure.band.rawValue)"
        text.append("Flesch–Kincaid grade \(measure.gradeText) over \(measure.words) words of student-facing text; \(verdict).")
        return text
    }
}
