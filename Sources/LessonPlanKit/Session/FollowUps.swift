import Foundation
import LessonPlanCore
import LessonPlanStore

/// Why a plan is about to be asked for again without the teacher typing anything.
package enum FollowUp: Sendable, Equatable {
    /// The draft failed the plan check; the problems, worded in the framework's section names, go to the model.
    case repair(draft: Int, problems: [String])
    /// After `/regrade`, the draft's student-facing text missed the band's reading level.
    case readingLevel(draft: Int, measure: ReadingMeasure)
    /// A quiz or rubric failed its check; the problems go to the model.
    case assessmentRepair(kind: TurnKind, number: Int, problems: [String])
    /// A structured answer did not fit the plan's parts; the same request goes out once more.
    case reask(problem: String)

    /// Whether the follow-up's answer replaces the draft only if it is better, so a front end holds it back
    /// until its verdict instead of streaming an answer that may not be kept.
    package var isJudged: Bool {
        switch self {
        case .repair, .readingLevel, .assessmentRepair: true
        case .reask: false
        }
    }
}

/// What the front end hears while a request and its automatic follow-ups run.
package enum RequestProgress: Sendable, Equatable {
    /// Progress of the turn that is running.
    case turn(TurnProgress)
    /// A turn ended (the request's own, or a follow-up).
    case ended(TurnOutcome)
    /// An automatic follow-up turn is about to start.
    case followUp(FollowUp)
}

/// The switches for the automatic turns that may follow a request.
package struct FollowUpOptions: Sendable, Equatable {
    /// Repair a plan that fails the check, once (`--no-repair`, `/repair off` turn it off).
    package var repair: Bool
    /// After `/regrade`, ask once more when the reading level misses the band.
    package var readingLevel: Bool

    package init(repair: Bool = true, readingLevel: Bool = true) {
        self.repair = repair
        self.readingLevel = readingLevel
    }
}

/// A request and what followed it.
package struct RequestResult: Sendable, Equatable {
    /// The request's own turn first, then any follow-ups, in order.
    package var outcomes: [TurnOutcome]
    /// For a request that measures reading level: the plan's level before it.
    package var levelBefore: ReadingMeasure?
    /// For a request that measures reading level: the current plan's level after it and its follow-ups.
    package var levelAfter: ReadingMeasure?

    /// The request's own turn.
    package var first: TurnOutcome { outcomes.first ?? TurnOutcome(notSent: nil) }
}

/// When the plan of a follow-up turn replaces the current one.
package enum KeepRule: Sendable, Equatable {
    /// Every completed plan becomes the current version (a turn the teacher asked for).
    case always
    /// Only a plan that checks strictly better than the draft's report (a repair).
    case checksBetter(than: PlanCheckReport)
    /// Only a plan whose reading level is closer to the band's range and that checks no worse (a retry after /regrade).
    case closerReadingLevel(than: ReadingMeasure, check: PlanCheckReport)
    /// Only a quiz or rubric with fewer problems than its draft's count (a repair of one).
    case fewerProblems(than: Int)
    /// A repair of a plan with quotation problems: kept with fewer of them and a check no worse, or a better
    /// check and no more of them.
    case groundedBetter(than: PlanCheckReport, quoteProblems: Int)

    /// One sentence on the decision about the plan that would replace version `draft`.
    package func note(kept: Bool, draft: Int, level: ReadingMeasure?) -> String? {
        switch self {
        case .always, .fewerProblems:
            return nil
        case .checksBetter, .groundedBetter:
            return kept
                ? "The repaired plan checks better, so it replaces v\(draft)."
                : "The repaired plan checks no better than v\(draft), so v\(draft) stays; /show repair shows it."
        case .closerReadingLevel(let draftLevel, _):
            let measured = level.map { "grade \($0.gradeText)" } ?? "no measurable text"
            return kept
                ? "The retry reads at \(measured), closer to \(draftLevel.expectedText), so it replaces v\(draft)."
                : "The retry reads at \(measured), no closer to \(draftLevel.expectedText) without checking worse, so v\(draft) stays."
        }
    }

    /// Whether a plan with this check and reading level is kept.
    package func keeps(check: PlanCheckReport, level: ReadingMeasure?) -> Bool {
        switch self {
        case .always:
            return true
        case .checksBetter(let draft):
            return check.isBetter(than: draft)
        case .closerReadingLevel(let draftLevel, let draftCheck):
            guard let level, level.grade != nil else { return false }
            return level.distance < draftLevel.distance && !draftCheck.isBetter(than: check)
        case .fewerProblems:
            return false
        case .groundedBetter(let draft, _):
            return check.isBetter(than: draft)
        }
    }

    /// Whether a plan with this check, reading level and number of unverified quotations is kept.
    package func keeps(check: PlanCheckReport, level: ReadingMeasure?, quoteProblems: Int) -> Bool {
        guard case .groundedBetter(let draft, let draftQuotes) = self else { return keeps(check: check, level: level) }
        if quoteProblems < draftQuotes { return !draft.isBetter(than: check) }
        return quoteProblems == draftQuotes && check.isBetter(than: draft)
    }

    /// Whether a quiz or rubric with this many problems is kept.
    package func keeps(problems: Int) -> Bool {
        switch self {
        case .fewerProblems(let draft): problems < draft
        default: true
        }
    }
}

/// An automatic turn a request sends after one of its own, as ``FollowUpMachine`` decides.
enum FollowUpTurn: Sendable {
    /// The same request once more, as `/retry` would: a structured answer did not fit the plan's parts.
    case reask(problem: String)
    /// The current plan without the problems its check found (``SessionEngine/repair(command:automatic:progress:)``).
    case repairPlan
    /// After `/regrade`, the current plan once more nearer the band's reading level; kept only when closer.
    case readingLevel(draft: PlanVersion, measure: ReadingMeasure, check: PlanCheckReport)
    /// A quiz, rubric or unit overview once more without the problems its check found, following `follows` (the
    /// number of what it repairs, or for an overview its turn) and kept as `keep` says.
    case repairMade(FollowUp, purpose: TurnPurpose, follows: Int, keep: KeepRule)
}

/// What the follow-ups of a plan request read of the session once a turn has ended: the current plan, its check
/// and its reading level.
struct FollowUpFacts {
    var current: PlanVersion?
    var check: PlanCheckReport?
    var level: ReadingMeasure?
}

/// The automatic turns of one request as a value: after each turn ``next(after:turn:facts:)`` says what goes out next
/// or that the request is done, and each follow-up goes at most once. The one place that decides the repair and the
/// re-ask for every kind: a plan (re-ask a structured answer that did not fit, repair one that fails its check,
/// retry a `/regrade` that missed the band) and what is made beside it (repair a quiz, a rubric or a unit's overview
/// that fails its check). The engine sends what it is told and records each turn.
struct FollowUpMachine: Sendable {
    enum Next: Sendable {
        case send(FollowUpTurn)
        case done
    }

    /// What the request asked for.
    let purpose: TurnPurpose
    let options: FollowUpOptions
    /// Which follow-ups went out (or were decided against): each goes at most once.
    private var reasked = false
    private var repaired = false
    private var leveled = false
    /// Whether the request's own turn (or its re-ask) completed; a plan's later steps follow only then.
    private var completed = false

    init(_ purpose: TurnPurpose, options: FollowUpOptions) {
        self.purpose = purpose
        self.options = options
    }

    /// What goes out after `outcome` (the request's own turn or a follow-up), numbered `turn` in the transcript;
    /// `draft` is what a repair starts from when it is not the answer as it came (an overview as read), and `facts`
    /// is read only for a plan's reading level.
    mutating func next(
        after outcome: TurnOutcome, turn: Int? = nil, draft: String? = nil, facts: () -> FollowUpFacts = { FollowUpFacts() }
    ) -> Next {
        guard !Task.isCancelled else { return .done }
        if !reasked, !repaired, !leveled {
            reasked = true
            // An overview that does not fit its schema is judged by its check and repaired instead.
            if outcome.unfittingStructure, purpose.kind != .overview { return .send(.reask(problem: outcome.message ?? "")) }
        }
        // The request's own answer, or the re-ask's that stands in for it.
        if !repaired, !leveled { completed = outcome.status == .completed }
        guard completed else { return .done }
        return purpose.kind == .plan
            ? nextForPlan(after: outcome, facts: facts) : nextForMade(after: outcome, turn: turn, draft: draft ?? outcome.text)
    }

    /// A plan: one repair when it fails its check (not for a section redone: that would rewrite the sections the
    /// teacher chose to keep), then after `/regrade` one retry when the reading level misses the band.
    private mutating func nextForPlan(after outcome: TurnOutcome, facts: () -> FollowUpFacts) -> Next {
        if !repaired {
            repaired = true
            if options.repair, outcome.needsRepair, purpose.redoneHeading == nil { return .send(.repairPlan) }
        }
        guard purpose.measuresReadingLevel, options.readingLevel, !leveled else { return .done }
        leveled = true
        let known = facts()
        guard let current = known.current, let measured = known.level, !measured.inRange, measured.grade != nil,
            let check = known.check
        else { return .done }
        return .send(.readingLevel(draft: current, measure: measured, check: check))
    }

    /// A quiz, rubric or overview: one repair when its check found problems and repair is on. A quiz's or rubric's
    /// is kept only with fewer problems; of an overview's two, the engine takes the one with fewer.
    private mutating func nextForMade(after outcome: TurnOutcome, turn: Int?, draft: String) -> Next {
        guard options.repair, !repaired, !outcome.assessmentProblems.isEmpty,
            let repair = purpose.repair(draft: draft, problems: outcome.assessmentProblems)
        else { return .done }
        repaired = true
        let kind = purpose.kind
        // A quiz or rubric repair follows the one it repairs by number; an overview's, the turn that wrote it.
        guard let follows = kind == .overview ? turn : outcome.made?.number else { return .done }
        let why = FollowUp.assessmentRepair(kind: kind, number: kind == .overview ? 1 : follows, problems: outcome.assessmentProblems)
        let keep = kind == .overview ? KeepRule.always : .fewerProblems(than: outcome.assessmentProblems.count)
        return .send(.repairMade(why, purpose: repair, follows: follows, keep: keep))
    }
}
