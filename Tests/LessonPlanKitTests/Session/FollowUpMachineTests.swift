import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore
import TestSupport
import Testing

@testable import LessonPlanKit

/// The follow-ups of a request as a value: after each turn, what goes out next, each at most once, for a plan, a
/// quiz or rubric, and a unit's overview.
@Suite struct FollowUpMachineTests {
    static func outcome(
        status: TurnStatus = .completed, version: Int? = nil, check: PlanCheckReport? = nil, made: Made? = nil,
        problems: [String] = [], unfitting: Bool = false
    ) -> TurnOutcome {
        var ended = TranscriptFixtures.ended(4, status: status, output: "the answer", version: version)
        ended.check = check
        ended.made = made
        var outcome = TurnOutcome(ended: ended)
        outcome.assessmentProblems = problems
        outcome.unfittingStructure = unfitting
        return outcome
    }

    static let failing = FollowUpRecordTests.report

    static func version() throws -> PlanVersion {
        PlanVersion(
            number: 3, text: "plan", command: "/regrade 9-12", inputs: try LessonInputs(grade: .nineTo12, topic: "Tides", minutes: 45),
            parent: 2, createdAt: TranscriptFixtures.t0)
    }

    @Test func aPlanThatDidNotFitIsAskedForOnceMoreThenRepairedOnce() {
        var machine = FollowUpMachine(.generate, options: FollowUpOptions())
        guard case .send(.reask) = machine.next(after: Self.outcome(unfitting: true)) else {
            Issue.record("no re-ask")
            return
        }
        // The re-ask did not fit either: it is not asked a third time; it failed, so nothing follows.
        #expect(machine.next(after: Self.outcome(status: .failed, unfitting: true)).isDone)

        var again = FollowUpMachine(.generate, options: FollowUpOptions())
        _ = again.next(after: Self.outcome(unfitting: true))
        guard case .send(.repairPlan) = again.next(after: Self.outcome(version: 2, check: Self.failing)) else {
            Issue.record("the re-asked plan fails its check but is not repaired")
            return
        }
        // The repair's plan fails too: no second repair.
        #expect(again.next(after: Self.outcome(version: 3, check: Self.failing)).isDone)
    }

    @Test func noRepairWhenItIsOffOrOnlyOneSectionWasRedone() {
        var off = FollowUpMachine(.generate, options: FollowUpOptions(repair: false))
        #expect(off.next(after: Self.outcome(version: 2, check: Self.failing)).isDone)
        let redo = SectionRedo(section: "Warm-Up (0–5 min)", heading: "Warm-Up", minutes: 5, request: "", rules: "")
        var redone = FollowUpMachine(.redo(redo), options: FollowUpOptions())
        #expect(redone.next(after: Self.outcome(version: 2, check: Self.failing)).isDone)
        var failed = FollowUpMachine(.generate, options: FollowUpOptions())
        #expect(failed.next(after: Self.outcome(status: .failed)).isDone)
    }

    @Test func aRegradeThatMissesTheBandIsRetriedOnceAfterItsRepair() throws {
        let current = try Self.version()
        let measured = FollowUpRecordTests.measure("The cat sat. The dog ran. We go.", .nineTo12)
        #expect(!measured.inRange && measured.grade != nil)
        let facts = FollowUpFacts(current: current, check: Self.failing, level: measured)
        var machine = FollowUpMachine(.revise(.regrade), options: FollowUpOptions())
        guard case .send(.repairPlan) = machine.next(after: Self.outcome(version: 3, check: Self.failing), facts: { facts }) else {
            Issue.record("no repair first")
            return
        }
        guard case .send(.readingLevel(let draft, let measure, _)) = machine.next(after: Self.outcome(version: 4), facts: { facts }) else {
            Issue.record("no reading-level retry")
            return
        }
        #expect(draft.number == 3 && measure == measured)
        #expect(machine.next(after: Self.outcome(version: 5), facts: { facts }).isDone)

        var inBand = FollowUpMachine(.revise(.regrade), options: FollowUpOptions(readingLevel: false))
        #expect(inBand.next(after: Self.outcome(version: 3), facts: { facts }).isDone)
        var unmeasured = FollowUpMachine(.revise(.regrade), options: FollowUpOptions())
        #expect(unmeasured.next(after: Self.outcome(version: 3), facts: { FollowUpFacts(current: current) }).isDone)
    }

    @Test func aQuizWithProblemsIsRepairedOnceAndKeptOnlyWithFewer() {
        let request = AssessmentRequest.quiz(kind: .exit, items: 5)
        var machine = FollowUpMachine(.assessment(request), options: FollowUpOptions())
        let first = Self.outcome(made: Made(.quiz, 2), problems: ["Item 3 has two answers.", "Item 4 gives it away."])
        guard case .send(.repairMade(let why, let purpose, let follows, let keep)) = machine.next(after: first) else {
            Issue.record("no repair")
            return
        }
        #expect(why == .assessmentRepair(kind: .quiz, number: 2, problems: first.assessmentProblems))
        #expect(purpose == .assessmentRepair(request, draft: "the answer", problems: first.assessmentProblems))
        #expect(follows == 2 && keep == .fewerProblems(than: 2))
        #expect(machine.next(after: Self.outcome(made: Made(.quiz, 3), problems: ["Item 3 has two answers."])).isDone)

        var off = FollowUpMachine(.assessment(request), options: FollowUpOptions(repair: false))
        #expect(off.next(after: first).isDone)
        var clean = FollowUpMachine(.assessment(request), options: FollowUpOptions())
        #expect(clean.next(after: Self.outcome(made: Made(.quiz, 2))).isDone)
        // Handouts and a second opinion are not repaired whole, whatever their check found.
        var review = FollowUpMachine(.besidePlan(.review), options: FollowUpOptions())
        #expect(review.next(after: Self.outcome(made: Made(.review, 1), problems: ["A quotation is not in the plan."])).isDone)
    }

    @Test func anOverviewIsRepairedFromItsTextAsReadFollowingItsTurn() {
        var machine = FollowUpMachine(.unitOverview(lessons: 4), options: FollowUpOptions())
        let first = Self.outcome(problems: ["Lesson 3 is missing."], unfitting: true)
        guard case .send(.repairMade(let why, let purpose, let follows, let keep)) = machine.next(after: first, turn: 7, draft: "as read")
        else {
            Issue.record("an overview is re-asked or not repaired")
            return
        }
        #expect(why == .assessmentRepair(kind: .overview, number: 1, problems: ["Lesson 3 is missing."]))
        #expect(purpose == .unitOverviewRepair(lessons: 4, draft: "as read", problems: ["Lesson 3 is missing."]))
        #expect(follows == 7 && keep == .always)
        #expect(machine.next(after: Self.outcome(problems: ["Lesson 3 is missing."]), turn: 8).isDone)
    }
}

extension FollowUpMachine.Next {
    var isDone: Bool {
        if case .done = self { true } else { false }
    }
}
