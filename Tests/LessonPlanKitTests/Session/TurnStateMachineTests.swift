import LessonPlanKit
import Testing

/// The turn's life as plain values: what each event does, and what may be retried.
@Suite struct TurnStateMachineTests {
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
}
