import Foundation
import LessonPlanCore
import LessonPlanModel
import Testing

@Suite struct TurnStateMachineTests {
    @Test func aNormalTurnStreamsThenCompletes() {
        var machine = TurnStateMachine(maxOutputTokens: 100)
        #expect(machine.state == .idle)
        machine.send()
        #expect(machine.state == .sending)
        #expect(machine.receive(.created(responseID: "resp_1")) == .none)
        #expect(machine.receive(.unknown(type: "response.reasoning_summary_text.delta")) == .none)
        #expect(machine.receive(.textDelta("Learning ")) == .show("Learning "))
        #expect(machine.state == .streaming && machine.hasShownText)
        #expect(machine.receive(.textDelta("Objective")) == .show("Objective"))
        let usage = Usage(inputTokens: 10, outputTokens: 2)
        #expect(machine.receive(.completed(responseID: nil, usage: usage)) == .finish(.completed))
        #expect(machine.state == .finished(.completed))
        #expect(machine.text == "Learning Objective" && machine.usage == usage && machine.responseID == "resp_1")
        #expect(machine.failure == nil)
        // Nothing moves a finished turn.
        #expect(machine.receive(.textDelta("more")) == .none)
        #expect(machine.cancel() == .none && machine.text == "Learning Objective")
    }

    @Test func endingsThatAreNotCompletion() {
        var incomplete = TurnStateMachine(maxOutputTokens: 900)
        incomplete.send()
        _ = incomplete.receive(.textDelta("Half a plan"))
        #expect(incomplete.receive(.incomplete(responseID: nil, reason: "max_output_tokens", usage: nil)) == .finish(.incomplete))
        #expect(incomplete.failure == .incomplete(reason: "max_output_tokens", maxOutputTokens: 900))
        #expect(incomplete.text == "Half a plan")

        var cut = TurnStateMachine(maxOutputTokens: 1)
        cut.send()
        _ = cut.receive(.textDelta("Half"))
        #expect(cut.endOfStream() == .finish(.failed))
        #expect(cut.failure == .cutOff)

        var failed = TurnStateMachine(maxOutputTokens: 1)
        failed.send()
        #expect(failed.receive(.failed(responseID: nil, message: "overloaded", code: nil)) == .finish(.failed))
        #expect(failed.failure == .failed(message: "overloaded", code: nil))

        var errored = TurnStateMachine(maxOutputTokens: 1)
        errored.send()
        #expect(errored.receive(.error(message: "bad", code: "x")) == .finish(.failed))
        #expect(errored.failure == .streamError(message: "bad", code: "x"))

        var cancelled = TurnStateMachine(maxOutputTokens: 1)
        cancelled.send()
        _ = cancelled.receive(.textDelta("Part"))
        #expect(cancelled.cancel() == .finish(.cancelled))
        #expect(cancelled.state == .finished(.cancelled) && cancelled.text == "Part")

        var transport = TurnStateMachine(maxOutputTokens: 1)
        transport.send()
        #expect(transport.fail(.transport(.timedOut, host: "h")) == .finish(.failed))
    }

    @Test func refusalsAndEmptyAnswersFail() {
        var refusal = TurnStateMachine(maxOutputTokens: 1)
        refusal.send()
        #expect(refusal.receive(.refusalDelta("I can't help with that.")) == .none)
        #expect(refusal.receive(.completed(responseID: nil, usage: nil)) == .finish(.failed))
        #expect(refusal.failure == .refusal("I can't help with that."))

        var empty = TurnStateMachine(maxOutputTokens: 1)
        empty.send()
        #expect(empty.receive(.completed(responseID: nil, usage: nil)) == .finish(.failed))
        #expect(empty.failure == .emptyAnswer)
    }

    @Test func oneBadEventIsReportedOnceAndNotFatal() {
        var machine = TurnStateMachine(maxOutputTokens: 1)
        machine.send()
        guard case .warn = machine.receive(.malformed("not JSON")) else {
            Issue.record("no warning")
            return
        }
        #expect(machine.receive(.malformed("again")) == .none)
        _ = machine.receive(.textDelta("Plan"))
        #expect(machine.receive(.completed(responseID: nil, usage: nil)) == .finish(.completed))
    }
}

/// Endings and restarts that retries and local servers bring.
@Suite struct TurnStateMachineRetryTests {
    @Test func aCompletedAnswerCompletes() {
        var machine = TurnStateMachine(maxOutputTokens: 100)
        machine.send()
        #expect(machine.receive(.textDelta("Plan")) == .show("Plan"))
        #expect(machine.receive(.completed(responseID: "r", usage: Usage(inputTokens: 5, outputTokens: 40))) == .finish(.completed))
        #expect(machine.failure == nil)
    }

    @Test func completedAtTheOutputLimitIsReallyIncomplete() {
        // llama-server's Responses API reports `completed` when it stopped at max_output_tokens.
        var machine = TurnStateMachine(maxOutputTokens: 100)
        machine.send()
        _ = machine.receive(.textDelta("Plan, cut"))
        #expect(machine.receive(.completed(responseID: nil, usage: Usage(inputTokens: 5, outputTokens: 100))) == .finish(.incomplete))
        #expect(machine.failure == .incomplete(reason: "max_output_tokens", maxOutputTokens: 100))
        #expect(machine.text == "Plan, cut")
    }

    @Test func aFreshAttemptForgetsTheFailedOneButOnlyBeforeText() {
        var machine = TurnStateMachine(maxOutputTokens: 100)
        machine.send()
        _ = machine.receive(.created(responseID: "first"))
        machine.restart()
        #expect(machine.state == .sending)
        #expect(machine.responseID == nil)
        _ = machine.receive(.textDelta("shown"))
        machine.restart()
        #expect(machine.state == .streaming)
        #expect(machine.hasShownText)
    }

    @Test func aFailureAfterTextKeepsTheText() {
        var machine = TurnStateMachine(maxOutputTokens: 100)
        machine.send()
        _ = machine.receive(.textDelta("half a plan"))
        #expect(machine.fail(.transport(.connectionLost, host: "h")) == .finish(.failed))
        #expect(machine.text == "half a plan")
        #expect(machine.fail(.cutOff) == .none)
    }

    /// The retries are the machine's: a failure before any text waits and sends again while the policy allows,
    /// then the turn fails with that failure; after text, no retry.
    @Test func failuresBeforeTextAreRetriedAsThePolicySaysThenTheTurnFails() {
        let policy = RetryPolicy(maxRetries: 2)
        let now = Date(timeIntervalSince1970: 0)
        var machine = TurnStateMachine(maxOutputTokens: 100)
        machine.send()
        let busy = RequestFailure(.http(status: 503, message: nil, code: nil, model: "gpt-5.2", keySuffix: nil))
        guard case .retry(let first) = machine.attemptFailed(busy, policy: policy, now: now, randomFraction: 0.5) else {
            Issue.record("a 503 before any text is retried")
            return
        }
        #expect(first.retry == 1 && machine.state == .waiting(retry: 1))
        machine.restart()
        #expect(machine.state == .sending)
        guard case .retry(let second) = machine.attemptFailed(busy, policy: policy, now: now, randomFraction: 0.5) else {
            Issue.record("the second 503 is retried too")
            return
        }
        #expect(second.retry == 2 && second.seconds > first.seconds)
        machine.restart()
        #expect(machine.attemptFailed(busy, policy: policy, now: now, randomFraction: 0.5) == .finish(.failed))
        #expect(machine.retries == 2 && machine.failure == busy.error)

        var shown = TurnStateMachine(maxOutputTokens: 100)
        shown.send()
        _ = shown.receive(.textDelta("Learning"))
        #expect(shown.attemptFailed(busy, policy: policy, now: now, randomFraction: 0.5) == .finish(.failed))
        #expect(shown.retries == 0)
    }
}
