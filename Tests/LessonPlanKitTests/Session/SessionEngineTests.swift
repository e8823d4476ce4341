import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import Synchronization
import TestSupport
import Testing

/// The session engine against an in-memory model (``ScriptedModel``), with a retry clock that records its waits
/// and timers that fire when the test says: every retry, failure, deadline, `/retry` and `/continue`, and what the
/// transcript keeps. No socket, no Python, no real waiting.
@Suite struct SessionEngineTests {
    typealias ProgressLog = TestSupport.ProgressLog
    typealias Fixture = EngineFixture

    /// A turn still running after the slow-notice time says why once (not again as it goes on), and the plan
    /// still arrives whole.
    @Test func aSlowTurnSaysWhyOnceAndStillFinishes() async throws {
        // The slow notice's timer fires (0.3 s is within the clock's reach), the deadline's does not; the answer
        // is held until the notice has been given.
        let model = ScriptedModel([.held])
        let fixture = try await Fixture(slowNotice: 0.3, model: model, timers: TimerClock(firesWithin: 1))
        defer { fixture.home.remove() }
        let log = ProgressLog()
        let outcome = await fixture.engine.run(command: "/generate", refinement: Refinement(.generate, inputs: fixture.inputs)) { update in
            log.record(update)
            if case .notice(let text) = update, text.hasPrefix("Still writing after") { model.open() }
        }
        #expect(outcome.status == .completed)
        let notices = log.all.compactMap { if case .notice(let text) = $0, text.hasPrefix("Still writing after") { text } else { nil } }
        #expect(notices.count == 1, "\(notices)")
        #expect(notices.first?.contains("Ctrl-C to cancel") == true && notices.first?.contains("--max-output-tokens 1024") == true)
    }

    @Test func theSlowNoticeNamesABusyMachine() {
        #expect(SlowTurn.notice(after: 90, load: 3.6, cores: 2).hasPrefix("Still writing after 90 s: this machine is busy (load 3.6 on 2 cores)"))
        #expect(SlowTurn.notice(after: 90, load: 0.4, cores: 2).contains("slower than usual on this machine"))
        #expect(SlowTurn.notice(after: 90, load: nil, cores: 1).contains("slower than usual"))
    }

    @Test func aRateLimitWithRetryAfterIsWaitedOutAndThenSucceeds() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        fixture.model.script([.error(status: 429, headers: ["retry-after": "2"]), .plan])
        let log = ProgressLog()
        let outcome = await fixture.generate(log)

        #expect(outcome.status == .completed)
        #expect(outcome.version == 1)
        #expect(fixture.clock.sleeps == [2])
        #expect(log.waits == [RetryWait(reason: "rate limited", seconds: 2, retry: 1, maxRetries: 2)])
        #expect(log.waits.first?.description == "rate limited — retrying in 2 s (1/2)")
        #expect(fixture.model.requests.count == 2)
        // One turn in the transcript, whatever the number of attempts.
        let state = try await fixture.reread()
        #expect(state.turns.count == 1)
        #expect(state.turns.first?.ended?.status == .completed)
        #expect(state.currentVersion == 1)
    }

    @Test func fiveHundredThreeTimesFailsAfterTwoBackedOffRetries() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        _ = await fixture.generate()
        fixture.model.resetLog()
        fixture.model.script([.error(status: 500), .error(status: 500), .error(status: 500)])
        let outcome = try await fixture.shorten(to: 30)

        #expect(outcome.status == .failed)
        #expect(outcome.version == nil)
        // 0.5 s and 1 s, each less the fixed jitter of 0.5 × 25%.
        #expect(fixture.clock.sleeps == [0.4375, 0.875])
        #expect(outcome.message?.hasPrefix("The server had an error (500: The server had an error while processing your request.") == true)
        #expect(outcome.message?.contains("/retry") == true)
        #expect(fixture.model.requests.count == 3)
        let state = try await fixture.reread()
        #expect(state.currentVersion == 1)
        #expect(state.versions.count == 1)
        let last = try #require(state.turns.last?.ended)
        #expect(last.status == .failed && last.version == nil && last.error == outcome.message)
        #expect(state.retryTarget?.command == "/shorten 30")
    }

    @Test func noRetriesWhenTheyAreTurnedOff() async throws {
        let fixture = try await Fixture(maxRetries: 0)
        defer { fixture.home.remove() }
        fixture.model.script([.error(status: 503)])
        let outcome = await fixture.generate()
        #expect(outcome.status == .failed)
        #expect(fixture.clock.sleeps.isEmpty)
        #expect(fixture.model.requests.count == 1)
    }

    @Test func aSpentQuotaFailsAtOnceAndSaysWhereToCheckBilling() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        fixture.model.script([
            .error(status: 429, message: "You exceeded your current quota.", type: "insufficient_quota", code: "insufficient_quota")
        ])
        let outcome = await fixture.generate()
        #expect(outcome.status == .failed)
        #expect(outcome.message?.contains("quota is used up") == true)
        #expect(outcome.message?.contains("billing") == true)
        #expect(fixture.clock.sleeps.isEmpty)
        #expect(fixture.model.requests.count == 1)
    }

    @Test func aStreamCutAfterTextIsNotRetriedAndKeepsThePartialText() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        _ = await fixture.generate()
        fixture.model.script([.cut(afterDeltas: 4)])
        let log = ProgressLog()
        let outcome = try await fixture.shorten(to: 30, log)

        #expect(outcome.status == .failed)
        #expect(!log.text.isEmpty)
        #expect(outcome.text == log.text)
        #expect(outcome.message?.contains("dropped before the answer was complete") == true)
        #expect(outcome.message?.contains("/retry") == true)
        #expect(fixture.clock.sleeps.isEmpty)
        #expect(fixture.model.requests.count == 2)
        let state = try await fixture.reread()
        #expect(state.currentVersion == 1)
        #expect(state.turns.last?.ended?.output == log.text)
    }

    @Test func aStreamCutBeforeAnyTextIsRetried() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        fixture.model.script([.cut(afterDeltas: 0), .plan])
        let log = ProgressLog()
        let outcome = await fixture.generate(log)
        #expect(outcome.status == .completed)
        #expect(log.waits.map(\.reason) == ["connection dropped"])
        #expect(log.text.contains("Plan #2"))
        #expect(!log.text.contains("Plan #1"))
    }

    @Test func ctrlCDuringARetryWaitCancelsTheTurn() async throws {
        let clock = RecordingRetryClock(holdsUntilCancelled: true)
        let fixture = try await Fixture(clock: clock)
        defer { fixture.home.remove() }
        fixture.model.script([.error(status: 429, headers: ["retry-after": "30"])])
        let engine = fixture.engine
        let inputs = fixture.inputs
        let turn = Task {
            await engine.run(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) { _ in }
        }
        var waits = clock.waits.makeAsyncIterator()
        #expect(await waits.next() == 30)
        turn.cancel()
        let outcome = await turn.value

        #expect(outcome.status == .cancelled)
        #expect(outcome.message == "Cancelled; the plan is unchanged.")
        #expect(fixture.model.requests.count == 1)
        let state = try await fixture.reread()
        #expect(state.turns.last?.ended?.status == .cancelled)
        #expect(state.retryTarget?.command == "/generate")
    }

    @Test func theTotalDeadlineStopsAServerThatTricklesOn() async throws {
        // The answer sends a delta and then nothing, and the idle timeout never fires: only the deadline can end
        // it, and its timer fires once the answer has gone quiet.
        let model = ScriptedModel()
        let fixture = try await Fixture(deadline: 1, model: model, timers: TimerClock(firesWithin: 1) { await model.trickleStarted() })
        defer { fixture.home.remove() }
        fixture.model.script([.trickle])
        let log = ProgressLog()
        let outcome = await fixture.generate(log)

        #expect(outcome.status == .failed)
        #expect(outcome.message == ModelError.deadline(seconds: 1).errorDescription)
        #expect(outcome.message?.contains("--deadline") == true)
        #expect(outcome.text == log.text)
        #expect(fixture.model.cancelledBodies == 1, "the request was given up, not left reading")
        let state = try await fixture.reread()
        #expect(state.turns.last?.ended?.error == outcome.message)
    }

    @Test func retrySendsTheSameRequestAgainAndRecordsWhichTurnItRepeats() async throws {
        let fixture = try await Fixture(maxRetries: 0)
        defer { fixture.home.remove() }
        _ = await fixture.generate()
        fixture.model.script([.error(status: 500)])
        _ = try await fixture.shorten(to: 30)
        let outcome = await fixture.engine.retry { _ in }

        #expect(outcome.status == .completed)
        #expect(outcome.version == 2)
        #expect(fixture.model.requests.count == 3)
        #expect(fixture.model.inputs[2] == fixture.model.inputs[1])
        #expect(fixture.model.instructions[2] == fixture.model.instructions[1])
        let state = try await fixture.reread()
        let retried = try #require(state.turns.last?.started)
        #expect(retried.command == "/shorten 30")
        #expect(retried.retryOf == 2)
        #expect(retried.baseVersion == 1)
        #expect(state.version(2)?.parent == 1)
        #expect(state.version(2)?.inputs.minutes == 30)
        #expect(state.retryTarget == nil)
        let nothing = await fixture.engine.retry { _ in }
        #expect(nothing.status == .failed && nothing.message?.hasPrefix("Nothing to retry") == true)
    }

    @Test func anIncompleteAnswerIsADraftThatContinueFinishes() async throws {
        let fixture = try await Fixture()
        defer { fixture.home.remove() }
        _ = await fixture.generate()
        fixture.model.script([
            .incomplete(text: "Learning Objective\nStudents will", reason: "max_output_tokens"),
            .text(" explain why tides rise.\nMaterials\n- A globe\n"),
        ])
        let first = try await fixture.shorten(to: 30)
        #expect(first.status == .incomplete)
        #expect(first.message?.contains("/continue") == true)
        #expect(first.message?.contains("output limit of 8192 tokens") == true)

        // The draft survives a resume: it is folded from the transcript.
        let resumed = try await fixture.reread()
        let draft = try #require(resumed.draft)
        #expect(draft.text == "Learning Objective\nStudents will")
        #expect(draft.baseVersion == 1)
        #expect(resumed.commandContext.draftCommand == "/shorten 30")
        #expect(resumed.currentVersion == 1)

        let log = ProgressLog()
        let outcome = await fixture.engine.continueDraft { log.record($0) }
        #expect(outcome.status == .completed)
        #expect(log.text == " explain why tides rise.\nMaterials\n- A globe\n")
        let state = try await fixture.reread()
        let joined = try #require(state.current)
        #expect(joined.number == 2)
        #expect(joined.text == "Learning Objective\nStudents will explain why tides rise.\nMaterials\n- A globe\n")
        #expect(joined.parent == 1)
        #expect(joined.inputs.minutes == 30)
        #expect(joined.command == "/continue")
        #expect(state.turns.last?.started.continues == 2)
        #expect(state.draft == nil)
        let request = try #require(fixture.model.inputs.last)
        #expect(request.contains("<<<DRAFT\nLearning Objective\nStudents will\nDRAFT>>>"))
        #expect(request.contains("30-minute lesson on Tides for grades 6–8"))
    }

    @Test func retryingAFailedContinueStillJoinsTheDraft() async throws {
        let fixture = try await Fixture(maxRetries: 0)
        defer { fixture.home.remove() }
        fixture.model.script([
            .incomplete(text: "Part one,", reason: "max_output_tokens"), .error(status: 502), .text(" part two."),
        ])
        _ = await fixture.generate()
        let failed = await fixture.engine.continueDraft { _ in }
        #expect(failed.status == .failed)
        let outcome = await fixture.engine.retry { _ in }
        #expect(outcome.status == .completed)
        let state = try await fixture.reread()
        #expect(state.current?.text == "Part one, part two.")
        #expect(state.turns.last?.started.retryOf == 2)
        #expect(state.turns.last?.started.continues == 1)
    }

    @Test func withoutAKeyNothingIsSentButTheTurnIsRecorded() async throws {
        let model = ScriptedModel()
        let home = try TemporaryHome()
        defer { home.remove() }
        let inputs = try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45)
        let engine = try SessionEngine(
            newSessionWith: inputs, name: nil, store: home.store, prompts: .builtIn,
            client: ModelClient(
                transport: model,
                settings: ModelSettings(baseURL: URL(string: "https://api.openai.com/v1") ?? URL(fileURLWithPath: "/"), apiKey: nil, model: "m")),
            toolVersion: "test", retryClock: RecordingRetryClock())
        let outcome = await engine.run(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) { _ in }
        #expect(outcome.status == .failed)
        let id = await engine.state.header.id.prefix(8)
        #expect(outcome.message?.hasPrefix("No API key is set, so nothing was sent; the session is saved.") == true)
        #expect(outcome.message?.hasSuffix("then `lessonplan resume \(id)` goes on from here.") == true, "\(outcome.message ?? "")")
        #expect(outcome.message.map { !$0.contains("try again") } == true)
        #expect(model.requests.isEmpty)
        #expect(await engine.state.turns.last?.ended?.error == outcome.message)
    }
}
