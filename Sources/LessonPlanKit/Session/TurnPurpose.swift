import Foundation
import LessonPlanCore
import LessonPlanStore

/// Why a turn goes out, as the command that sends it says: the one value the prompt builder and the
/// product that judges the answer read. Behaviour follows the purpose, never a template's name; the
/// template is what the purpose is written with.
public enum TurnPurpose: Equatable, Sendable {
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
    /// Student handouts from the current plan (`/materials`).
    case materials
    /// A quiz or rubric from the current plan (`/quiz`, `/rubric`).
    case assessment(AssessmentRequest)
    /// That quiz or rubric once more, without the problems its check found.
    case assessmentRepair(AssessmentRequest, draft: String, problems: [String])
    /// A second opinion on the current plan against the review criteria (`/review`).
    case review
    /// A unit's overview of this many lessons (`lessonplan unit`, `/unit N`), in the layout ``UnitPlan`` reads.
    case unitOverview(lessons: Int)
    /// That overview once more, without the problems its check found.
    case unitOverviewRepair(lessons: Int, draft: String, problems: [String])
    /// One lesson of a unit: a whole plan, written with the overview and the lessons before it as context.
    case lesson(UnitLesson)

    /// The ways a command rewrites the current plan, each with its template of the same name.
    public enum Revision: String, Sendable, CaseIterable {
        case shorten, lengthen, differentiate, regrade, revise, standards
        /// `/framework NAME` with a plan: the same lesson in another structure.
        case convert
    }

    /// The template under `prompts/` the request is written with.
    public var template: String {
        switch self {
        case .generate: "generate"
        case .revise(let revision): revision.rawValue
        case .repair: "repair"
        case .readingLevel: "level"
        case .finish: "continue"
        case .materials: "materials"
        case .assessment(let request): request.template
        case .assessmentRepair(let request, _, _): request.repairTemplate
        case .review: "review"
        case .unitOverview: "unit-overview"
        case .unitOverviewRepair: "unit-overview-repair"
        case .lesson: "unit-lesson"
        }
    }

    /// What the answer is: a plan, or something kept beside one.
    public var kind: TurnKind {
        switch self {
        case .generate, .revise, .repair, .readingLevel, .finish, .lesson: .plan
        case .unitOverview, .unitOverviewRepair: .overview
        case .materials: .materials
        case .assessment(let request), .assessmentRepair(let request, _, _): request.turnKind
        case .review: .review
        }
    }

    /// The placeholder values the purpose itself carries (the problems, the draft, the level asked for).
    public var values: [String: String] {
        switch self {
        case .generate, .revise, .materials, .review: [:]
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
        }
    }

    /// Whether the turn starts from nothing rather than from the current plan.
    public var startsFresh: Bool {
        switch self {
        case .generate, .unitOverview, .unitOverviewRepair, .lesson: true
        default: false
        }
    }

    /// Whether the plan is measured for reading level and retried once when it misses the band: only a change
    /// of grade band sets out to change how hard the text is.
    public var measuresReadingLevel: Bool { self == .revise(.regrade) }

    /// Whether the tool may write the plan's structure and ask only for its content: plans, but not the rest
    /// of a free-text draft.
    public var canBeStructured: Bool {
        if case .finish = self { return false }
        return kind == .plan
    }

    /// Whether the request carries the session's sources: everything that writes anew; not a review, which
    /// judges the plan alone, nor the rest of a draft, which goes on from its own text.
    public var carriesSources: Bool {
        switch self {
        case .review, .finish: false
        default: true
        }
    }
}
