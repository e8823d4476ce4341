import Foundation
import LessonPlanCore
import LessonPlanDocuments

/// `/check`: the full plan check of the current plan, as the footer only summarises it.
package struct CheckCommand: PlanReportCommand, Equatable {
    package static let name = "check"
    package static let usage = "/check"
    package static let summary = "the full plan check: structure (headings, pacing, counts), content problems and advice"
    package static let details = """
        The check runs after every turn and is saved with it; the footer counts structure problems, content
        problems and advice apart. A problem starts the one automatic repair; advice is only shown, and
        /repair sends it too.
        """

    package init() {}

    /// What `/check` prints: counts, then each problem worst first.
    package static func report(of version: PlanVersion, framework: Framework) -> StyledText {
        let document = framework.document(of: version.text)
        let report = framework.check(document, lessonMinutes: version.inputs.minutes, topic: version.inputs.topic, grade: version.inputs.grade)
        var text = StyledText(
            "── plan check of v\(version.number) · \(framework.name) framework · \(version.inputs.minutes)-minute lesson\n",
            style: .dim)
        var lines: [String] = ["Structure"]
        let found = Set(document.sections.map(\.heading))
        lines.append("Headings: \(found.count) of \(framework.headings.count) present.")
        if let paced = report.pacedMinutes {
            lines.append("Pacing: the timed sections add up to \(paced) of \(report.lessonMinutes) minutes.")
        }
        if let heading = framework.cfuHeading, let section = document.section(heading) {
            lines.append("\(heading): \(PlanChecker.countItems(section.body)) questions (at least \(framework.cfuQuestions)).")
        }
        if let heading = framework.exitTicketHeading, let section = document.section(heading) {
            lines.append("\(heading): \(PlanChecker.countItems(section.body)) prompts (exactly \(framework.exitTicketPrompts)).")
        }
        if report.passed {
            lines.append("✓ The structure passes the check.")
        } else {
            lines.append("✗ \(counted(report.problems.count, "problem")), worst first:")
            lines += ExportCheck(report, framework: framework).problems.map { "  ✗ \($0)" }
        }
        lines.append("")
        lines.append("Content")
        let problems = report.contentProblems
        let advice = report.advice
        if problems.isEmpty {
            // The ✓ says what was looked at; whether each passed or left advice is the advice's to say.
            let checked = framework.contentChecker.checks.joined(separator: "; ")
            lines.append(advice.isEmpty ? "✓ No content problems and no advice. Checked: \(checked)." : "✓ No content problems. Checked: \(checked).")
        } else {
            lines.append("✗ \(counted(problems.count, "content problem")):")
            lines += problems.map { "  ✗ \(framework.describe($0))" }
        }
        if !advice.isEmpty {
            lines.append("Advice (never sent on its own):")
            lines += advice.map { "  • \(framework.describe($0))" }
        }
        let cited = StandardsCatalog.builtIn.verifiedLines(citedIn: version.text, band: version.inputs.grade)
        if !cited.isEmpty {
            lines.append("")
            lines.append("Standards the plan cites, looked up in Common Core and NGSS:")
            lines += cited.map { "  \($0)" }
        }
        if report.hasFindings {
            lines.append("/repair asks once for a plan without them; it is kept only if it checks better.")
        }
        text.append(lines.joined(separator: "\n"))
        return text
    }
}
