import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import TestSupport
import Testing

/// `/history` fits a terminal and gives a pipe whole values: a long command is clipped only on screen.
@Suite struct HistoryCommandTests {
    @Test(arguments: [true, false])
    func aLongCommandIsClippedOnlyAtATerminal(terminal: Bool) async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let settings = ModelSettings(
            baseURL: URL(string: "http://127.0.0.1:9/v1")!, apiKey: "sk-test-runner", model: "gpt-5.2",
            retryPolicy: RetryPolicy(maxRetries: 0))
        let engine = try SessionEngine(
            newSessionWith: LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), name: nil, store: home.store,
            prompts: .builtIn, client: ModelClient(transport: ScriptedTransport.passingPlans(), settings: settings), toolVersion: "test")
        let host = RecordingHost(place: .script, workingDirectory: home.url, showsOnTerminal: terminal)
        let runner = CommandRunner(engine: engine, host: host, settings: SessionSettings())
        _ = await runner.run("/generate")
        let long = "add a think-pair-share after the direct instruction and a tide-table reading for the early finishers"
        _ = await runner.run(long)
        _ = await runner.run("/history")
        let shown = try #require(host.shown.last)
        #expect(shown.contains(long) == !terminal, "\(shown)")
        #expect(shown.contains("…") == terminal)
    }
}
