import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/accommodate`: for each student of the session's class with needs, one support in each timed activity, as a
/// table in the Differentiation section; the model sees pseudonyms and needs only, and every other section is
/// kept byte for byte. The table is checked by code: every need of every student in every activity.
package struct AccommodateCommand: Command, Equatable {
    package static let name = "accommodate"
    package static let usage = "/accommodate"
    package static let summary = "a support for each listed student's needs in each timed activity (needs /class), checked by code"
    package static let details = """
        Needs a class with needs (`lessonplan class add`, then --class or /class). The model is sent the plan, each
        student's pseudonym (Student A …) and needs, never a name, and asked for the Differentiation section
        again with a table: a row for each student and each timed activity, naming the needs and one support. Every
        other section stays byte for byte. The table is checked by code: a row for every student in every timed
        activity, each naming all that student's needs; gaps are named. The teacher's copy (export) shows the table
        with the names; handouts never do, and /materials is written from the plan without it.
        """
    package static let asksTheModel = true
    package static let templates = ["accommodate"]

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let engine = run.engine
        guard let roster = engine.client.names.roster, let map = engine.client.names.map else {
            run.host.error("/accommodate needs the session tied to a class: /class NAME (make one with `lessonplan class add NAME FILE`).")
            return .failed
        }
        let students = roster.withNeeds
        guard !students.isEmpty else {
            run.host.error(
                "No student in class \(roster.name) has needs listed; add them with `lessonplan class add \(roster.name) FILE` (name,needs).")
            return .failed
        }
        guard let current = await engine.state.current, let framework = try? await engine.framework(of: current) else {
            run.host.error("There is no plan yet; type /generate to write one.")
            return .failed
        }
        let redo: SectionRedo
        let activities: [String]
        do {
            (redo, activities) = try Self.redo(students: students, plan: current, framework: framework)
        } catch {
            run.host.error(error.message)
            return .failed
        }
        let refinement = Refinement(.redo(redo), inputs: current.inputs, framework: current.framework)
        // At a terminal the table is shown a student at a time, each activity a line: a four-column table wraps
        // mid-word at 80 columns. The plan and its exports keep the table.
        let (outcome, result) = await run.requestResult(
            refinement, waiting: "writing the accommodations…", shows: { text in StyledText(Self.readable(text)) })
        guard result.first.status == .completed, let now = await engine.state.current, now.number != current.number
        else { return outcome }
        run.host.show(StyledText(RedoCommand.changeLine(from: current.text, to: now.text, framework: framework), style: .dim))
        let coverage = Self.coverage(of: now.text, heading: redo.heading, framework: framework, students: students, map: map, activities: activities)
        run.host.show(Self.verdict(coverage, students: students.count, activities: activities.count))
        return outcome
    }

    /// The request: the Differentiation section again, with the students' pseudonyms and needs and the activities.
    static func redo(students: [RosterStudent], plan: PlanVersion, framework: Framework) throws(CommandError)
        -> (SectionRedo, [String])
    {
        let document = framework.document(of: plan.text)
        guard let heading = framework.headings.first(where: { PlanDocument.key($0).hasPrefix("differentiat") }),
            let section = document.section(heading)
        else {
            throw CommandError("This plan has no Differentiation section to hold the table; /accommodate works on plans in the default framework.")
        }
        let activities = framework.pacing(of: document).map { RedoCommand.shown($0.heading) }
        guard !activities.isEmpty else { throw CommandError("This plan has no timed activities to support; /check shows its pacing.") }
        let request = students.map { "- \($0.pseudonym): \($0.needs.joined(separator: "; "))" }.joined(separator: "\n")
        let rules = "- The activities, in this order: \(activities.joined(separator: "; "))."
        let redo = SectionRedo(
            section: RedoCommand.written(section), heading: heading, minutes: nil,
            request: request, rules: rules, template: "accommodate")
        return (redo, activities)
    }

    /// The text with its accommodations table, in place, as lines a terminal wraps well: a student and their needs,
    /// then each activity.
    static func readable(_ text: String) -> String {
        AccommodationTable.replacingTables(in: text) { table in
            var lines: [String] = []
            var student: String?
            for row in table.rows {
                if row.student != student {
                    lines.append("\(row.student) (\(row.needs))")
                    student = row.student
                }
                lines.append("  - \(row.activity): \(row.support)")
            }
            return lines
        }
    }

    /// The table in the plan's Differentiation section checked against the class's needs and the activities.
    static func coverage(
        of text: String, heading: String, framework: Framework, students: [RosterStudent], map: NameMap, activities: [String]
    ) -> AccommodationCoverage {
        let section = framework.document(of: text).section(heading)?.body.joined(separator: "\n") ?? text
        let checked = students.map { student in
            AccommodationCoverage.Student(
                shown: map.names[student.pseudonym] ?? student.firstName,
                aliases: [student.name, student.firstName, student.pseudonym], needs: student.needs)
        }
        return AccommodationCoverage.check(AccommodationTable(parsing: section), students: checked, activities: activities)
    }

    /// "✓ accommodations: …" or "✗ …", saying what was checked and no more.
    static func verdict(_ coverage: AccommodationCoverage, students: Int, activities: Int) -> StyledText {
        if coverage.passed {
            return StyledText(
                "✓ accommodations: a row for each of \(counted(students, "student")) in each of \(counted(activities, "timed activity", "timed activities")), naming all their needs (checked by code; whether each support fits is yours to judge).",
                style: .green)
        }
        return StyledText(
            "✗ accommodations: \(coverage.covered) of \(coverage.expected) student × activity rows cover every need. \(coverage.gaps.prefix(6).joined(separator: "; "))\(coverage.gaps.count > 6 ? "; and \(coverage.gaps.count - 6) more" : ""). /accommodate asks again.",
            style: .red)
    }
}
