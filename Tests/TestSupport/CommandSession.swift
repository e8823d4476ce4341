import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import ModelTestSupport
import StoreTestSupport
import Testing

/// A fresh session with a first plan, run in one place.
package struct CommandSession {
    package let home: TemporaryHome
    package let transport: ScriptedTransport
    package let engine: SessionEngine
    package let host: RecordingHost
    package let runner: CommandRunner

    package init(place: CommandPlace, transport: ScriptedTransport = .passingPlans(), answers: [Bool] = [], edits: [String] = [])
        async throws
    {
        home = try TemporaryHome()
        self.transport = transport
        let settings = ModelSettings(
            baseURL: try #require(URL(string: "http://127.0.0.1:9/v1")), apiKey: "sk-test-runner", model: "gpt-5.2",
            retryPolicy: RetryPolicy(maxRetries: 0))
        engine = try SessionEngine(
            newSessionWith: LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), name: nil, store: home.store,
            prompts: .builtIn, client: ModelClient(transport: transport, settings: settings), toolVersion: "test")
        host = RecordingHost(place: place, workingDirectory: home.url, answers: answers, edits: edits)
        runner = CommandRunner(engine: engine, host: host, settings: SessionSettings())
    }

    package var versions: Int { get async { await engine.state.versions.count } }
    package var commands: [String] { get async { await engine.state.turns.map(\.started.command) } }
}
