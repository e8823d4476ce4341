import Foundation
import LessonPlanKit

#if canImport(Glibc)
    import Glibc
#endif

/// `/check`, `/pacing`, `/level` and `/framework` without a name: the library measures, this prints.
struct QualityViews {
    let console: Console

    /// The full plan check of the current plan.
    func check(engine: SessionEngine) async {
        guard let current = await plan(engine) else { return }
        let framework: Framework
        do { framework = try await engine.framework(of: current) } catch {
            console.error(error.message)
            return
        }
        let document = framework.document(of: current.text)
        let report = framework.check(document, lessonMinutes: current.inputs.minutes)
        console.line(
            console.dim("── plan check of v\(current.number) · \(framework.name) framework · \(current.inputs.minutes)-minute lesson"))
        var lines: [String] = []
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
            lines.append("✓ The plan passes the check.")
        } else {
            lines.append("✗ \(report.problems.count == 1 ? "1 problem" : "\(report.problems.count) problems"), worst first:")
            lines += ExportCheck(report, framework: framework).problems.map { "  ✗ \($0)" }
            lines.append("/repair asks once for a plan without them; it is kept only if it checks better.")
        }
        console.line(lines.joined(separator: "\n"))
    }

    /// The current plan's pacing as a timeline: stated times where the plan gives them, the lesson's end marked.
    func pacing(engine: SessionEngine) async {
        guard let current = await plan(engine) else { return }
        let framework: Framework
        do { framework = try await engine.framework(of: current) } catch {
            console.error(error.message)
            return
        }
        let document = framework.document(of: current.text)
        let segments = framework.pacing(of: document)
        console.line(console.dim("── pacing of v\(current.number) · \(current.inputs.minutes)-minute lesson"))
        console.out(
            PacingChart.render(
                segments, lessonMinutes: current.inputs.minutes, untimed: framework.untimedSections(of: document),
                width: console.columns))
    }

    /// The reading level of the current plan's student-facing text, naming only the sections it measured.
    func level(engine: SessionEngine) async {
        guard let current = await plan(engine) else { return }
        let framework: Framework
        do { framework = try await engine.framework(of: current) } catch {
            console.error(error.message)
            return
        }
        let document = framework.document(of: current.text)
        let measure = ReadingMeasure(studentText: framework.studentFacingText(of: document), band: current.inputs.grade)
        let sections = ReadingLevel.measuredSections(of: document, studentFacing: framework.studentFacingHeadings)
        let measured = sections.present.isEmpty ? "no student-facing section" : sections.present.joined(separator: ", ")
        let missing = sections.missing.isEmpty ? "" : " · not in the plan: \(sections.missing.joined(separator: ", "))"
        console.line(console.dim("── reading level of v\(current.number) · measured: \(measured)\(missing)"))
        guard measure.grade != nil else {
            console.line("There is no student-facing text to measure in v\(current.number) (the sections students read are empty or missing).")
            return
        }
        let verdict =
            measure.inRange
            ? "✓ within the \(measure.expectedText) expected for grades \(measure.band.rawValue)"
            : "✗ outside the \(measure.expectedText) expected for grades \(measure.band.rawValue)"
        console.line("Flesch–Kincaid grade \(measure.gradeText) over \(measure.words) words of student-facing text; \(verdict).")
    }

    /// The frameworks the templates offer, the current one marked.
    func frameworks(engine: SessionEngine) async {
        let current = await engine.state.currentFramework
        var lines: [String] = []
        for name in engine.prompts.frameworkNames {
            let marker = name == current ? "→" : " "
            if let framework = try? engine.prompts.framework(name) {
                lines.append("\(marker) \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(framework.headings.joined(separator: " · "))")
            } else {
                lines.append("\(marker) \(name)")
            }
        }
        lines.append("/framework NAME rewrites the plan in that structure.")
        console.line(lines.joined(separator: "\n"))
    }

    private func plan(_ engine: SessionEngine) async -> PlanVersion? {
        guard let current = await engine.state.current else {
            console.error("There is no plan yet; type /generate to write one.")
            return nil
        }
        return current
    }
}

/// The `/materials` check's findings in words: what each teacher-only part is.
enum MaterialsNotes {
    static func describe(_ note: TeacherNote) -> String {
        switch note.reason {
        case .heading:
            let under = note.linesUnder == 0 ? "" : note.linesUnder == 1 ? " and the line under it" : " and the \(note.linesUnder) lines under it"
            return "Teacher-only section: “\(note.line)”\(under)"
        case .underHeading, .label:
            return "Looks meant for the teacher: \(note.line)"
        case .minuteStamp:
            return "Minute stamp (the teacher's timing): \(note.line)"
        }
    }
}
