import Foundation
import LessonPlanCore
import LessonPlanStore

/// Why a turn goes out, as the command that sends it says: the one value the prompt builder and the
/// product that judges the answer read. Behaviour follows the purpose, never a template's name; the
/// template is what the purpose is written with.
package enum TurnPurpose: Equatable, Sendable {
    /// A new plan from the inputs alone (`/generate`, the first plan, `/framework NAME` before a plan).
    case generate
    /// The current plan rewritten the way a command asks.
    case revise(Revision)
    /// The current plan again without the problems named (`/repair`, the automatic repair).
    case repair(problems: [String])
    /// After `/regrade`: the plan again, nearer the band's reading level.
    case readingLevel(measured: String, expected: String)
    /// The rest of a plan that stopped early (`/continue`).
    case finish(draft: String)
    /// Something kept beside the current plan, written from it with the template named after its kind: student
    /// handouts (`/materials`), a second opinion on the plan.
    case besidePlan(TurnKind)
    /// A quiz or rubric from the current plan (`/quiz`, `/rubric`).
    case assessment(AssessmentRequest)
    /// That quiz or rubric once more, without the problems its check found.
    case assessmentRepair(AssessmentRequest, draft: String, problems: [String])
    /// A unit's overview of this many lessons (`lessonplan unit`, `/unit N`), in the layout ``UnitPlan`` reads.
    case unitOverview(lessons: Int)
    /// That overview once more, without the problems its check found.
    case unitOverviewRepair(lessons: Int, draft: String, problems: [String])
    /// One lesson of a unit: a whole plan, written with the overview and the lessons before it as context.
    case lesson(UnitLesson)
    /// One section of the current plan written again (`/redo`), the rest kept byte for byte.
    case redo(SectionRedo)
    /// One item of a quiz (`/quiz item N`) or one row of a rubric (`/rubric row N`) written again, the rest kept
    /// byte for byte.
    case part(PartRedo)

    /// The ways a command rewrites the current plan, each with its template of the same name.
    package enum Revision: String, Sendable, CaseIterable {
        case shorten, lengthen, differentiate, regrade, revise, standards
        /// `/reteach`: tomorrow's plan around the misconceptions a quiz's results showed.
        case reteach
        /// `/framework NAME` with a plan: the same lesson in another structure.
        case convert
    }

    /// The template under `prompts/` the request is written with.
    package var template: String {
        switch self {
        case .generate: "generate"
        case .revise(let revision): revision.rawValue
        case .repair: "repair"
        case .readingLevel: "level"
        case .finish: "continue"
        case .besidePlan(let kind): kind.rawValue
        case .assessment(let request): request.template
        case .assessmentRepair(let request, _, _): request.repairTemplate
        case .unitOverview: "unit-overview"
        case .unitOverviewRepair: "unit-overview-repair"
        case .lesson: "unit-lesson"
        case .redo(let redo): redo.template
        case .part(let redo): redo.template
        }
    }

    /// What the answer is: a plan, or something kept beside one.
    package var kind: TurnKind {
        switch self {
        case .generate, .revise, .repair, .readingLevel, .finish, .lesson, .redo: .plan
        case .unitOverview, .unitOverviewRepair: .overview
        case .besidePlan(let kind): kind
        case .assessment(let request), .assessmentRepair(let request, _, _): request.turnKind
        case .part(let redo): redo.kind
        }
    }

    /// The placeholder values the purpose itself carries (the problems, the draft, the level asked for).
    package var values: [String: String] {
        switch self {
        case .generate, .revise, .besidePlan: [:]
        case .repair(let problems): ["problems": problems.map { "- \($0)" }.joined(separator: "\n")]
        case .readingLevel(let measured, let expected): ["level": measured, "expected_level": expected]
        case .finish(let draft): ["draft": draft]
        case .assessment(let request): request.values
        case .assessmentRepair(let request, let draft, let problems):
            request.values.merging(["draft": draft, "problems": AssessmentPrompts.problemList(problems)]) { _, new in new }
        case .unitOverview(let lessons): ["lessons": String(lessons)]
        case .unitOverviewRepair(let lessons, let draft, let problems):
            ["lessons": String(lessons), "draft": draft, "problems": AssessmentPrompts.problemList(problems)]
        case .lesson(let lesson): lesson.values
        case .redo(let redo): redo.values
        case .part(let redo): redo.values
        }
    }

    /// Whether the turn starts from nothing rather than from the current plan.
    package var startsFresh: Bool {
        switch self {
        case .generate, .unitOverview, .unitOverviewRepair, .lesson: true
        default: false
        }
    }

    /// Whether the plan is measured for reading level and retried once when it misses the band: only a change
    /// of grade band sets out to change how hard the text is.
    package var measuresReadingLevel: Bool { self == .revise(.regrade) }

    /// Whether the tool may write the plan's structure and ask only for its content: plans, but not the rest
    /// of a free-text draft.
    package var canBeStructured: Bool {
        switch self {
        case .finish, .redo: return false
        default: return kind == .plan
        }
    }

    /// The templates of turns that write one part again (a section, a quiz item, a rubric row): their answer is
    /// put into what they were asked from, so `/retry` and `/continue` never send one on its own.
    package static let partTemplates: Set<String> = ["redo", "accommodate", "quiz-item", "rubric-row"]

    /// For `/redo`: the section the answer replaces, as the framework spells its heading.
    package var redoneHeading: String? {
        if case .redo(let redo) = self { return redo.heading }
        return nil
    }

    /// The same request once more without `problems` in `draft`, for what is made beside a plan and repaired whole (a
    /// quiz, a rubric, a unit's overview); nil for the rest (a plan's repair reads the plan's own check).
    func repair(draft: String, problems: [String]) -> TurnPurpose? {
        switch self {
        case .assessment(let request): .assessmentRepair(request, draft: draft, problems: problems)
        case .unitOverview(let lessons): .unitOverviewRepair(lessons: lessons, draft: draft, problems: problems)
        default: nil
        }
    }

    /// Whether the request carries the session's sources: everything that writes anew; not a kind that judges the
    /// plan alone (``ProductKind/carriesSources``), nor the rest of a draft, which goes on from its own text.
    package var carriesSources: Bool {
        switch self {
        case .finish: false
        case .besidePlan(let kind): kind.keptKind?.carriesSources ?? true
        default: true
        }
    }
}

/// What `/redo` asks for: one section written again with the whole plan as context, its time and its rules.
package struct SectionRedo: Equatable, Sendable {
    /// The section's heading as the plan writes it (`Warm-Up (0–5 min)`), which the answer is asked to repeat.
    package var section: String
    /// The heading as the framework spells it, which the answer is put in under.
    package var heading: String
    /// The section's minutes, which the new section keeps; nil for one with no time of its own.
    package var minutes: Int?
    /// What the teacher asked for; empty for "write it again".
    package var request: String
    /// The framework's rules for this section (counts, numbering), one per line, or empty.
    package var rules: String
    /// The template it is written with: `redo`, or `accommodate` for `/accommodate`'s table of supports.
    package var template: String

    package init(section: String, heading: String, minutes: Int?, request: String, rules: String, template: String = "redo") {
        self.section = section
        self.heading = heading
        self.minutes = minutes
        self.request = request
        self.rules = rules
        self.template = template
    }

    /// The template's placeholder values.
    var values: [String: String] {
        [
            "section": section,
            "section_time": minutes.map { "It takes \($0) minutes of the lesson; keep exactly that time and its place in the pacing." }
                ?? "It takes no class time of its own.",
            "request": request.isEmpty ? "Write it again, better for these students; keep what works." : request,
            "section_rules": rules.isEmpty ? "" : rules,
        ]
    }
}

/// What `/quiz item N` and `/rubric row N` ask for: one item of a quiz or one criterion's row of a rubric (with
/// its student version's row) written again, with the plan and the whole quiz or rubric as context.
package struct PartRedo: Equatable, Sendable {
    /// Which kind of part: each has its template and its splice.
    package enum Part: Equatable, Sendable {
        case quizItem, rubricRow
    }

    package var part: Part
    /// The quiz's or rubric's text as it was made.
    package var text: String
    /// The item's or row's number, from 1.
    package var number: Int
    /// What the teacher asked for; empty for "write it again".
    package var request: String

    package init(_ part: Part, text: String, number: Int, request: String) {
        self.part = part
        self.text = text
        self.number = number
        self.request = request
    }

    /// The template under `prompts/` the request is written with.
    var template: String { part == .quizItem ? "quiz-item" : "rubric-row" }

    /// What the answer is put into: a quiz or a rubric.
    var kind: TurnKind { part == .quizItem ? .quiz : .rubric }

    /// The template's placeholder values.
    var values: [String: String] {
        let again =
            part == .quizItem
            ? "Write it again, clearer and better at showing what students learned."
            : "Write it again, clearer for students and easier to score."
        return ["draft": text, "item_number": String(number), "request": request.isEmpty ? again : request]
    }
}
