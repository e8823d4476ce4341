import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/materials`: the plan's student handouts, with nothing meant only for the teacher.
package struct MaterialsCommand: RequestCommand, Equatable {
    package static let name = "materials"
    package static let templates = ["materials"]
    package static let usage = "/materials"
    package static let summary = "student handouts from the plan (tasks, questions, exit ticket), no teacher notes"
    package static let details = "The handouts are kept beside the plan, not as a version of it; /export materials md|html|json [FILE] writes them."

    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self(refinement: Refinement(.besidePlan(.materials), inputs: context.inputs))
    }

    /// Sends the request, then checks the handouts for anything meant only for the teacher.
    package func run(_ run: CommandRun) async -> CommandOutcome {
        let (outcome, result) = await run.requestResult(refinement, waiting: "writing the handouts…")
        guard result.first.status == .completed else { return outcome }
        let plan = await run.engine.state.current
        let headings = (try? await run.engine.framework(of: plan).headings) ?? []
        let notes = StudentMaterials.teacherNotes(result.first.text, headings: headings)
        if notes.isEmpty {
            run.host.show(
                StyledText(
                    "✓ Checked the handouts for \(StudentMaterials.checkedFor): none found. /export materials html FILE writes a printable page."))
        } else {
            for note in notes { run.host.show(StyledText("✗ \(MaterialsNotes.describe(note))")) }
            run.host.show(StyledText("The printable page (/export materials html FILE) leaves these out; /materials makes new handouts."))
        }
        return outcome
    }
}

/// The `/materials` check's findings in words: what each teacher-only part is.
package enum MaterialsNotes {
    package static func describe(_ note: TeacherNote) -> String {
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
