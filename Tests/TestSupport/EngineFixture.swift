import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import Synchronization
import Testing

/// Collects what a turn reported, for checking the retry lines.
package final class ProgressLog: Sendable {
    private let events = Mutex<[TurnProgress]>([])
    package init() {}
    package func record(_ progress: TurnProgress) { events.withLock { $0.append(progress) } }
    package var all: [TurnProgress] { events.withLock { $0 } }
    package var waits: [RetryWait] {
        all.compactMap { if case .retrying(let wait) = $0 { wait } else { nil } }
    }
    package var text: String {
        all.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }
}

package struct EngineFixture {
    package let model: ScriptedModel
    package let home: TemporaryHome
    package let clock: RecordingRetryClock
    package let engine: SessionEngine
    package let inputs: LessonInputs

    /// - Parameter timers: the clock of the turn's deadline and slow notice; by default neither fires.
    package init(
        maxRetries: Int = 2, deadline: TimeInterval = 600, idleTimeout: TimeInterval = 30,
        clock: RecordingRetryClock = RecordingRetryClock(), slowNotice: TimeInterval? = nil,
        model: ScriptedModel = ScriptedModel(), timers: TimerClock = TimerClock(), structured: Bool = false
    ) async throws {
        self.model = model
        home = try TemporaryHome()
        self.clock = clock
        inputs = try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45)
        var settings = ModelSettings(
            baseURL: URL(string: "https://api.openai.com/v1") ?? URL(fileURLWithPath: "/"),
            apiKey: "sk-test.SECRETKEY-9z8y7x6w5v", model: "gpt-5.2",
            idleTimeout: idleTimeout, deadline: deadline, retryPolicy: RetryPolicy(maxRetries: maxRetries))
        settings.slowNotice = slowNotice
        settings.structured = structured
        engine = try SessionEngine(
            newSessionWith: inputs, name: nil, store: home.store, prompts: .builtIn,
            client: ModelClient(transport: model, settings: settings), toolVersion: "test",
            retryClock: clock, timerClock: timers)
    }

    package func generate(_ log: ProgressLog = ProgressLog()) async -> TurnOutcome {
        await engine.run(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) {
            log.record($0)
        }
    }

    package func shorten(to minutes: Int, _ log: ProgressLog = ProgressLog()) async throws -> TurnOutcome {
        var target = inputs
        target.minutes = minutes
        return await engine.run(command: "/shorten \(minutes)", refinement: Refinement(.revise(.shorten), inputs: target)) {
            log.record($0)
        }
    }

    /// The session as a resumed process would rebuild it from the file.
    package func reread() async throws -> SessionState {
        let id = await engine.state.header.id
        let loaded = try TranscriptReader.read(home.directory.transcript(id: id))
        return try #require(TranscriptReader.state(of: loaded))
    }
}

extension EngineFixture {
    /// A unit of three lessons with lessons 1 and 2 written, from `overview` (``UnitFixtures/overview`` by default).
    package static func writtenUnit(overview: String = UnitFixtures.overview) async throws -> (EngineFixture, SessionState) {
        let fixture = try await EngineFixture(model: ScriptedModel([.text(overview)]))
        _ = await fixture.engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        for number in 1...2 { _ = await fixture.engine.writeLesson(number, options: FollowUpOptions()) { _ in } }
        return (fixture, await fixture.engine.state)
    }
}
