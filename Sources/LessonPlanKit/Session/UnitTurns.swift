import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore

/// A unit's overview: kept as the turn's output; the engine reads and checks it (``UnitPlan``) and writes the
/// `unit` line for the one it takes, so the product itself numbers nothing.
enum OverviewProduct: TurnProduct {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        ProductVerdict()
    }

    static func footer(_ outcome: TurnOutcome) -> [String] { [ProductText.check(.overview, problems: outcome.assessmentProblems)] }

    /// For `replay`: the overview as the model wrote it.
    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)? {
        (["completed → a unit overview"], ended.output)
    }
}

/// What one lesson of a unit is written from: its place in the unit, its outline, the whole overview and what
/// the lessons before it teach, so each plan builds on the ones before it rather than starting over.
package struct UnitLesson: Equatable, Sendable {
    package var number: Int
    /// How many lessons the unit has.
    package var of: Int
    package var outline: UnitLessonOutline
    /// The overview in its layout (``UnitPlan/text``).
    package var overview: String
    /// One line per earlier lesson: its title and the objective its current plan states.
    package var earlier: [String]

    package init(number: Int, of: Int, outline: UnitLessonOutline, overview: String, earlier: [String]) {
        self.number = number
        self.of = of
        self.outline = outline
        self.overview = overview
        self.earlier = earlier
    }

    /// The placeholder values of `prompts/unit-lesson.txt`.
    var values: [String: String] {
        [
            "lessons": String(of), "lesson_number": String(number), "lesson_title": outline.title,
            "lesson_objective": outline.objective,
            "builds_on": outline.buildsOn.isEmpty ? "what students already know" : outline.buildsOn,
            "unit_overview": overview,
            "earlier_lessons": earlier.isEmpty ? "(none: this is the first lesson)" : earlier.map { "- \($0)" }.joined(separator: "\n"),
        ]
    }
}

extension TurnPurpose {
    /// The instructions a purpose is sent with when they are not a plan's: a unit's overview is no lesson plan.
    var instructionsTemplate: String? {
        switch self {
        case .unitOverview, .unitOverviewRepair: "unit-instructions"
        default: nil
        }
    }

    /// For a unit's overview (or its repair): how many lessons it has; nil for any other purpose.
    var overviewLessons: Int? {
        switch self {
        case .unitOverview(let lessons), .unitOverviewRepair(let lessons, _, _): lessons
        default: nil
        }
    }

    /// Whether a structured answer for a unit's lesson keeps the objective it has (the overview's, for the lesson's
    /// first plan): writing the lesson, repairing it, and changes of length or support do; `/regrade`, `/standards`
    /// and `/revise` may change the objective, which then marks the lessons after it.
    var keepsUnitObjective: Bool {
        switch self {
        case .lesson, .repair: true
        case .revise(let revision): [.shorten, .lengthen, .differentiate].contains(revision)
        default: false
        }
    }

    /// The lesson of a unit the purpose writes, if it writes one.
    var lessonNumber: Int? {
        if case .lesson(let lesson) = self { return lesson.number }
        return nil
    }
}

/// How writing a unit's overview went: the turns it took, and the `unit` line written, or why there is none.
package struct UnitOverviewResult: Sendable {
    package var outcomes: [TurnOutcome]
    /// The overview taken; nil when none passed its check (or the turn failed).
    package var unit: UnitRecord?
    /// Why there is no unit, in one sentence that says what to do.
    package var failure: String?
}

extension SessionEngine {
    /// The lesson a turn belongs to: the one its purpose writes, the one its draft was for, or in a unit the
    /// current lesson (a `/shorten` of lesson 2 is a turn of lesson 2).
    func lesson(of purpose: TurnPurpose, finishing draft: Draft?) -> Int? {
        if let number = purpose.lessonNumber { return number }
        if let lesson = draft?.lesson { return lesson }
        guard state.unit != nil, purpose.kind != .overview else { return nil }
        return state.currentLesson
    }

    /// Asks for a unit's overview, checks it by code (``UnitPlan/problems(expected:)``, and the standards it cites),
    /// repairs it once when it fails and `repair` is on, and writes the `unit` line for the overview taken: the
    /// first that passes, else none, so no lesson is written from an overview with lessons missing or alike.
    package func writeOverview(
        lessons: Int, inputs: LessonInputs, framework: String, repair: Bool,
        progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> UnitOverviewResult {
        guard state.unit == nil else {
            return UnitOverviewResult(
                outcomes: [], failure: "This session is already a unit of \(state.unit?.lessons ?? 0) lessons; /unit shows it.")
        }
        let chosenFramework = framework == Framework.defaultName ? nil : framework
        var result = UnitOverviewResult(outcomes: [])
        var machine = FollowUpMachine(.unitOverview(lessons: lessons), options: FollowUpOptions(repair: repair))
        var best: (turn: Int, plan: UnitPlan, problems: [String])?
        var (command, purpose, follows) = ("/unit overview \(lessons)", TurnPurpose.unitOverview(lessons: lessons), Int?.none)
        while true {
            var outcome = await runTurn(
                command: command, refinement: Refinement(purpose, inputs: inputs, framework: framework), base: nil,
                follows: follows, keep: .always, progress: { progress(.turn($0)) })
            let turn = state.turns.last?.started.turn ?? 0
            var plan: UnitPlan?
            if outcome.status == .completed {
                let read = UnitPlan(reading: outcome.text)
                // A code the overview cites that is no standard is a problem, as in a plan, quiz or rubric.
                outcome.assessmentProblems = read.problems(expected: lessons) + StandardsFindings.problems(in: outcome.text)
                plan = read
            }
            progress(.ended(outcome))
            result.outcomes.append(outcome)
            if let plan, best == nil || outcome.assessmentProblems.count < (best?.problems.count ?? 0) {
                best = (turn, plan, outcome.assessmentProblems)
            }
            // The repair starts from the overview as read; the better of the two is taken below.
            guard case .send(.repairMade(let why, let repairing, let repairFollows, _)) = machine.next(after: outcome, turn: turn, draft: plan?.text)
            else { break }
            progress(.followUp(why))
            (command, purpose, follows) = ("(auto repair)", repairing, repairFollows)
        }
        guard let best else {
            result.failure = result.outcomes.last?.message ?? "The overview could not be written; run the command again."
            return result
        }
        guard best.problems.isEmpty else {
            result.failure =
                "The overview still has \(counted(best.problems.count, "problem")) after its repair, so no lesson was written; run the command again, perhaps with fewer lessons."
            return result
        }
        let record = UnitRecord(at: now(), turn: best.turn, inputs: inputs, framework: chosenFramework, plan: best.plan)
        append(.unit(record))
        result.unit = record
        return result
    }

    /// Writes lesson `number` of the unit as a whole plan, with the overview and the lessons before it as context,
    /// checked and repaired like any plan (``request(command:refinement:options:progress:)``).
    package func writeLesson(
        _ number: Int, options: FollowUpOptions, progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> RequestResult {
        guard let unit = state.unit, unit.outline.indices.contains(number - 1) else {
            return RequestResult(outcomes: [
                TurnOutcome(notSent: "There is no lesson \(number) in this session; /unit shows the unit.")
            ])
        }
        let earlier = (1..<number).map { earlier in
            let outline = unit.outline[earlier - 1]
            let stated = state.lessonVersions[earlier].flatMap(state.version).flatMap(objective(of:)) ?? outline.objective
            return "Lesson \(earlier): \(outline.title). Objective: \(stated)"
        }
        let lesson = UnitLesson(
            number: number, of: unit.lessons, outline: unit.outline[number - 1], overview: unit.plan.text, earlier: earlier)
        let refinement = Refinement(.lesson(lesson), inputs: unit.inputs, framework: unit.framework ?? Framework.defaultName)
        return await request(command: "/unit lesson \(number)", refinement: refinement, options: options, progress: progress)
    }

    /// `/lesson N`: makes lesson N's current version the current plan, and records it so `resume` reopens there.
    /// - Throws: ``SessionError`` outside a unit, or for a lesson not written yet.
    @discardableResult
    package func selectLesson(_ number: Int) throws -> PlanVersion {
        guard let unit = state.unit else {
            throw SessionError("This session is a single lesson, not a unit; `lessonplan unit` or /unit N writes a unit.")
        }
        guard (1...unit.lessons).contains(number) else {
            throw SessionError("The unit has lessons 1 to \(unit.lessons); type /lesson followed by one of them.")
        }
        guard let version = state.lessonVersions[number].flatMap(state.version) else {
            throw SessionError("Lesson \(number) is not written yet; /unit continue writes the lessons still missing.")
        }
        if state.currentLesson != number { append(.lesson(LessonRecord(at: now(), number: number))) }
        return version
    }

    /// The objective a plan states (its framework's objective section), normalised to one line; nil when it has none.
    package func objective(of version: PlanVersion) -> String? {
        guard let framework = try? framework(of: version), let heading = framework.objectiveHeading,
            let section = framework.document(of: version.text).section(heading)
        else { return nil }
        // A structured plan lists its objective as items: the markers are not part of what it says.
        let text = section.body.map { line in
            line.trimmingCharacters(in: .whitespaces).drop { "-*•".contains($0) }.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// The lessons that may be out of step with an earlier lesson whose objective changed after they were written.
    package var lessonsOutOfStep: Set<Int> {
        state.lessonsOutOfStep { self.objective(of: $0).map(UnitPlan.comparable) }
    }
}

extension SessionState {
    /// In a unit: the lessons with no version yet, in order; empty outside a unit.
    package var lessonsMissing: [Int] {
        guard let unit else { return [] }
        return (1...max(unit.lessons, 1)).filter { lessonVersions[$0] == nil }
    }

    /// The lessons written after an earlier lesson's objective changed: a version on that lesson's current line whose
    /// objective differs from its parent's, made after the later lesson's current version.
    /// - Parameter objective: a version's objective as compared (normalised), nil when it states none.
    package func lessonsOutOfStep(objective: (PlanVersion) -> String?) -> Set<Int> {
        guard let unit else { return [] }
        var flagged: Set<Int> = []
        for lesson in 1...max(unit.lessons, 1) {
            guard let current = lessonVersions[lesson].flatMap(version) else { continue }
            // Walk the lesson's current line back to its first version; each changed objective marks later lessons.
            var step: PlanVersion? = current
            var seen: Set<Int> = []
            while let child = step, let parentNumber = child.parent, !seen.contains(child.number) {
                seen.insert(child.number)
                let parent = version(parentNumber)
                if let parent, let before = objective(parent), let after = objective(child), before != after {
                    for later in (lesson + 1)..<(unit.lessons + 1) {
                        if let laterVersion = lessonVersions[later], laterVersion < child.number { flagged.insert(later) }
                    }
                }
                step = parent
            }
        }
        return flagged
    }
}
